/**
 * Journey 31, images first: at 1280x800 (the demo notice there, as at first use) the gallery
 * shows four whole rows of medium tiles beside the open sidebar, under a one-row header whose
 * "Edit a file…" says its words; the sidebar folds with its button and Ctrl+\ (named, with
 * `aria-expanded`, the key in its tooltip and in the keys sheet), is as it was left after a
 * reload, and folds by itself under 900 CSS pixels (200 % zoom) without losing that choice. In
 * English, German, Arabic and the pseudo-locale, at 800x600 and at 200 % zoom, no control of the
 * gallery or of the opened sidebar is cut or outside the window, "Save as smart board…" stays
 * inside the sidebar, and axe finds nothing serious; the Triage view gives its image most of a
 * 640x400 window.
 *
 * Only a browser shows here: rows of whole tiles and the folding sidebar measured in real layouts
 * (1280x800, 800x600, 200 % zoom) in four languages; axe.
 *
 * The four rows need twenty images of the test's own; every other test looks at a few images
 * rather than making them, and starts on a copy of the screenshot prompts' library
 * (support/library.ts: made once per worker, the one 12, 20 and 33 start on): an image made
 * through the app costs 0.35–0.5 s of CPU (Node, the window and the image page together), and
 * these six tests made 26.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { pseudoMessage } from '../../../shared/i18n/pseudo';
import { expectAccessible } from './support/axe';
import { uiText } from './support/catalogue';
import { controlsOutside, crampedControls } from './support/layout';
import { launchWithLibrary, makeLibraryFirst } from './support/library';
import { dismissConfirmations, SCREENSHOT_DIR, SCREENSHOT_PROMPTS } from './support/screenshots';
import { useAppSession } from './support/session';
import { composeForm, showGalleryOf, showScreen } from './support/ui';

const session = useAppSession('images-first');
makeLibraryFirst(SCREENSHOT_PROMPTS);
const PROMPTS = ['A harbour at dawn, boats in mist', 'A lighthouse over a stormy sea'];
const SMALL = { width: 800, height: 600 };
/** A 1280x800 window at 200 % zoom: the page lays out in half the CSS pixels. */
const ZOOM_200 = { width: 640, height: 400 };

/** The grid's tiles, whatever the language names the grid. */
const tilesOf = (page: Page) => page.getByRole('grid').getByRole('gridcell');
const sidebarOf = (page: Page) => page.locator('.boards-sidebar');

async function shoot(page: Page, name: string): Promise<void> {
  await dismissConfirmations(page);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** `perPrompt` tasks of one image for each prompt, every one saved, the gallery shown. */
async function images(page: Page, perPrompt: number): Promise<void> {
  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  for (const prompt of PROMPTS) {
    await form.getByLabel('Number of tasks', { exact: true }).fill(String(perPrompt));
    await form.getByLabel('Prompt', { exact: true }).fill(prompt);
    await form.getByRole('button', { name: /^Generate/ }).click();
    await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue('');
  }
  await showScreen(page, 'Gallery');
  const count = PROMPTS.length * perPrompt;
  await expect(page.locator('.gallery__count')).toHaveText(new RegExp(`^${String(count)}\\D`), {
    timeout: 60_000,
  });
  await expect(tilesOf(page).first()).toBeVisible();
}

/** The app on a copy of the screenshot prompts' library, its gallery shown, every tile decoded. */
async function withImages(viewport?: { width: number; height: number }): Promise<Page> {
  const { page } = await launchWithLibrary(
    session,
    SCREENSHOT_PROMPTS,
    viewport ? { viewport } : {},
  );
  await showGalleryOf(page, SCREENSHOT_PROMPTS);
  return page;
}

/** The rows of tiles that lie wholly inside the grid's part of the window. */
async function wholeRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const grid = document.querySelector('.gallery-grid')?.getBoundingClientRect();
    if (!grid) return 0;
    const bottom = Math.min(grid.bottom, document.documentElement.clientHeight);
    const tops = new Set<number>();
    for (const tile of document.querySelectorAll('.gallery-tile')) {
      const box = tile.getBoundingClientRect();
      if (box.top >= grid.top - 0.5 && box.bottom <= bottom + 0.5) tops.add(Math.round(box.top));
    }
    return tops.size;
  });
}

/**
 * The sidebar's buttons that reach past its sides, or whose words are cut, and a sidebar that
 * reaches past the window's sides or scrolls sideways (it scrolls down: a button under the
 * window's foot is not cut).
 */
async function pastTheSidebar(page: Page): Promise<string[]> {
  return sidebarOf(page).evaluate((sidebar) => {
    const edge = sidebar.getBoundingClientRect();
    const problems: string[] = [];
    if (edge.left < -0.5 || edge.right > document.documentElement.clientWidth + 0.5)
      problems.push('the sidebar is past the window');
    for (const part of [sidebar, ...sidebar.querySelectorAll<HTMLElement>('*')]) {
      if (part.matches('.visually-hidden') || getComputedStyle(part).overflowX === 'visible')
        continue;
      if (part.scrollWidth > part.clientWidth + 1)
        problems.push(`${part.className} is cut: ${part.textContent ?? ''}`);
    }
    for (const button of sidebar.querySelectorAll<HTMLElement>('button')) {
      if (button.getClientRects().length === 0) continue;
      const box = button.getBoundingClientRect();
      if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5)
        problems.push(`${button.textContent ?? ''}: ${String(box.left)}–${String(box.right)}`);
      if (button.scrollWidth > button.clientWidth + 1)
        problems.push(`${button.textContent ?? ''} is cut`);
    }
    return problems;
  });
}

