/**
 * Screenshots for the README: each main screen (tasks, gallery, viewer, settings) in the light
 * and the dark theme, from the real app with images the demo service really generated, saved
 * to docs/screenshots/e2e/<screen>-<theme>.png. Each picture is taken only once the screen
 * shows what it should (images decoded, the theme applied), and checked to be a PNG of the
 * window's size.
 *
 * The images are the screenshot prompts' library (support/library.ts: made through the app by the
 * demo service once per worker, copied for each theme, as 20-layout's), so each theme's pictures
 * no longer wait for four images to be made again.
 *
 * Only a browser shows here: pictures of the real rendering, for the README.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { DEFAULT_VIEWPORT } from '../harness/launch-app';
import { readSidecars } from './support/disk';
import { launchWithLibrary, makeLibraryFirst } from './support/library';
import { SCREENSHOT_DIR, SCREENSHOT_PROMPTS } from './support/screenshots';
import { useAppSession } from './support/session';
import {
  composeForm,
  expectLoadedImage,
  galleryTiles,
  showGalleryOf,
  showScreen,
  taskRows,
  viewer,
  viewerImage,
} from './support/ui';

const OUT_DIR = SCREENSHOT_DIR;
const PROMPTS = SCREENSHOT_PROMPTS;

const session = useAppSession('screenshots');
makeLibraryFirst(PROMPTS);

/** Saves the window as <screen>-<theme>.png and checks what was written. */
async function shoot(page: Page, screen: string, theme: string): Promise<void> {
  const path = join(OUT_DIR, `${screen}-${theme}.png`);
  // No caret blinking or hover state in the picture.
  await page.mouse.move(0, DEFAULT_VIEWPORT.height - 1);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide', scale: 'css' });
  const written = await sharp(path).metadata();
  expect(written).toMatchObject({
    format: 'png',
    width: DEFAULT_VIEWPORT.width,
    height: DEFAULT_VIEWPORT.height,
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`screenshots of every main screen in the ${theme} theme`, async () => {
    const { page } = await launchWithLibrary(session, PROMPTS, { colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await showScreen(page, 'Tasks');
    await expect(taskRows(page)).toHaveCount(PROMPTS.length);
    expect([...(await readSidecars(session.folders.galleryDir)).keys()].sort()).toEqual(
      [...PROMPTS].sort(),
    );
    // The notice is for first use; the pictures show the app at work.
    await page.getByRole('button', { name: 'Hide this notice' }).click();
    await expect(page.getByRole('region', { name: 'Demo service' })).toHaveCount(0);

    for (const row of await taskRows(page).all()) await expectLoadedImage(row.getByRole('img'));
    await composeForm(page)
      .getByLabel('Prompt', { exact: true })
      .fill('A watercolour fox reading a map');
    await shoot(page, 'tasks', theme);

    await showGalleryOf(page, PROMPTS);
    await shoot(page, 'gallery', theme);

    await galleryTiles(page).first().click();
    await expectLoadedImage(viewerImage(page));
    await shoot(page, 'viewer', theme);
    await page.keyboard.press('Escape');
    await expect(viewer(page)).toHaveCount(0);

    await showScreen(page, 'Settings');
    await expect(page.getByRole('radio', { name: 'Same as the system' })).toBeChecked();
    await shoot(page, 'settings', theme);
  });
}
