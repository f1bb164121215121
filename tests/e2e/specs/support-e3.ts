/**
 * Helpers shared by journeys 8–12 (gallery actions, settings, security, accessibility,
 * screenshots): the user's moves through the UI, what the disk holds, and axe-core. Things on
 * the page are found by the roles and names of renderer/i18n/en, as a user (or a screen reader)
 * finds them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { parseSidecar, SIDECAR_NAME } from '../../../electron/core/gallery/sidecar';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { listFiles } from '../harness/disk';

export { listFiles, makeAppFolders, readHistory, type AppFolders } from '../harness/disk';

/** Fast embedded demo service and polling, for journeys that are not about timing. */
export const FAST_ENV: Readonly<Record<string, string>> = {
  PICTOR_DEMO_DURATION_MS: '1000',
  PICTOR_POLL_INTERVAL_MS: '300',
};

export type Screen = 'Tasks' | 'Gallery' | 'Settings';

/** Clicks a sidebar entry and waits until it is the current page. */
export async function showScreen(page: Page, screen: Screen): Promise<void> {
  const item = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${screen}`) });
  await item.click();
  await expect(item).toHaveAttribute('aria-current', 'page');
}

export function composeForm(page: Page): Locator {
  return page.getByRole('form', { name: 'New task' });
}

/** Types a prompt and presses Generate (the form's other fields stay as they are). */
export async function generate(page: Page, prompt: string): Promise<void> {
  const form = composeForm(page);
  await form.getByLabel('Prompt', { exact: true }).fill(prompt);
  await form.getByRole('button', { name: /^Generate/ }).click();
  await expect(page.getByRole('article', { name: prompt }).first()).toBeVisible();
}

/** The history's rows (one article per task, named by its prompt). */
export function taskRows(page: Page): Locator {
  return page.getByRole('region', { name: 'Tasks' }).getByRole('article');
}

/**
 * Generates each prompt from the Tasks screen, then waits until every row of the history says
 * Completed and shows its thumbnail.
 */
export async function generateAll(page: Page, prompts: readonly string[]): Promise<void> {
  await showScreen(page, 'Tasks');
  for (const prompt of prompts) await generate(page, prompt);
  const rows = taskRows(page);
  const completed = rows.filter({ has: page.getByText('Completed', { exact: true }) });
  await expect(completed).toHaveCount(await rows.count(), { timeout: 30_000 });
  for (const row of await rows.all()) await expect(row.getByRole('img').first()).toBeVisible();
}

/** The gallery grid's cells. */
export function galleryTiles(page: Page): Locator {
  return page.getByRole('grid', { name: 'Images' }).getByRole('gridcell');
}

/** The tile whose picture is `prompt`'s image. */
export function tileFor(page: Page, prompt: string): Locator {
  return galleryTiles(page).filter({ has: page.getByRole('img', { name: prompt, exact: true }) });
}

/** The prompts of the tiles in grid order (each tile's image is named by its prompt). */
export function tilePrompts(page: Page): Promise<string[]> {
  return galleryTiles(page)
    .locator('img')
    .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).alt));
}

/** Waits until `image` has arrived and decoded (not a broken-image icon). */
export async function expectLoadedImage(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect
    .poll(() =>
      image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth),
    )
    .toBeGreaterThan(0);
}

/**
 * Settings → service address and API key, as a user types them. When the cipher offers only
 * weak storage (Electron on Linux without a keyring) the consent panel is accepted.
 */
export async function connectToService(page: Page, baseUrl: string, key: string): Promise<void> {
  await showScreen(page, 'Settings');
  const service = page.getByRole('region', { name: 'Service' });
  await service.getByLabel('Service address (base URL)').fill(baseUrl);
  await service.getByRole('button', { name: 'Save' }).click();
  await expect(service.getByRole('button', { name: 'Save' })).toBeDisabled();
  const section = keySection(page);
  await section.getByLabel('API key', { exact: true }).fill(key);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/^A key is stored\. Fingerprint:/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);
}

export function keySection(page: Page): Locator {
  return page.getByRole('region', { name: 'API key', exact: true });
}

/** Neither the markup, the fields' values, web storage nor IndexedDB names hold `secret`. */
export async function expectNotInPage(page: Page, secret: string): Promise<void> {
  const found = await page.evaluate(async (text) => {
    const fields = [...document.querySelectorAll('input, textarea')].map(
      (element) => (element as HTMLInputElement).value,
    );
    const storage = (store: Storage) =>
      Object.keys(store).flatMap((name) => [name, store.getItem(name) ?? '']);
    const databases = (await indexedDB.databases()).map((database) => database.name ?? '');
    const places = {
      html: document.documentElement.outerHTML,
      fields: fields.join('\n'),
      localStorage: storage(localStorage).join('\n'),
      sessionStorage: storage(sessionStorage).join('\n'),
      indexedDB: databases.join('\n'),
      cookie: document.cookie,
      title: document.title,
    };
    return Object.entries(places)
      .filter(([, value]) => value.includes(text))
      .map(([place]) => place);
  }, secret);
  expect(found, 'places in the page that hold the key').toEqual([]);
}

/** Every sidecar's record in the gallery, by prompt (read from disk, parsed as the app does). */
export async function readSidecars(galleryDir: string): Promise<Map<string, TaskRecord>> {
  const records = new Map<string, TaskRecord>();
  for (const file of await listFiles(galleryDir)) {
    if (file !== SIDECAR_NAME && !file.endsWith(`/${SIDECAR_NAME}`)) continue;
    const parsed = parseSidecar(await readFile(join(galleryDir, file), 'utf8'));
    if (!parsed.ok) throw new Error(`${file}: ${parsed.reason}`);
    records.set(parsed.record.request.prompt, parsed.record);
  }
  return records;
}

/** One axe-core violation, as much as a failure message needs. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

const AXE_SCRIPT = join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js');

interface AxeResults {
  violations: {
    id: string;
    impact?: string | null;
    help: string;
    nodes: { target: unknown[] }[];
  }[];
}

/**
 * Runs axe-core over the whole page as it is now and returns its serious and critical
 * violations. page.addScriptTag cannot load axe.min.js here: it adds an inline <script>, which
 * the app's CSP (script-src 'self') refuses, as it should. The script's text is evaluated
 * through the DevTools protocol instead, which the page's CSP does not govern.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(await readFile(AXE_SCRIPT, 'utf8'));
  }
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document): Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    }));
  });
  return violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
}

/** Asserts axe finds nothing serious or critical; the message names the screen and the rules. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await seriousViolations(page);
  expect(violations, `${screen}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}
