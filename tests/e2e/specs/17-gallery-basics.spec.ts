/**
 * Journey 17, gallery basics: with four images from the demo service, the
 * gallery sorts newest, oldest and by prompt; thumbnails change size; tiles show whole images;
 * the filter bar keeps its box while filters and counts change (at two window widths, the narrower
 * with its filters folded behind "Filters"); a tile's
 * actions menu opens from the keyboard and acts; the viewer's stage is dark and its details panel
 * hides; and every choice is still there after a restart.
 *
 * Only a browser shows here: tiles laid out at two real window widths (the filter bar keeping its
 * box, filters folded), whole images painted, and the choices after a restart of the host.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  expectLoadedImage,
  galleryTiles,
  generateAll,
  showGalleryOf,
  tileFor,
  tilePrompts,
  viewer,
  viewerImage,
} from './support/ui';

const ACCOUNT = 'basics';
const KEY = 'sk-e2e-basics-7c2d9e4a1b';
// Made in this order; by prompt (case ignored): apple, Birch, Cedar, delta.
const PROMPTS = ['Cedar trees in fog', 'apple orchard at dawn', 'delta of a river', 'Birch bark'];
const BY_PROMPT = [PROMPTS[1]!, PROMPTS[3]!, PROMPTS[0]!, PROMPTS[2]!];

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('gallery-basics');

function filterBar(page: Page): Locator {
  return page.getByRole('search', { name: 'Filter the gallery' });
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('no box');
  return box;
}

/** Applies a filter change, waits for the grid to answer, and checks the bar did not move. */
async function expectBarStill(page: Page, change: () => Promise<void>, tiles: number) {
  const before = await boxOf(filterBar(page));
  await change();
  if (tiles === 0) {
    await expect(
      page.getByRole('heading', { name: 'No images match these filters' }),
    ).toBeVisible();
  } else {
    await expect(galleryTiles(page)).toHaveCount(tiles);
  }
  expect(await boxOf(filterBar(page))).toEqual(before);
}

