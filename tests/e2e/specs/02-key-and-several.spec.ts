/**
 * Journey 2: the user points Pictor at their service (a demo process that accepts only their
 * key), pastes the key, and the key field shows only its fingerprint afterwards; then three
 * tasks from one submit all complete. The service saw exactly one submit per task, each with the
 * key, and no download carried it; the disk holds the three images and not the key's text.
 *
 * Only a browser shows here: the key in a real password field and the fingerprint after it, read
 * from the rendered page, and a separate service process seeing the key over real HTTP (the
 * renderer tests run main in their own process).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { listFiles, readHistory } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';

const KEY = 'sk-e2e-me';
const PROMPT = 'Three paper boats on a pond';

const demo = useDemoProcess({ keys: [`me:${KEY}`], durationMs: [1000, 2000] });
const session = useAppSession('key');

test('paste a key and base URL; the key is masked; three tasks at once, one submit each', async () => {
  const { folders } = session;
  const app = await session.launch();
  const { page } = app;
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Settings' })
    .click();

  const service = page.locator('#settings-service-pictor');
  const baseUrl = service.getByLabel('Service address (base URL)');
  await baseUrl.fill(demo.url);
  await service.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(service.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

  const keySection = page.getByRole('region', { name: 'API key' });
  const keyField = keySection.getByLabel('API key', { exact: true });
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill(KEY);
  await keySection.getByRole('button', { name: 'Save key' }).click();

  // Afterwards only the fingerprint: no field holds the key, and its text is nowhere in the page.
  const fingerprint = await keyFingerprint(KEY);
  await expect(keySection).toContainText(`A key is stored. Fingerprint: ${fingerprint}`);
  await expect(keySection.getByLabel('API key', { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain(KEY);
  const fieldValues = await page.evaluate(() =>
    [...document.querySelectorAll('input, textarea')].map(
      (field) => (field as HTMLInputElement).value,
    ),
  );
  expect(fieldValues.join('\n')).not.toContain(KEY);
  await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Tasks' })
    .click();
  const form = page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByLabel('Number of tasks', { exact: true }).fill('3');
  await form.getByRole('button', { name: 'Generate 3' }).click();

  const rows = page.getByRole('article', { name: PROMPT });
  await expect(rows).toHaveCount(3);
  for (const row of await rows.all()) {
    await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByRole('img', { name: PROMPT })).toBeVisible();
  }

  // What the service saw: one submit per task, each with the key; downloads without it.
  const log = await demo.log();
  expect(log.submits).toHaveLength(3);
  for (const submit of log.submits) {
    expect(submit.status).toBe(200);
    expect(submit.account).toBe('me');
    expect(submit.headers.authorization).toBe(`Bearer ${KEY}`);
  }
  expect(log.polls.length).toBeGreaterThanOrEqual(3);
  expect(log.downloads.length).toBeGreaterThanOrEqual(3);
  for (const download of log.downloads) expect(download.headers.authorization).toBeUndefined();
  const serviceTasks = await demo.tasks();
  expect(serviceTasks.filter((task) => task.prompt === PROMPT)).toHaveLength(3);

  // What the disk holds: three task folders with their image, the key's text nowhere in the vault.
  const images = (await listFiles(folders.galleryDir)).filter((file) =>
    file.endsWith('/image-1.png'),
  );
  expect(images).toHaveLength(3);
  if (app.host === 'chromium') {
    expect(app.ipcPayloads().join('\n')).not.toContain(KEY);
  }
  await session.close();
  expect(await readFile(join(folders.userDataDir, 'key-vault-pictor.json'), 'utf8')).not.toContain(
    KEY,
  );
  const history = readHistory(folders.userDataDir);
  expect(history).toHaveLength(3);
  expect(new Set(history.map((record) => record.taskId))).toEqual(
    new Set(serviceTasks.filter((task) => task.prompt === PROMPT).map((task) => task.id)),
  );
  for (const record of history) {
    expect(record).toMatchObject({ status: 'completed', endpoint: demo.url, account: fingerprint });
  }
});
