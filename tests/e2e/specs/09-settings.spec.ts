/**
 * Journey 9, settings: the dark theme and the defaults for new prompts (model, size, quality,
 * count) are saved, survive a restart (Settings shows them again, the compose form starts with
 * them, and the service receives them); removing the key returns the app to the built-in demo
 * service (the banner is back, and the next task never reaches the service process).
 *
 * Only a browser shows here: the theme applied to the real stylesheet and the settings surviving a
 * restart of the whole host, seen again in the page.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readHistory, readSidecars } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import { composeForm, connectToService, generateAll, keySection, showScreen } from './support/ui';

const ACCOUNT = 'settings';
const KEY = 'sk-e2e-settings-8c41d07e2a';
const MODEL = 'e2e-model-x';
const SIZE = '1536x1024';
const QUALITY = 'high';
const WITH_DEFAULTS = 'A paper lantern floating over a quiet lake';
const IN_DEMO = 'A lantern made of glass, back in the demo';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('settings');

function theme(page: Page): Promise<{ name: string | undefined; background: string }> {
  return page.evaluate(() => ({
    name: document.documentElement.dataset.theme,
    background: getComputedStyle(document.body).backgroundColor,
  }));
}

/** The settings file as the app wrote it (electron-store's and the harness's are both JSON). */
async function savedSettings(): Promise<Record<string, unknown>> {
  const text = await readFile(join(session.folders.userDataDir, 'settings.json'), 'utf8');
  return (JSON.parse(text) as { settings: Record<string, unknown> }).settings;
}

/** Settings → New prompts: a typed model, preset size and quality, and a count. */
async function setDefaults(page: Page): Promise<void> {
  const defaults = page.getByRole('region', { name: 'New prompts' });
  const model = defaults.getByLabel('Model', { exact: true });
  await model.fill(MODEL);
  await model.press('Enter');
  await defaults.getByLabel('Size', { exact: true }).selectOption(SIZE);
  await defaults.getByLabel('Quality', { exact: true }).selectOption(QUALITY);
  const count = defaults.getByLabel('Number of tasks', { exact: true });
  await count.fill('2');
  await count.press('Enter');
  await expect.poll(savedSettings).toMatchObject({
    defaultModel: MODEL,
    defaultSize: SIZE,
    defaultQuality: QUALITY,
    defaultCount: 2,
  });
}

/** Settings and the compose form both show the saved defaults. */
async function expectDefaultsShown(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  const defaults = page.getByRole('region', { name: 'New prompts' });
  await expect(defaults.getByLabel('Model', { exact: true })).toHaveValue(MODEL);
  await expect(defaults.getByLabel('Size', { exact: true })).toHaveValue(SIZE);
  await expect(defaults.getByLabel('Quality', { exact: true })).toHaveValue(QUALITY);
  await expect(defaults.getByLabel('Number of tasks', { exact: true })).toHaveValue('2');
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(
    page.locator('#settings-service-pictor').getByLabel('Service address (base URL)'),
  ).toHaveValue(demo.url);
  await expect(keySection(page).getByText(/^A key is stored\. Fingerprint:/)).toBeVisible();

  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  await expect(form.getByLabel('Model', { exact: true })).toHaveValue(MODEL);
  await expect(form.getByLabel('Size', { exact: true })).toHaveValue(SIZE);
  await expect(form.getByLabel('Quality', { exact: true })).toHaveValue(QUALITY);
  await expect(form.getByLabel('Number of tasks', { exact: true })).toHaveValue('2');
  await expect(form.getByRole('button', { name: 'Generate 2' })).toBeVisible();
}

test('theme and defaults survive a restart; removing the key returns to the demo service', async () => {
  const app = await session.launch({ colorScheme: 'light' });
  let page = app.page;
  const light = await theme(page);
  expect(light.name).toBe('light');

  await connectToService(page, demo.url, KEY);
  // The radio and the window show the choice at once (store/settings-slice.ts), before main has
  // stored it: the settings file is read back once the defaults below are in it too.
  await page.getByRole('radio', { name: 'Dark' }).click();
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const dark = await theme(page);
  expect(dark.background).not.toBe(light.background);
  await setDefaults(page);
  expect(await savedSettings()).toMatchObject({
    theme: 'dark',
    serviceBaseUrls: { pictor: demo.url },
  });

  page = await app.restart();
  // The OS says light; the saved choice wins.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect((await theme(page)).background).toBe(dark.background);
  await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);
  await expectDefaultsShown(page);

  // One press of "Generate 2" sends two tasks with the saved defaults.
  await generateAll(page, [WITH_DEFAULTS]);
  await expect(page.getByRole('article', { name: WITH_DEFAULTS })).toHaveCount(2);
  await expect(
    page.getByRole('article', { name: WITH_DEFAULTS }).getByText('Completed', { exact: true }),
  ).toHaveCount(2, { timeout: 30_000 });
  const served = await demo.tasks();
  expect(served).toHaveLength(2);
  for (const task of served) {
    expect(task).toMatchObject({
      account: ACCOUNT,
      prompt: WITH_DEFAULTS,
      model: MODEL,
      size: SIZE,
      quality: QUALITY,
    });
  }

  await removeKey(page);
  await expectDemoMode(page, served.length);
});

/** Settings → Remove key, confirmed: the key field is back and the vault file no longer has it. */
async function removeKey(page: Page): Promise<void> {
  await showScreen(page, 'Settings');
  await keySection(page).getByRole('button', { name: 'Remove key' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove the API key?' });
  await confirm.getByRole('button', { name: 'Remove key' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(keySection(page).getByLabel('API key', { exact: true })).toBeVisible();
  await expect(keySection(page).getByText(/A key is stored/)).toHaveCount(0);
  const vault = JSON.parse(
    await readFile(join(session.folders.userDataDir, 'key-vault-pictor.json'), 'utf8'),
  ) as Record<string, unknown>;
  expect(vault['apiKey']).toBeUndefined();
}

/** The demo banner is back and a new task goes to the built-in demo, not the service process. */
async function expectDemoMode(page: Page, servedBefore: number): Promise<void> {
  const banner = page.getByRole('region', { name: 'Demo service' });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Connect a service' })).toBeVisible();

  await showScreen(page, 'Tasks');
  await composeForm(page).getByLabel('Number of tasks', { exact: true }).fill('1');
  await generateAll(page, [IN_DEMO]);
  expect(await demo.tasks()).toHaveLength(servedBefore);
  expect((await demo.log()).submits).toHaveLength(servedBefore);
  const sidecar = (await readSidecars(session.folders.galleryDir)).get(IN_DEMO);
  expect(sidecar).toMatchObject({ endpoint: 'demo:', status: 'completed' });

  await session.close();
  const history = readHistory(session.folders.userDataDir);
  expect(history.filter((record) => record.endpoint === 'demo:')).toHaveLength(1);
  const sent = history.filter((record) => record.request.prompt === WITH_DEFAULTS);
  expect(sent).toHaveLength(2);
  for (const record of sent) {
    expect(record.endpoint).toBe(demo.url);
    expect(record.request).toMatchObject({ model: MODEL, size: SIZE, quality: QUALITY });
  }
}
