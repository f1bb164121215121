/**
 * The layout holds in a small window, at 200 % zoom and in the longest languages: at 800x600 the
 * history shows at least three tasks under the compose form; at 200 % zoom of a 1280x800 window
 * (640x400 CSS pixels) the gallery's header takes a third of the height at most, the tasks'
 * history can fill the window and every control of both headers (and of their panels) lies
 * inside it; in German and the pseudo-locale every choice shows its whole text, every compose
 * label is one line (the default service's form and fal.ai's, with its own options), nothing
 * makes the window scroll sideways, and "Track a task id"'s text stays inside its dialog. At 800x600 in English, German,
 * Arabic and the pseudo-locale every control of the gallery's and Tasks' headers lies inside the
 * window, their filters folded behind "Filters" (and every control of that panel and of
 * Display's too); at 1280 px the gallery's selection bar is one row, in English and Arabic. At
 * 800x600 in German and the pseudo-locale the notice of a keyring that has not answered (a stored
 * key waits: the chromium host's keyring held) lies in the window with the compose form under it,
 * and so does the report of a library opened there whose rebuild left out a task folder under a
 * long crafted name, its list open.
 * Pictures of each case go to test-results/screenshots (docs/screenshots/e2e with
 * `npm run screenshots`).
 *
 * Only a browser shows here: layout: sizes, zoom and text that fits or is cut are only measured in
 * a real layout engine.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { cp, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import { dismissConfirmations, SCREENSHOT_DIR, SCREENSHOT_PROMPTS } from './support/screenshots';
import { useAppSession } from './support/session';
import { launchWithLibrary, makeLibraryFirst } from './support/library';
import { expectLoadedImage, galleryTiles, showScreen, taskRows } from './support/ui';
import { DEFAULT_VIEWPORT, hostName } from '../harness/launch-app';
import { REPO_ROOT } from '../harness/repo-paths';
import { KEYRING_HELD_ENV, TestSecretCipher } from '../harness/test-cipher';
import { controlsOutside, crampedControls, textRunningOut } from './support/layout';

const session = useAppSession('layout');
const OUT_DIR = SCREENSHOT_DIR;
const PROMPTS = SCREENSHOT_PROMPTS;
makeLibraryFirst(PROMPTS);
const SMALL = { width: 800, height: 600 };
/** A 1280x800 window at 200 % zoom: the page lays out in half the CSS pixels. */
const ZOOM_200 = { width: 640, height: 400 };

async function shoot(page: Page, name: string): Promise<void> {
  await dismissConfirmations(page);
  await page.mouse.move(0, 0);
  await page.screenshot({
    path: join(OUT_DIR, `${name}.png`),
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
  });
}

/**
 * The app in a `viewport` window on a library of a few finished tasks (support/library.ts: made
 * once per worker, copied for each test), on the Tasks screen with every thumbnail decoded.
 */
async function withTasks(viewport: { width: number; height: number }): Promise<Page> {
  const { page } = await launchWithLibrary(session, PROMPTS, { viewport });
  await showScreen(page, 'Tasks');
  await expect(taskRows(page)).toHaveCount(PROMPTS.length);
  for (const row of await taskRows(page).all()) await expectLoadedImage(row.getByRole('img'));
  return page;
}

/** How many task rows lie wholly inside the window. */
async function rowsInView(page: Page): Promise<number> {
  const height = page.viewportSize()?.height ?? 0;
  let count = 0;
  for (const row of await taskRows(page).all()) {
    const box = await row.boundingBox();
    if (box && box.y >= 0 && box.y + box.height <= height) count += 1;
  }
  return count;
}

test('at 800x600 the history shows three tasks or more under the compose form', async () => {
  const page = await withTasks(SMALL);
  // First use: the demo notice is there too.
  await expect(page.getByRole('region', { name: 'Demo service' })).toBeVisible();
  await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(3);
  await shoot(page, 'layout-800x600-tasks');
});

