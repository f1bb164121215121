/**
 * Journey 16, delete and Undo: with three images from the demo service
 * process, deleting one in the viewer keeps the viewer open on the next image with the focus
 * inside it, the file leaves its folder for the gallery's own trash, and Ctrl+Z brings the image
 * back: on screen, in its folder byte for byte, in the sidecar, and nothing reached the OS trash.
 *
 * Only a browser shows here: the focus kept inside the viewer after a delete, and Ctrl+Z bringing
 * the file back byte for byte on disk.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readSidecars } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  expectLoadedImage,
  galleryTiles,
  generateAll,
  showScreen,
  tileFor,
  tilePrompts,
  viewer,
  viewerImage,
} from './support/ui';

const ACCOUNT = 'undo';
const KEY = 'sk-e2e-undo-3c8e1f0a94';
const PROMPTS = [
  'A lighthouse on a cliff in a storm',
  'A paper boat on a calm pond',
  'A snowy owl on a fence post',
];

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('gallery-delete-undo');

async function expectViewerAt(page: Page, index: number, count: number, prompt: string) {
  const dialog = viewer(page);
  await expect(dialog.getByText(`Image ${index} of ${count}`, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('complementary')).toContainText(prompt);
  await expectLoadedImage(viewerImage(page));
}

test('deleting in the viewer shows the next image, and Ctrl+Z brings the deleted one back', async () => {
  const { folders } = session;
  const { page } = await session.launchConnected(demo.url, KEY);
  await generateAll(page, PROMPTS);
  await showScreen(page, 'Gallery');
  await expect(galleryTiles(page)).toHaveCount(3);
  const order = await tilePrompts(page);
  const [first, second, third] = order as [string, string, string];

  const sidecar = (await readSidecars(folders.galleryDir)).get(second);
  const file = sidecar?.images[0]?.file;
  if (!file) throw new Error('the second image has no file on disk');
  const bytes = await readFile(join(folders.galleryDir, file));

  // Open the second image and delete it with the Delete key and the confirmation.
  await tileFor(page, second).click();
  await expectViewerAt(page, 2, 3, second);
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('alertdialog', { name: 'Move this image to the trash?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await expect(confirm).toHaveCount(0);

  // The viewer stays, on the next image, with the focus inside it; the toast offers Undo.
  await expectViewerAt(page, 2, 2, third);
  const focusInViewer = () =>
    page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);
  await expect.poll(focusInViewer).toBe(true);
  const done = page.getByRole('status', { name: 'Done' });
  await expect(done.getByText('Image moved to the trash.')).toBeVisible();
  await expect(done.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect
    .poll(async () => (await readSidecars(folders.galleryDir)).get(second)?.images[0]?.state)
    .toBe('deleted');
  await expect.poll(() => readFile(join(folders.galleryDir, file)).catch(() => null)).toBeNull();

  // Ctrl+Z in the viewer: the image is back, shown, with the same bytes under the same name.
  await page.keyboard.press('Control+z');
  await expectViewerAt(page, 2, 3, second);
  await expect(done.getByText('Image restored.')).toBeVisible();
  await expect.poll(focusInViewer).toBe(true);
  expect((await readFile(join(folders.galleryDir, file))).equals(bytes)).toBe(true);
  await expect
    .poll(async () => (await readSidecars(folders.galleryDir)).get(second)?.images[0])
    .toMatchObject({ state: 'saved', file });

  // Closing the viewer hands the focus to the restored image's tile; all three are in the grid.
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toHaveCount(0);
  await expect(tileFor(page, second)).toBeFocused();
  expect(await tilePrompts(page)).toEqual([first, second, third]);
  // Nothing went to the OS trash: the image was only held for Undo.
  const { app } = session;
  expect(app.osCalls().filter((call) => call.action === 'trash')).toEqual([]);
});