test('gallery basics: sort, size, whole images, a still filter bar, the tile menu and the viewer, kept after a restart', async () => {
  const { page } = await session.launchConnected(demo.url, KEY);
  await generateAll(page, PROMPTS);
  await showGalleryOf(page, PROMPTS);
  expect(await tilePrompts(page)).toEqual([...PROMPTS].reverse());

  // Sort, size and whole images are behind the "Display" button.
  await page.getByRole('button', { name: 'Display' }).click();
  const sort = page.getByRole('combobox', { name: 'Sort' });
  await sort.selectOption({ label: 'Oldest first' });
  await expect.poll(() => tilePrompts(page)).toEqual(PROMPTS);
  await sort.selectOption({ label: 'Prompt A–Z' });
  await expect.poll(() => tilePrompts(page)).toEqual(BY_PROMPT);

  // Thumbnail size: the slider's steps make tiles larger and smaller.
  const size = page.getByRole('slider', { name: 'Thumbnail size' });
  const medium = (await boxOf(galleryTiles(page).first())).width;
  await size.focus();
  await page.keyboard.press('ArrowRight');
  await expect(size).toHaveAttribute('aria-valuetext', 'Large');
  await expect
    .poll(async () => (await boxOf(galleryTiles(page).first())).width)
    .toBeGreaterThan(medium);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(size).toHaveAttribute('aria-valuetext', 'Small');
  await expect
    .poll(async () => (await boxOf(galleryTiles(page).first())).width)
    .toBeLessThan(medium);

  // Whole images: the thumbnail is contained in its square, not cropped to fill it.
  const image = galleryTiles(page).first().locator('img');
  await expect(image).toHaveCSS('object-fit', 'cover');
  await page.getByRole('checkbox', { name: 'Show whole images' }).check();
  await expect(image).toHaveCSS('object-fit', 'contain');

  // The filter bar keeps its box as filters, counts and the clear button come and go. Under
  // 110rem by 56rem (1760x896) the header folds, images first: the filters but the search are in
  // the "Filters" panel, whose button counts those in use; a window as large shows them in a row.
  for (const width of [1920, 900]) {
    await page.setViewportSize({ width, height: width === 900 ? 800 : 1000 });
    // The page hears of the new size at its next frame: the header has folded (or unfolded)
    // before the bar's box is taken as the one to keep.
    const panel = filterBar(page).getByRole('button', { name: /^Filters/ });
    await expect(panel).toHaveCount(width === 900 ? 1 : 0);
    const search = filterBar(page).getByLabel('Search prompts');
    await expectBarStill(page, () => search.fill('apple'), 1);
    await expectBarStill(page, () => search.fill('zebra'), 0);
    await expectBarStill(page, () => search.fill(''), 4);
    if (width === 900) {
      await panel.click();
      await expect(panel).toHaveAttribute('aria-expanded', 'true');
    }
    const favourites = filterBar(page).getByRole('checkbox', { name: 'Picks only' });
    await expectBarStill(page, () => favourites.check(), 0);
    if (width === 900) await expect(panel).toHaveAccessibleName('Filters, 1 in use');
    await expectBarStill(
      page,
      () => filterBar(page).getByRole('button', { name: 'Clear filters' }).click(),
      4,
    );
    if (width === 900) {
      await page.keyboard.press('Escape');
      await expect(panel).toHaveAttribute('aria-expanded', 'false');
      await expect(panel).toHaveAccessibleName('Filters');
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(filterBar(page).getByRole('button', { name: /^Filters/ })).toHaveCount(1);

  // The tile menu from the keyboard: Shift+F10, arrows, Enter; Escape gives the focus back.
  const birch = tileFor(page, PROMPTS[3]!);
  await birch.focus();
  await page.keyboard.press('Shift+F10');
  const menu = page.getByRole('menu', { name: 'Actions for this image' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Open',
    'Copy image',
    'Save as…',
    'Show in folder',
    'Pick',
    'Reject',
    'Move to trash',
  ]);
  await expect(menu.getByRole('menuitem', { name: 'Open' })).toBeFocused();
  await expectAccessible(page, 'gallery with the tile menu open');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(birch).toBeFocused();
  await page.keyboard.press('Shift+F10');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Show in folder' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect
    .poll(() => session.app.osCalls().filter((c) => c.action === 'reveal').length)
    .toBe(1);
  await expect(birch).toBeFocused();
  await birch.click({ button: 'right' });
  await menu.getByRole('menuitem', { name: 'Pick' }).click();
  await expect(birch.getByRole('img', { name: 'Pick' })).toBeVisible();

  // The viewer: a dark stage, and a details panel that hides.
  await birch.click();
  const dialog = viewer(page);
  await expectLoadedImage(viewerImage(page));
  await expect(dialog.locator('.viewer-stage')).toHaveCSS('background-color', 'rgb(13, 13, 16)');
  const stageWidth = (await boxOf(dialog.locator('.viewer-stage'))).width;
  await dialog.getByRole('button', { name: 'Hide details' }).click();
  await expect(dialog.getByRole('complementary')).toBeHidden();
  await expect
    .poll(async () => (await boxOf(dialog.locator('.viewer-stage'))).width)
    .toBeGreaterThan(stageWidth);
  await expectAccessible(page, 'viewer with its details hidden');
  await page.keyboard.press('Escape');

  // Every choice is still there after a restart.
  const again = await session.app.restart();
  await showGalleryOf(again, PROMPTS);
  await again.getByRole('button', { name: 'Display' }).click();
  await expect(again.getByRole('combobox', { name: 'Sort' })).toHaveValue('prompt');
  expect(await tilePrompts(again)).toEqual(BY_PROMPT);
  await expect(again.getByRole('slider', { name: 'Thumbnail size' })).toHaveAttribute(
    'aria-valuetext',
    'Small',
  );
  await expect(galleryTiles(again).first().locator('img')).toHaveCSS('object-fit', 'contain');
  await tileFor(again, PROMPTS[0]!).click();
  await expect(viewer(again).getByRole('button', { name: 'Show details' })).toBeVisible();
  await expect(viewer(again).getByRole('complementary')).toBeHidden();
});