test('at 200 % zoom the gallery header takes a third of the window at most, and the history can fill it', async () => {
  const page = await withTasks(ZOOM_200);
  await showScreen(page, 'Gallery');
  await expect(galleryTiles(page)).toHaveCount(PROMPTS.length);
  const header = await page.locator('.gallery__header').boundingBox();
  expect(header!.height).toBeLessThanOrEqual(ZOOM_200.height / 3);
  // The first row of pictures is in the window, whole.
  const tile = await galleryTiles(page).first().boundingBox();
  expect(tile!.y + tile!.height).toBeLessThanOrEqual(ZOOM_200.height);
  await shoot(page, 'layout-zoom200-gallery');
  await expectHeaderInWindow(page, '.gallery__header', 'layout-zoom200-gallery-header');

  await showScreen(page, 'Tasks');
  await shoot(page, 'layout-zoom200-tasks');
  // The wheel over the form scrolls it away: the history then has the window's height.
  const form = await page.getByRole('form', { name: 'New task' }).boundingBox();
  await page.mouse.move(form!.x + 10, form!.y + 10);
  await page.mouse.wheel(0, ZOOM_200.height * 2);
  await expect
    .poll(async () => (await page.locator('.task-list').boundingBox())?.y ?? ZOOM_200.height)
    .toBeLessThanOrEqual(ZOOM_200.height / 3);
  await expect.poll(() => rowsInView(page)).toBeGreaterThanOrEqual(3);
  await shoot(page, 'layout-zoom200-tasks-scrolled');
  await expectHeaderInWindow(page, '.task-toolbar', 'layout-zoom200-tasks-header');
  await showScreen(page, 'Settings');
  expect(await crampedControls(page)).toEqual([]);
  await shoot(page, 'layout-zoom200-settings');
});

for (const [tag, option, label] of [
  ['de', 'Deutsch', 'Sprache'],
  ['en-XA', 'Pseudo (ƥšéûđö)', pseudoMessage('Language')],
] as const) {
  test(`in ${tag} every control shows its whole text at 800x600`, async () => {
    const page = await withTasks(SMALL);
    await showScreen(page, 'Settings');
    await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    expect(await crampedControls(page)).toEqual([]);
    await shoot(page, `layout-800x600-settings-${tag}`);
    for (const index of [0, 1]) {
      await page.getByRole('navigation').getByRole('button').nth(index).click();
      expect(await crampedControls(page)).toEqual([]);
      await shoot(page, `layout-800x600-${index === 0 ? 'tasks' : 'gallery'}-${tag}`);
    }
    // fal.ai chosen in the compose form: its own options show (a format's "Default (jpeg)",
    // "Images per task"), whole and on one line too.
    await page.getByRole('navigation').getByRole('button').nth(0).click();
    await page.locator('.compose__service select').selectOption('fal');
    await expect(page.locator('.compose__options')).toBeVisible();
    expect(await crampedControls(page)).toEqual([]);
    await shoot(page, `layout-800x600-tasks-fal-${tag}`);
    // "Track a task id": its title and intro break a word longer than a line (the
    // pseudo-locale's last word and its tail) rather than running out of the dialog.
    const track =
      tag === 'en-XA'
        ? pseudoMessage('Track a task id')
        : (
            JSON.parse(
              readFileSync(join(REPO_ROOT, 'renderer', 'i18n', 'locales', `${tag}.json`), 'utf8'),
            ) as Record<string, string>
          )['tasks.track.open']!;
    await page.getByRole('button', { name: track, exact: true }).click();
    await expect(page.getByRole('dialog', { name: track, exact: true })).toBeVisible();
    expect(await textRunningOut(page, '.dialog')).toEqual([]);
    await shoot(page, `layout-800x600-track-${tag}`);
  });
}

/** The gallery's tiles whatever the language (the grid's name is translated; it is the only one). */
function tilesInAnyLanguage(page: Page): Locator {
  return page.getByRole('grid').getByRole('gridcell');
}

