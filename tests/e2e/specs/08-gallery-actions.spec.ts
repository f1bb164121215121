/**
 * Journey 8, gallery actions: with four images from the demo service process, the search
 * narrows the grid, a favourite is marked (and the favourites filter shows only it, the sidecar
 * says so), the viewer moves with the arrow keys and Escape hands the focus back to the tile,
 * and deleting an image moves its file to the gallery's trash (held for Undo), drops it from the
 * grid and marks it deleted in the sidecar and the history.
 *
 * Only a browser shows here: focus moved by real key presses between the viewer and its tile, and a
 * deleted file leaving its folder on disk for the gallery's trash.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { listFiles, readHistory, readSidecars } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  expectLoadedImage,
  galleryFilters,
  galleryTiles,
  generateAll,
  showScreen,
  tileFor,
  tilePrompts,
  viewer,
  viewerImage,
} from './support/ui';

const ACCOUNT = 'gallery';
const KEY = 'sk-e2e-gallery-5f1c9a2b7d';
const FOX = 'A red fox asleep in fresh snow';
const WHALE = 'A blue whale under a violet dusk sky';
const FOREST = 'A green forest path after summer rain';
const DUNES = 'Golden desert dunes at noon';
const PROMPTS = [FOX, WHALE, FOREST, DUNES];

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('gallery-actions');

async function search(page: Page, text: string): Promise<void> {
  const filters = page.getByRole('search', { name: 'Filter the gallery' });
  await filters.getByLabel('Search prompts').fill(text);
}

/** The viewer shows image `index` of `count`, whose details and picture are `prompt`'s. */
async function expectViewerAt(page: Page, index: number, count: number, prompt: string) {
  const dialog = viewer(page);
  await expect(dialog.getByText(`Image ${index} of ${count}`, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('complementary')).toContainText(prompt);
  await expectLoadedImage(viewerImage(page));
}

test('gallery: search, favourite, viewer keys and delete, as the user, the service and the disk see them', async () => {
  const { folders } = session;
  const { page } = await session.launchConnected(demo.url, KEY);
  await generateAll(page, PROMPTS);

  // The service made exactly these four tasks for this account, and each image was fetched once.
  const served = await demo.tasks();
  expect(served.map((task) => task.prompt).sort()).toEqual([...PROMPTS].sort());
  expect(served.every((task) => task.account === ACCOUNT && task.status === 'completed')).toBe(
    true,
  );
  const log = await demo.log();
  expect(log.submits).toHaveLength(4);
  expect(log.downloads.filter((entry) => entry.status === 200)).toHaveLength(4);

  await showScreen(page, 'Gallery');
  await expect(galleryTiles(page)).toHaveCount(4);
  await expect(page.getByText('4 images', { exact: true })).toBeVisible();

  // Search narrows the grid to the matching prompt, and widens again when cleared.
  await search(page, 'whale');
  await expect(galleryTiles(page)).toHaveCount(1);
  await expect(tileFor(page, WHALE)).toBeVisible();
  await search(page, 'zebra');
  await expect(page.getByRole('heading', { name: 'No images match these filters' })).toBeVisible();
  await search(page, '');
  await expect(galleryTiles(page)).toHaveCount(4);

  // Pick the fox with the grid's F key (P's alias); the Picks only filter then shows only it.
  const fox = tileFor(page, FOX);
  await fox.focus();
  await page.keyboard.press('f');
  await expect(fox.getByRole('img', { name: 'Pick' })).toBeVisible();
  const favouritesOnly = (await galleryFilters(page)).getByRole('checkbox', {
    name: 'Picks only',
  });
  await favouritesOnly.check();
  await expect(galleryTiles(page)).toHaveCount(1);
  await expect(tileFor(page, FOX)).toBeVisible();
  await favouritesOnly.uncheck();
  await page.keyboard.press('Escape');
  await expect(galleryTiles(page)).toHaveCount(4);
  await expect
    .poll(async () => (await readSidecars(folders.galleryDir)).get(FOX)?.images[0]?.favourite)
    .toBe(true);
  const sidecars = await readSidecars(folders.galleryDir);
  expect(
    [WHALE, FOREST, DUNES].map((prompt) => sidecars.get(prompt)?.images[0]?.favourite),
  ).toEqual([false, false, false]);

  // The viewer: open the first tile, move with the arrow keys, Escape returns to the tile shown.
  const order = await tilePrompts(page);
  expect([...order].sort()).toEqual([...PROMPTS].sort());
  await galleryTiles(page).first().click();
  await expect(viewer(page)).toBeVisible();
  await expectViewerAt(page, 1, 4, order[0] ?? '');
  await page.keyboard.press('ArrowRight');
  await expectViewerAt(page, 2, 4, order[1] ?? '');
  await page.keyboard.press('ArrowRight');
  await expectViewerAt(page, 3, 4, order[2] ?? '');
  await page.keyboard.press('ArrowLeft');
  await expectViewerAt(page, 2, 4, order[1] ?? '');
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toHaveCount(0);
  await expect(tileFor(page, order[1] ?? '')).toBeFocused();

  await deleteWhale(page);

  // The history on disk, read after the app closed, agrees with the sidecars.
  await session.close();
  const history = new Map(readHistory(folders.userDataDir).map((r) => [r.request.prompt, r]));
  expect(history.get(WHALE)?.images[0]).toMatchObject({ state: 'deleted' });
  expect(history.get(WHALE)?.images[0]?.file).toBeUndefined();
  expect(history.get(FOX)?.images[0]).toMatchObject({ state: 'saved', favourite: true });
});

/** Deletes the whale from the viewer, with the confirmation, and checks screen, OS and disk. */
async function deleteWhale(page: Page): Promise<void> {
  const { app, folders } = session;
  const before = (await readSidecars(folders.galleryDir)).get(WHALE);
  const file = before?.images[0]?.file;
  const thumbnail = before?.images[0]?.thumbnail;
  if (!file || !thumbnail) throw new Error('the whale has no file on disk');
  const bytes = (await stat(join(folders.galleryDir, file))).size;

  await tileFor(page, WHALE).click();
  await expectViewerAt(page, (await tilePrompts(page)).indexOf(WHALE) + 1, 4, WHALE);
  await viewer(page)
    .getByRole('group', { name: 'Image actions' })
    .getByRole('button', { name: 'Move to trash' })
    .click();
  const confirm = page.getByRole('alertdialog', { name: 'Move this image to the trash?' });
  await expect(confirm).toBeVisible();
  // The safe choice has the focus.
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Move to trash' }).click();

  await expect(confirm).toHaveCount(0);
  // The viewer stays open on another image; Escape closes it.
  await expect(viewer(page).getByText(/^Image \d of 3$/)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toHaveCount(0);
  await expect(galleryTiles(page)).toHaveCount(3);
  await expect(tileFor(page, WHALE)).toHaveCount(0);
  await expect(page.getByText('3 images', { exact: true })).toBeVisible();

  // The file waits for Undo in the gallery's own trash (the OS trash gets it later, see
  // 16-gallery-delete-undo.spec.ts); both hosts record the OS trash's calls.
  expect(app.osCalls().filter((call) => call.action === 'trash')).toEqual([]);
  const files = await listFiles(folders.galleryDir);
  expect(files).not.toContain(file);
  expect(files).not.toContain(thumbnail);
  const held = files.filter((name) => name.startsWith('.pictor-trash/'));
  expect(held.filter((name) => name.endsWith('/image-1.png'))).toHaveLength(1);
  const inTrash = await readFile(
    join(
      folders.galleryDir,
      held.find((n) => n.endsWith('.png'))!,
    ),
  );
  expect(inTrash.length).toBe(bytes);
  expect(
    files.filter((name) => name.endsWith('.png') && !name.startsWith('.pictor-trash/')),
  ).toHaveLength(3);
  await expect
    .poll(async () => (await readSidecars(folders.galleryDir)).get(WHALE)?.images[0]?.state)
    .toBe('deleted');

  // The task stays in the history, its image shown as in the trash.
  await showScreen(page, 'Tasks');
  await expect(page.getByRole('article', { name: WHALE })).toContainText(
    'Image moved to the trash',
  );
}
