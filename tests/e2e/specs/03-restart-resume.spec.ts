/**
 * Journey 3: the user quits while two tasks are processing and starts Pictor again. The tasks
 * come back with the same ids, the app polls them again on its own and they complete; the
 * service saw exactly two submits (nothing was resubmitted) and polls after the restart.
 */
import { expect, test, type Page } from '@playwright/test';
import { startDemoProcess, type DemoProcess } from '../harness/demo-process';
import { listFiles, makeAppFolders, readHistory, type AppFolders } from '../harness/disk';
import { launchApp, type LaunchedApp } from '../harness/launch-app';

const KEY = 'sk-e2e-restart';
const PROMPT = 'A clock tower in the rain, interrupted';

let demo: DemoProcess;
let folders: AppFolders;
let app: LaunchedApp | null = null;

test.beforeAll(async () => {
  demo = await startDemoProcess({ keys: [`me:${KEY}`], durationMs: 6_000 });
});

test.afterAll(async () => {
  await demo.stop();
});

test.beforeEach(async () => {
  folders = await makeAppFolders('restart');
});

test.afterEach(async () => {
  await app?.close();
  app = null;
  await folders.remove();
});

async function connect(page: Page, url: string, key: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Settings' })
    .click();
  const service = page.getByRole('region', { name: 'Service' });
  await service.getByLabel('Service address (base URL)').fill(url);
  await service.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(service.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  const keySection = page.getByRole('region', { name: 'API key' });
  await keySection.getByLabel('API key', { exact: true }).fill(key);
  await keySection.getByRole('button', { name: 'Save key' }).click();
  await expect(keySection).toContainText('A key is stored.');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Tasks' })
    .click();
}

async function localIds(page: Page): Promise<string[]> {
  const rows = page.getByRole('article', { name: PROMPT });
  const ids = await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-local-id') ?? ''),
  );
  return ids.sort();
}

test('restart while two tasks are processing: they resume and complete, nothing is resubmitted', async () => {
  app = await launchApp({
    userDataDir: folders.userDataDir,
    galleryDir: folders.galleryDir,
    env: { PICTOR_POLL_INTERVAL_MS: '300' },
  });
  await connect(app.page, demo.url, KEY);
  const form = app.page.getByRole('form', { name: 'New task' });
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByLabel('Tasks', { exact: true }).fill('2');
  await form.getByRole('button', { name: 'Generate 2' }).click();

  const rowsBefore = app.page.getByRole('article', { name: PROMPT });
  await expect(rowsBefore).toHaveCount(2);
  for (const row of await rowsBefore.all()) {
    await expect(row.getByText('Processing', { exact: true })).toBeVisible();
  }
  await expect.poll(async () => (await demo.log()).submits.length).toBe(2);
  const idsBefore = await localIds(app.page);
  const serviceTasks = (await demo.tasks()).filter((task) => task.prompt === PROMPT);
  expect(serviceTasks.map((task) => task.status)).toEqual(['processing', 'processing']);

  const page = await app.restart();
  const restartedAt = Date.now();

  const rows = page.getByRole('article', { name: PROMPT });
  await expect(rows).toHaveCount(2);
  expect(await localIds(page)).toEqual(idsBefore);
  for (const row of await rows.all()) {
    await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByRole('img', { name: PROMPT })).toBeVisible();
  }

  const log = await demo.log();
  expect(log.submits).toHaveLength(2);
  for (const task of serviceTasks) {
    const pollsAfter = log.polls.filter(
      (poll) => poll.path === `/v1/tasks/${task.id}` && poll.at >= restartedAt,
    );
    expect(pollsAfter.length, `polls of ${task.id} after the restart`).toBeGreaterThan(0);
  }
  expect(
    (await listFiles(folders.galleryDir)).filter((file) => file.endsWith('/image-1.png')),
  ).toHaveLength(2);

  await app.close();
  app = null;
  const history = readHistory(folders.userDataDir);
  expect(history.map((record) => record.localId).sort()).toEqual(idsBefore);
  expect(history.map((record) => record.taskId).sort()).toEqual(
    serviceTasks.map((task) => task.id).sort(),
  );
  for (const record of history) expect(record.status).toBe('completed');
});
