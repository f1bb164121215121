/**
 * The user's moves through the UI, shared by the journeys. Things on the page are found by the
 * roles and names of renderer/i18n/en, as a user (or a screen reader) finds them.
 */
import { expect, type Locator, type Page } from '@playwright/test';

export type Screen = 'Tasks' | 'Gallery' | 'Settings' | 'Costs';

/** Clicks a sidebar entry and waits until it is the current page. */
export async function showScreen(page: Page, screen: Screen): Promise<void> {
  const item = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: new RegExp(`^${screen}`) });
  await item.click();
  await expect(item).toHaveAttribute('aria-current', 'page');
}

/** The API key section of Settings. */
export function keySection(page: Page): Locator {
  return page.getByRole('region', { name: 'API key', exact: true });
}

/**
 * Settings (shown) → the API key typed and saved until Settings says it is stored. When the
 * cipher offers only weak storage (Electron on Linux without a keyring) the consent panel is
 * accepted.
 */
export async function saveKey(page: Page, key: string): Promise<void> {
  const section = keySection(page);
  await section.getByLabel('API key', { exact: true }).fill(key);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/^A key is stored\. Fingerprint:/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
}

/**
 * Settings → service address and API key, as a user types them. When the cipher offers only
 * weak storage (Electron on Linux without a keyring) the consent panel is accepted.
 */
export async function connectToService(page: Page, baseUrl: string, key: string): Promise<void> {
  await showScreen(page, 'Settings');
  const service = page.locator('#settings-service-pictor');
  await service.getByLabel('Service address (base URL)').fill(baseUrl);
  await service.getByRole('button', { name: 'Save' }).click();
  await expect(service.getByRole('button', { name: 'Save' })).toBeDisabled();
  await saveKey(page, key);
  // With a key and an address the demo notice goes: tasks now go to this service.
  await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);
}

/**
 * Settings → one provider's section (`label`: "fal.ai", "Replicate"…): its address and its key,
 * checked as it is saved. The address is the demo process itself, not the switch in front of it:
 * fal, Replicate and BFL hand out status addresses on their own origin, and a key goes only to the
 * address it was entered for.
 */
export async function connectDialect(
  page: Page,
  label: string,
  url: string,
  key: string,
): Promise<void> {
  const section = page.getByRole('region', { name: label, exact: true });
  await section.getByLabel('Address', { exact: true }).fill(url);
  const save = section.getByRole('button', { name: 'Save', exact: true });
  await save.click();
  await expect(save).toBeDisabled();
  await section.getByLabel(`${label} API key`).fill(key);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/A key is stored/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(
    section.getByText(/^The service accepted this key when it was checked/),
  ).toBeVisible();
}

/** The compose form of the Tasks screen. */
export function composeForm(page: Page): Locator {
  return page.getByRole('form', { name: 'New task' });
}

/** The compare plan dialog's target `slot` (1-based) set to `service`. */
export async function setCompareTarget(
  dialog: Locator,
  slot: number,
  service: string,
): Promise<void> {
  const row = dialog.getByRole('group', { name: `Target ${String(slot)}`, exact: true });
  await row.getByLabel('Service', { exact: true }).selectOption({ label: service });
}

/** The compare view's cell of the target on `service` (its name, its visible label: "Replicate · …"). */
export function compareCell(view: Locator, service: string): Locator {
  return view.getByRole('gridcell', { name: new RegExp(`^${service}`) });
}

/**
 * Types a prompt (and a custom size, if given; the form's other fields stay as they are) and
 * presses Generate, then waits until the submit went out: the prompt empties and the task's row
 * is in the history.
 */
export async function generate(
  page: Page,
  prompt: string,
  options: { customSize?: string } = {},
): Promise<void> {
  const form = composeForm(page);
  if (options.customSize !== undefined) {
    await form.getByLabel('Size', { exact: true }).selectOption({ label: 'Custom…' });
    await form.getByLabel('Custom size (width x height)').fill(options.customSize);
  }
  await form.getByLabel('Prompt', { exact: true }).fill(prompt);
  await form.getByRole('button', { name: /^Generate/ }).click();
  await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue('');
  await expect(page.getByRole('article', { name: prompt }).first()).toBeVisible();
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

/** The history section of the Tasks screen. */
function historySection(page: Page): Locator {
  return page.getByRole('region', { name: 'Tasks' });
}

/** The history's rows (one article per task, named by its prompt). */
export function taskRows(page: Page): Locator {
  return historySection(page).getByRole('article');
}

/** The history's row of the task with this prompt (its accessible name is the prompt). */
export function taskRow(page: Page, prompt: string): Locator {
  return page
    .getByRole('feed', { name: 'Task history' })
    .getByRole('article', { name: prompt, exact: true });
}

/** The row's status badge ("Processing", "Stopped watching", "Not submitted"…). */
export function statusBadge(row: Locator): Locator {
  return row.locator('.badge');
}

/** Opens a row's details dialog and returns it. */
export async function openDetails(page: Page, prompt: string): Promise<Locator> {
  await taskRow(page, prompt).getByRole('button', { name: 'Details' }).click();
  const dialog = page.getByRole('dialog', { name: 'Task details' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Closes a dialog with its Close button and waits until it is gone. */
export async function closeDialog(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
}

/**
 * The gallery's filter bar (its search is always in view), with its "Filters" panel opened when
 * the header folds the other filters behind it (any window but a very large one).
 */
export async function galleryFilters(page: Page): Promise<Locator> {
  const bar = page.locator('.gallery-filters');
  const button = bar.locator('.header-panel > button');
  if ((await button.count()) > 0 && (await button.getAttribute('aria-expanded')) !== 'true') {
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
  }
  return bar;
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

/**
 * Shows the gallery and waits until it holds one tile per prompt, each image loaded: what a
 * check or a picture of the gallery needs first.
 */
export async function showGalleryOf(page: Page, prompts: readonly string[]): Promise<void> {
  await showScreen(page, 'Gallery');
  await expect(galleryTiles(page)).toHaveCount(prompts.length);
  for (const prompt of prompts) {
    await expectLoadedImage(galleryTiles(page).getByRole('img', { name: prompt }));
  }
}

/** The image viewer dialog. */
export function viewer(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Image viewer' });
}

/** The picture the viewer shows now. */
export function viewerImage(page: Page): Locator {
  return viewer(page)
    .getByRole('group', { name: /^Image at/ })
    .getByRole('img');
}

/** True once the image element has decoded real pixels (the file was served and read). */
function isDecoded(image: Locator): Promise<boolean> {
  return image.evaluate((node) => {
    const element = node as HTMLImageElement;
    return element.complete && element.naturalWidth > 0;
  });
}

/** Waits until `image` is shown and decoded (not a broken-image icon). */
export async function expectLoadedImage(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect.poll(() => isDecoded(image)).toBe(true);
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
