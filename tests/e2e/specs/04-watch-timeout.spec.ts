/**
 * Journey 4: a slow task outlives the watch timeout. Pictor stops checking it but keeps its id
 * (shown in the task's details), does not poll it while stopped, and "Resume" watches it again
 * until it completes into the gallery. The service saw one submit, never a second.
 *
 * The Settings field takes whole minutes and 0 means "forever", so 1 minute is the shortest
 * timeout a user can set: this journey waits about 70 s. The service makes the task take
 * TASK_MS, a little longer than the timeout, so it is still processing when Pictor stops.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectSavedOnDisk, readHistory, recordFor } from './support/disk';
import { byAccount, pollsOf, serviceTask, useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  closeDialog,
  expectLoadedImage,
  galleryTiles,
  generate,
  openDetails,
  setWatchTimeout,
  showScreen,
  statusBadge,
  taskRow,
} from './support/ui';

const ACCOUNT = 'watcher';
const KEY = 'sk-watcher-journey-4';
const TIMEOUT_MINUTES = 1;
/** Longer than the 60 s timeout by enough to see the stop and press Resume before it finishes. */
const TASK_MS = 70_000;
const PROMPT = 'A lighthouse in a slow, rolling fog';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: TASK_MS });
const session = useAppSession('watch-timeout');

test('a slow task stops at the watch timeout, keeps its id, and completes after Resume', async () => {
  test.setTimeout(150_000);
  const { page } = await session.launchConnected(demo.url, KEY);
  const field = await setWatchTimeout(page, TIMEOUT_MINUTES);
  await expect(field).toHaveValue(String(TIMEOUT_MINUTES));

  await showScreen(page, 'Tasks');
  await generate(page, PROMPT);
  await expect(statusBadge(taskRow(page, PROMPT))).toHaveText('Processing');
  const task = await serviceTask(demo, PROMPT);
  const pollsAtStop = await expectStoppedWithId(page, task.id);
  await resumeUntilSaved(page);

  const log = await demo.log();
  expect(byAccount(log.submits, ACCOUNT), 'one submit, never a second').toHaveLength(1);
  expect(pollsOf(log, task.id).length).toBeGreaterThan(pollsAtStop);
  expect(log.downloads.filter((entry) => entry.status === 200)).toHaveLength(1);
  expect((await demo.tasks()).filter((entry) => entry.account === ACCOUNT)).toHaveLength(1);

  await session.close();
  const record = recordFor(readHistory(session.folders.userDataDir), PROMPT);
  expect(record).toMatchObject({ taskId: task.id, status: 'completed', hold: null });
  await expectSavedOnDisk(session.folders.galleryDir, record);
});

/**
 * Waits for the timeout (the service still working), checks the id is shown and that no check
 * goes out while stopped. Returns how many polls the service saw until then.
 */
async function expectStoppedWithId(page: Page, taskId: string): Promise<number> {
  const row = taskRow(page, PROMPT);
  await expect(statusBadge(row)).toHaveText('Stopped watching', { timeout: 80_000 });
  await expect(row).toContainText('Pictor stopped checking after the watch timeout');
  await expect(row.getByRole('button', { name: 'Resume' })).toBeVisible();
  const atStop = (await demo.tasks()).find((entry) => entry.id === taskId);
  expect(atStop?.status, 'the service had not finished when Pictor stopped').toBe('processing');

  const details = await openDetails(page, PROMPT);
  await expect(details).toContainText(taskId);
  await expect(statusBadge(details)).toHaveText('Stopped watching');
  await closeDialog(details);

  const pollsAtStop = pollsOf(await demo.log(), taskId).length;
  expect(pollsAtStop).toBeGreaterThan(0);
  // Five poll intervals: stopped means no checks go out until the user resumes.
  await page.waitForTimeout(1_500);
  expect(pollsOf(await demo.log(), taskId)).toHaveLength(pollsAtStop);
  return pollsAtStop;
}

/** "Resume" (no other click): the task is watched again, completes and its image shows. */
async function resumeUntilSaved(page: Page): Promise<void> {
  const row = taskRow(page, PROMPT);
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  await expect(row).toContainText('1 image');

  await showScreen(page, 'Gallery');
  await expectLoadedImage(galleryTiles(page).getByRole('img', { name: PROMPT, exact: true }));
}