/** Every control of the header, closed and with each of its panels (Filters, Display) open. */
async function expectHeaderInWindow(page: Page, selector: string, name: string): Promise<void> {
  // Closing a confirmation is a press outside a panel: none is left to close while one is open.
  await dismissConfirmations(page);
  expect(await controlsOutside(page, selector), name).toEqual([]);
  const panels = page.locator(`${selector} .header-panel > button`);
  // Folded: a "Filters" panel at least (the gallery has Display too).
  expect(await panels.count(), name).toBeGreaterThan(0);
  for (const [index, button] of (await panels.all()).entries()) {
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(await controlsOutside(page, selector), `${name}, ${await button.innerText()}`).toEqual(
      [],
    );
    await shoot(page, `${name}-panel-${String(index + 1)}`);
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  }
}

for (const [tag, option] of [
  ['en', null],
  ['de', 'Deutsch'],
  ['ar', 'العربية'],
  ['en-XA', 'Pseudo (ƥšéûđö)'],
] as const) {
  test(`at 800x600 in ${tag} every control of the gallery's and Tasks' headers is in the window`, async () => {
    const page = await withTasks(SMALL);
    if (option !== null) {
      await showScreen(page, 'Settings');
      await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
      await expect(page.locator('html')).toHaveAttribute('lang', tag);
    }
    const nav = page.getByRole('navigation').getByRole('button');
    await nav.nth(0).click();
    await expectHeaderInWindow(page, '.task-toolbar', `layout-800x600-tasks-header-${tag}`);
    await nav.nth(1).click();
    await expect(tilesInAnyLanguage(page)).toHaveCount(PROMPTS.length);
    await expectHeaderInWindow(page, '.gallery__header', `layout-800x600-gallery-header-${tag}`);
  });
}

for (const [tag, option] of [
  ['en', null],
  ['ar', 'العربية'],
] as const) {
  test(`at 1280 px in ${tag} the gallery's selection bar is one row`, async () => {
    const page = await withTasks(DEFAULT_VIEWPORT);
    if (option !== null) {
      await showScreen(page, 'Settings');
      await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
      await expect(page.locator('html')).toHaveAttribute('lang', tag);
    }
    await page.getByRole('navigation').getByRole('button').nth(1).click();
    const tiles = tilesInAnyLanguage(page);
    await expect(tiles).toHaveCount(PROMPTS.length);
    await tiles.nth(0).click({ modifiers: ['Control'] });
    await tiles.nth(1).click({ modifiers: ['Control'] });
    const bar = page.locator('.gallery-selection');
    await expect(bar).toBeVisible();
    // Every button and the count on one line: the same top, the bar no taller than one of them.
    const tops = await bar
      .locator(':scope > *')
      .evaluateAll((parts) => parts.map((part) => Math.round(part.getBoundingClientRect().top)));
    const heights = await bar
      .locator('button')
      .evaluateAll((buttons) => buttons.map((button) => button.getBoundingClientRect().height));
    const box = await bar.boundingBox();
    expect(box!.height).toBeLessThan(2 * Math.max(...heights));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThanOrEqual(8);
    await shoot(page, `layout-1280-selection-bar-${tag}`);
  });
}

/** A fal key stored in the test's vault file (written as the chromium host's keyring does). */
async function storeKey(userDataDir: string): Promise<void> {
  const vault = new KeyVault({
    store: new JsonFileKv(userDataDir, 'key-vault-fal'),
    cipher: new TestSecretCipher(),
    now: () => Date.now(),
  });
  await vault.setKey('fal-e2e-layout-held-3f9a1c7e', { allowWeakStorage: false, baseUrl: null });
}