/** The sidebar's fold button, in the words of `tag`, open or folded. */
function foldButton(page: Page, tag: string, open: boolean) {
  const key = open ? 'triage.sidebar.hide' : 'triage.sidebar.show';
  const name = tag === 'en-XA' ? pseudoMessage(uiText('en', key)) : uiText(tag, key);
  return page.getByRole('button', { name, exact: true });
}

test('at 1280x800 four rows of tiles show beside the open sidebar, under a one-row header', async () => {
  const { page } = await session.launch();
  // Twenty: four rows of five, and the grid's place for the ones not loaded yet.
  await images(page, 10);
  await expect(page.getByRole('region', { name: 'Demo service' })).toBeVisible();
  await expect(foldButton(page, 'en', true)).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => wholeRows(page)).toBeGreaterThanOrEqual(4);
  // One row: the title, the count, Select all, "Edit a file…", the search, Filters and Display.
  const header = await page.locator('.gallery__header').boundingBox();
  expect(header!.height).toBeLessThanOrEqual(48);
  const edit = page.getByRole('button', { name: 'Edit a file…', exact: true });
  await expect(edit).toHaveText('Edit a file…');
  await expect(page.getByRole('button', { name: 'Filters', exact: true })).toBeVisible();
  expect(await pastTheSidebar(page)).toEqual([]);
  await expectAccessible(page, 'gallery at 1280x800');
  await shoot(page, 'images-first-1280');
});

test('the sidebar folds with its button and Ctrl+\\, is kept after a reload, and folds by itself under 900 px', async () => {
  const page = await withImages();
  const hide = foldButton(page, 'en', true);
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await expect(hide).toHaveAttribute('title', 'Hide the boards (Ctrl+\\)');
  await expect(hide).toHaveAttribute('aria-keyshortcuts', 'Control+\\');
  await hide.click();
  const show = foldButton(page, 'en', false);
  await expect(show).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('tree')).toHaveCount(0);
  await page.keyboard.press('Control+Backslash');
  await expect(hide).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Control+Backslash');
  await expect(show).toBeVisible();

  // Folded, it stays folded after a reload; opened again, it stays open.
  await page.reload();
  await showScreen(page, 'Gallery');
  await expect(show).toBeVisible();
  await page.keyboard.press('Control+Backslash');
  await expect(hide).toBeVisible();
  await page.reload();
  await showScreen(page, 'Gallery');
  await expect(hide).toBeVisible();

  // 200 % zoom: folded by itself; the key opens it there, and the wide window has it as it was.
  await page.setViewportSize(ZOOM_200);
  await expect(show).toBeVisible();
  await page.keyboard.press('Control+Backslash');
  await expect(hide).toBeVisible();
  expect(await pastTheSidebar(page)).toEqual([]);
  await page.keyboard.press('Control+Backslash');
  await expect(show).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(hide).toBeVisible();

  // The keys sheet says the key.
  await tilesOf(page).first().focus();
  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: uiText('en', 'triage.help.title') });
  const row = sheet.locator('.keyboard-help__row', { hasText: 'Show or hide the boards' });
  await expect(row.locator('kbd')).toHaveText('Ctrl+\\');
});

for (const [tag, option] of [
  ['en', null],
  ['de', 'Deutsch'],
  ['ar', 'العربية'],
  ['en-XA', 'Pseudo (ƥšéûđö)'],
] as const) {
  test(`in ${tag} nothing of the gallery or its sidebar is cut at 1280x800, 800x600 and 200 % zoom`, async () => {
    const page = await withImages();
    if (option !== null) {
      await showScreen(page, 'Settings');
      await page.getByLabel('Language', { exact: true }).selectOption({ label: option });
      await expect(page.locator('html')).toHaveAttribute('lang', tag);
      await page.getByRole('navigation').getByRole('button').nth(1).click();
    }
    for (const viewport of [{ width: 1280, height: 800 }, SMALL, ZOOM_200]) {
      const size = `${String(viewport.width)}x${String(viewport.height)}`;
      await page.setViewportSize(viewport);
      const narrow = viewport.width < 900;
      if (narrow) {
        // Folded by itself: the key opens it, to check it too.
        await expect(foldButton(page, tag, false)).toBeVisible();
        await page.keyboard.press('Control+Backslash');
      }
      await expect(foldButton(page, tag, true)).toBeVisible();
      expect(await crampedControls(page), `${tag} ${size}`).toEqual([]);
      expect(await pastTheSidebar(page), `${tag} ${size}`).toEqual([]);
      expect(await controlsOutside(page, '.gallery__header'), `${tag} ${size}`).toEqual([]);
      await shoot(page, `images-first-${tag}-${size}`);
      await expectAccessible(page, `gallery in ${tag} at ${size}`);
      if (narrow) await page.keyboard.press('Control+Backslash');
    }
  });
}

test('the Triage view gives its image most of a 640x400 window', async () => {
  const page = await withImages(ZOOM_200);
  await tilesOf(page).first().focus();
  await page.keyboard.press('ControlOrMeta+Shift+KeyT');
  const view = page.getByRole('dialog', { name: 'Triage view' });
  await expect(view).toBeVisible();
  const image = view.locator('.triage-view__stage img');
  await expect
    .poll(() => image.evaluate((node: HTMLImageElement) => node.naturalWidth))
    .toBeGreaterThan(0);
  // The demo's images are square: the box the image is fitted in is what it can take.
  const box = await image.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(0.6 * ZOOM_200.height);
  expect(await crampedControls(page)).toEqual([]);
  await expectAccessible(page, 'Triage view at 640x400');
  await shoot(page, 'images-first-triage-640x400');
});
