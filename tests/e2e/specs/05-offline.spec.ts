/**
 * Journey 5: the network to the service goes away while a task is processing. Everything local
 * keeps working (gallery, viewer, search, the history and its filters); the processing task says
 * the service cannot be reached and stays "Processing" (not failed); when the network is back it
 * completes by itself, with no click and no second submit.
 *
 * The offline banner: it follows the machine's network (Electron's net.isOnline() in the app,
 * the harness's host info in the Chromium host), not whether one service answers. The harness
 * cuts only the path to the service (a loopback switch refusing connections), so the machine
 * stays online in both hosts and the honest expectation is: no "You're offline" banner, and the
 * task's own details say the service cannot be reached.
 *
 * Only a browser shows here: the page over a service cut at the socket (a real refused connection),
 * with everything local (protocol images, viewer, search) still painted.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectSavedOnDisk, readHistory, recordFor } from './support/disk';
import { pollsOf, serviceTask, useDemoProcess, type ServiceTask } from './support/service';
import { useAppSession } from './support/session';
import {
  closeDialog,
  expectLoadedImage,
  galleryFilters,
  galleryTiles,
  generate,
  historySection,
  openDetails,
  showScreen,
  statusBadge,
  taskRow,
  viewer,
} from './support/ui';

const ACCOUNT = 'traveller';
const KEY = 'sk-traveller-journey-5';
const FOX = 'A red fox asleep in fresh snow';
const WHALE = 'A blue whale under a dusk sky';
const FOREST = 'A green forest path after the rain';
const UNREACHABLE = 'Pictor could not reach the service';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 1_000 });
const session = useAppSession('offline');

test('offline: local things work, the running task waits, and completes by itself when back', async () => {
  const { page } = await session.launchConnected(demo.url, KEY);
  await showScreen(page, 'Tasks');
  for (const prompt of [FOX, WHALE]) await generate(page, prompt);
  for (const prompt of [FOX, WHALE])
    await expect(statusBadge(taskRow(page, prompt))).toHaveText('Completed', { timeout: 20_000 });

  const forest = await goOfflineWhileProcessing(page);
  const pollsBefore = pollsOf(await demo.log(), forest.id).length;
  await searchAndFilterHistory(page);
  await browseGalleryOffline(page);
  const polls = pollsOf(await demo.log(), forest.id);
  expect(polls, 'nothing reached the service while offline').toHaveLength(pollsBefore);
  await completesWhenBack(page, forest.id, pollsBefore);

  await session.close();
  const records = readHistory(session.folders.userDataDir);
  expect(records).toHaveLength(3);
  for (const prompt of [FOX, WHALE, FOREST]) {
    const record = recordFor(records, prompt);
    expect(record.status).toBe('completed');
    await expectSavedOnDisk(session.folders.galleryDir, record);
  }
  expect(recordFor(records, FOREST)).toMatchObject({ taskId: forest.id, error: null });
});

/**
 * Starts a slower task, cuts the network once the service has it, and checks what the task
 * says: still "Processing" (not failed), its details saying the service cannot be reached.
 */
async function goOfflineWhileProcessing(page: Page): Promise<ServiceTask> {
  await demo.control('settings', { durationMs: 6_000 });
  await generate(page, FOREST);
  await expect(statusBadge(taskRow(page, FOREST))).toHaveText('Processing');
  const forest = await serviceTask(demo, FOREST);
  await demo.goOffline();

  const details = await openDetails(page, FOREST);
  await expect(details).toContainText(UNREACHABLE);
  await expect(statusBadge(details)).toHaveText('Processing');
  await closeDialog(details);
  await expect(statusBadge(taskRow(page, FOREST))).toHaveText('Processing');
  // The row itself says the service cannot be reached (the full sentence is in Details).
  await expect(taskRow(page, FOREST)).toContainText('can’t reach the service, will retry');
  // The machine is online in both hosts (only the service's path is cut): no offline banner.
  await expect(page.getByRole('region', { name: 'Offline' })).toHaveCount(0);
  return forest;
}

/** Network back: with no click the engine's next check (after its back-off) goes through. */
async function completesWhenBack(page: Page, taskId: string, pollsBefore: number): Promise<void> {
  await demo.goOnline();
  await showScreen(page, 'Tasks');
  const row = taskRow(page, FOREST);
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  await expect(row).toContainText('1 image');

  const log = await demo.log();
  expect(log.submits, 'one submit per task, no resubmit').toHaveLength(3);
  expect(log.submits.every((entry) => entry.status === 200)).toBe(true);
  expect(await demo.tasks()).toHaveLength(3);
  expect(pollsOf(log, taskId).length).toBeGreaterThan(pollsBefore);
}

/** The history's search and status filters, answered from the local history. */
async function searchAndFilterHistory(page: Page): Promise<void> {
  const history = historySection(page);
  const search = history.getByRole('searchbox', { name: 'Search prompts' });
  await search.fill('whale');
  await expect(history.getByRole('article')).toHaveCount(1);
  await expect(taskRow(page, WHALE)).toBeVisible();
  await search.fill('');
  await expect(history.getByRole('article')).toHaveCount(3);

  const chip = (name: string) => history.getByRole('button', { name, exact: true });
  await chip('Completed').click();
  await expect(history.getByRole('article')).toHaveCount(2);
  await expect(taskRow(page, FOREST)).toHaveCount(0);
  await chip('Completed').click();
  await chip('In progress').click();
  await expect(history.getByRole('article')).toHaveCount(1);
  await expect(taskRow(page, FOREST)).toBeVisible();
  await chip('In progress').click();
  await expect(history.getByRole('article')).toHaveCount(3);
}

/** The gallery, its search and the viewer, all from files on this computer. */
async function browseGalleryOffline(page: Page): Promise<void> {
  await showScreen(page, 'Gallery');
  const tiles = galleryTiles(page);
  await expect(tiles).toHaveCount(2);
  for (const prompt of [FOX, WHALE]) {
    await expectLoadedImage(tiles.getByRole('img', { name: prompt, exact: true }));
  }
  const filters = page.getByRole('search', { name: 'Filter the gallery' });
  await filters.getByRole('searchbox', { name: 'Search prompts' }).fill('fox');
  await expect(tiles).toHaveCount(1);
  await expect(tiles.getByRole('img', { name: FOX, exact: true })).toBeVisible();
  await (await galleryFilters(page)).getByRole('button', { name: 'Clear filters' }).click();
  await page.keyboard.press('Escape');
  await expect(tiles).toHaveCount(2);

  await tiles.getByRole('img', { name: WHALE, exact: true }).click();
  const dialog = viewer(page);
  await expect(dialog).toBeVisible();
  await expectLoadedImage(dialog.getByRole('img', { name: WHALE, exact: true }));
  await expect(dialog).toContainText('Image 1 of 2');
  await dialog.getByRole('button', { name: 'Next image' }).click();
  await expect(dialog).toContainText('Image 2 of 2');
  await expectLoadedImage(dialog.getByRole('img', { name: FOX, exact: true }));
  await dialog.getByRole('button', { name: 'Close the viewer' }).click();
  await expect(dialog).toBeHidden();
}