for (const [tag, option] of [
  ['de', 'Deutsch'],
  ['en-XA', 'Pseudo (ƥšéûđö)'],
] as const) {
  test(`at 800x600 in ${tag} the notice of a keyring that has not answered fits the window`, async () => {
    test.skip(hostName() !== 'chromium', 'only the chromium host’s keyring can be held');
    await storeKey(session.folders.userDataDir);
    const { page } = await launchWithLibrary(session, PROMPTS, {
      viewport: SMALL,
      env: { [KEYRING_HELD_ENV]: '1' },
    });
    await expect(page.getByRole('region', { name: 'Waiting for your key' })).toBeVisible();
    await showScreen(page, 'Settings');
    await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    const english = 'Waiting for your key';
    const label =
      tag === 'en-XA'
        ? pseudoMessage(english)
        : (
            JSON.parse(
              readFileSync(join(REPO_ROOT, 'renderer', 'i18n', 'locales', `${tag}.json`), 'utf8'),
            ) as Record<string, string>
          )['banner.keyWait.label']!;
    for (const index of [0, 1]) {
      await page.getByRole('navigation').getByRole('button').nth(index).click();
      const notice = page.getByRole('region', { name: label, exact: true });
      await expect(notice).toBeVisible();
      const box = (await notice.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(SMALL.width);
      // A few lines: the screen under it keeps most of the window.
      expect(box.y + box.height).toBeLessThanOrEqual(SMALL.height / 2);
      expect(await crampedControls(page)).toEqual([]);
      if (index === 0) await expect(page.getByRole('textbox').first()).toBeInViewport();
      await shoot(page, `layout-800x600-keyring-wait-${index === 0 ? 'tasks' : 'gallery'}-${tag}`);
    }
  });
}

/** A task folder's name only a crafted folder holds: a bidi override, and long with no space. */
const CRAFTED_NAME = `\u202e${'x'.repeat(200)}`;

/**
 * A copy of the session's gallery beside it, one task folder renamed to {@link CRAFTED_NAME}:
 * opened there, its rebuild leaves that task out.
 */
async function craftedLibrary(gallery: string): Promise<string> {
  const other = join(dirname(gallery), 'Other library');
  await cp(gallery, other, { recursive: true });
  const sidecar = readdirSync(other, { recursive: true, encoding: 'utf8' }).find((path) =>
    path.endsWith('pictor.json'),
  );
  const folder = join(other, dirname(sidecar ?? ''));
  await rename(folder, join(dirname(folder), CRAFTED_NAME));
  return other;
}

for (const [tag, option] of [
  ['de', 'Deutsch'],
  ['en-XA', 'Pseudo (ƥšéûđö)'],
] as const) {
  test(`at 800x600 in ${tag} what opening a library left out fits the window`, async () => {
    const other = join(dirname(session.folders.galleryDir), 'Other library');
    const { page } = await launchWithLibrary(session, PROMPTS, {
      viewport: SMALL,
      env: { PICTOR_E2E_CHOOSE_FOLDER: other },
    });
    await craftedLibrary(session.folders.galleryDir);
    await showScreen(page, 'Settings');
    const region = page.getByRole('region', { name: 'Gallery', exact: true });
    await region.getByRole('button', { name: 'Change…' }).click();
    await page.getByRole('button', { name: 'Open the library there' }).click();
    const report = region.getByRole('status');
    await expect(report).toContainText('1 task folder was left out');
    await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
    await expect(page.locator('html')).toHaveAttribute('lang', tag);
    const left = page.locator('.library-refusals');
    await left.locator('summary').click();
    await expect(left.locator('li')).toHaveCount(1);
    await left.locator('li').scrollIntoViewIfNeeded();
    // The report in the language chosen after (the region's name changed with it).
    const shown = page.getByRole('status').filter({ has: left });
    for (const part of [shown, left.locator('li')]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(SMALL.width);
    }
    // Nothing makes the window scroll sideways; every control shows its whole text.
    expect(
      await page.evaluate(() => {
        const { scrollWidth, clientWidth } = document.documentElement;
        return scrollWidth - clientWidth;
      }),
    ).toBeLessThanOrEqual(0);
    expect(await crampedControls(page)).toEqual([]);
    await shoot(page, `layout-800x600-library-left-out-${tag}`);
  });
}
