/**
 * Journey 21: a key for a second service. The user gives fal.ai the address of their own fal
 * service (a demo process speaking fal's dialect) and its key in Settings, picks fal.ai in the
 * compose form, generates, and finds the image in the gallery labelled with that service and
 * under its filter. The service saw the submit with fal's own key header; the page and the disk
 * never hold the key's text.
 *
 * Only a browser shows here: a second service's demo process receiving fal's own key header over
 * real HTTP from the built app, its image labelled in the painted gallery.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readHistory } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  composeForm,
  expectLoadedImage,
  galleryFilters,
  galleryTiles,
  showScreen,
  taskRow,
  viewer,
} from './support/ui';

const KEY = 'fal-e2e-key-5d1c7a9e';
const PROMPT = 'A lantern on a jetty';

const fal = useDemoProcess({ dialect: 'fal', keys: [`faluser:${KEY}`], durationMs: [500, 1000] });
const session = useAppSession('service-keys');

test('a key for fal.ai in Settings, fal.ai picked in compose, its image in the gallery under fal.ai', async () => {
  const app = await session.launch();
  const { page } = app;

  await showScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'fal.ai' });
  const address = section.getByLabel('Address', { exact: true });
  // The service itself, not the TCP switch in front of it: fal hands out status and result
  // addresses on its own origin, and the key goes nowhere but the address it was entered for.
  await address.fill(fal.directUrl);
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(section.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  const keyField = section.getByLabel('fal.ai API key');
  await expect(keyField).toHaveAttribute('type', 'password');
  await keyField.fill(KEY);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/A key is stored/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
  // Saved as every key is: checked with fal first (a request that creates nothing), so it has
  // the tick.
  await expect(
    section.getByText(/^The service accepted this key when it was checked/),
  ).toBeVisible();
  await expect(section).toContainText(`Sent only to ${fal.directUrl}.`);
  // Today's contract's key stays unset.
  await expect(page.getByRole('region', { name: 'API key', exact: true })).not.toContainText(
    'A key is stored',
  );

  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  await form.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await expect(form.getByLabel('Model', { exact: true })).toHaveValue('fal-ai/flux/schnell');
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByRole('button', { name: /^Generate/ }).click();
  const row = taskRow(page, PROMPT);
  await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('fal.ai · fal-ai/flux/schnell');

  // What the service saw: one submit, with fal's own key header.
  const log = await fal.log();
  expect(log.submits).toHaveLength(1);
  expect(log.submits[0]?.account).toBe('faluser');

  await showScreen(page, 'Gallery');
  const filters = await galleryFilters(page);
  await filters.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await expect(galleryTiles(page)).toHaveCount(1);
  const image = galleryTiles(page).getByRole('img', { name: PROMPT });
  await expectLoadedImage(image);
  await filters
    .getByLabel('Service', { exact: true })
    .selectOption({ label: 'Image task service' });
  await expect(page.getByRole('heading', { name: 'No images match these filters' })).toBeVisible();
  await filters.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await page.keyboard.press('Escape');
  await galleryTiles(page).first().click();
  const details = viewer(page).getByRole('complementary');
  await expect(details).toContainText('Service');
  await expect(details).toContainText('fal.ai');

  // Never the key's text in the page or its messages; on disk the fal vault holds only its
  // ciphertext, and the task is recorded as fal's.
  const { folders } = session;
  expect(await page.content()).not.toContain(KEY);
  if (app.host === 'chromium') expect(app.ipcPayloads().join('\n')).not.toContain(KEY);
  await session.close();
  const vault = await readFile(join(folders.userDataDir, 'key-vault-fal.json'), 'utf8');
  expect(vault).toContain('ciphertext');
  expect(vault).not.toContain(KEY);
  const history = readHistory(folders.userDataDir);
  expect(history).toHaveLength(1);
  expect(history[0]).toMatchObject({
    status: 'completed',
    provider: 'fal',
    endpoint: fal.directUrl,
  });
});
