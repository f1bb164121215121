/**
 * Journey 4: a slow task outlives the watch timeout. Pictor stops checking it but keeps its id
 * (shown in the task's details), does not poll it while stopped, and "Resume" watches it again
 * until it completes into the gallery. The service saw one submit, never a second.
 *
 * The Settings field takes whole minutes and 0 means "forever", so 1 minute is the shortest
 * timeout a user can set. On the chromium host the journey moves the app's clock past it
 * (harness/app-clock.ts: the engine's next poll finds the deadline passed) instead of waiting a
 * minute; on Electron, whose clock is the system's, the minute passes. The service's task never
 * ends by itself: it is still processing when Pictor stops, and completes when the journey says,
 * after Resume.
 *
 * Only a browser shows here: a task's details dialog and Resume in the built page while the host's
 * clock passes the timeout; the service process's own log that nothing was polled meanwhile.
 */
import { expect, test, type Page } from '@playwright/test';
import type { LaunchedApp } from '../harness/launch-app';
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
/** Longer than the journey: the task ends when the journey completes it. */
const TASK_MS = 600_000;
const PROMPT = 'A lighthouse in a slow, rolling fog';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: TASK_MS });
const session = useAppSession('watch-timeout');

test('a slow task stops at the watch timeout, keeps its id, and completes after Resume', async () => {
  test.setTimeout(150_000);
  const app = await session.launchConnected(demo.url, KEY);
  const { page } = app;
  const field = await setWatchTimeout(page, TIMEOUT_MINUTES);
  await expect(field).toHaveValue(String(TIMEOUT_MINUTES));

  await showScreen(page, 'Tasks');
  await generate(page, PROMPT);
  await expect(statusBadge(taskRow(page, PROMPT))).toHaveText('Processing');
  const task = await serviceTask(demo, PROMPT);
  await passTheTimeout(app, task.id);
  const pollsAtStop = await expectStoppedWithId(page, task.id);
  await resumeUntilSaved(page, task.id);

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
 * The watch timeout's minute: on the chromium host the clock moves past it once Pictor has
 * polled the task (as it does through that minute on Electron, where the minute passes while
 * expectStoppedWithId waits).
 */
async function passTheTimeout(app: LaunchedApp, taskId: string): Promise<void> {
  if (app.host === 'chromium') {
    await expect.poll(async () => pollsOf(await demo.log(), taskId).length).toBeGreaterThan(0);
    app.advanceClock(TIMEOUT_MINUTES * 60_000);
  }
}

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

/**
 * "Resume" (no other click): the task is watched again; the service then completes it, and it
 * completes in Pictor and its image shows.
 */
async function resumeUntilSaved(page: Page, taskId: string): Promise<void> {
  const row = taskRow(page, PROMPT);
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row.getByRole('button', { name: 'Resume' })).toHaveCount(0);
  await demo.control(`tasks/${taskId}/complete`);
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  await expect(row).toContainText('1 image');

  await showScreen(page, 'Gallery');
  await expectLoadedImage(galleryTiles(page).getByRole('img', { name: PROMPT, exact: true }));
}
