/**
 * Journey 3: the user quits while two tasks are processing and starts Pictor again. The tasks
 * come back with the same ids, the app polls them again on its own and they complete; the
 * service saw exactly two submits (nothing was resubmitted) and polls after the restart. A
 * prompt typed and not sent before the quit is in the prompt box again.
 *
 * Only a browser shows here: the page reloaded over a runtime that stopped and started again: the
 * unsent prompt kept by the browser's own storage across the restart.
 */
import { expect, test, type Page } from '@playwright/test';
import { listFiles, readHistory } from './support/disk';
import { useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import { composeForm, showScreen } from './support/ui';

const KEY = 'sk-e2e-restart';
const DRAFT = 'a draft typed before the restart and never sent';
const PROMPT = 'A clock tower in the rain, interrupted';

// The tasks stay processing until the test completes them, after the restart: however slow a
// loaded machine makes the quit, the first instance cannot see them done.
const demo = useDemoProcess({ keys: [`me:${KEY}`], durationMs: 3_600_000 });
const session = useAppSession('restart');

async function localIds(page: Page): Promise<string[]> {
  const rows = page.getByRole('article', { name: PROMPT });
  const ids = await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-local-id') ?? ''),
  );
  return ids.sort();
}

test('restart while two tasks are processing: they resume and complete, nothing is resubmitted', async () => {
  const { folders } = session;
  const app = await session.launchConnected(demo.url, KEY);
  await showScreen(app.page, 'Tasks');
  const form = composeForm(app.page);
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByLabel('Number of tasks', { exact: true }).fill('2');
  await form.getByRole('button', { name: 'Generate 2' }).click();

  const rowsBefore = app.page.getByRole('article', { name: PROMPT });
  await expect(rowsBefore).toHaveCount(2);
  for (const row of await rowsBefore.all()) {
    // The tile's words say its state on the square (its description says it again, unseen).
    await expect(row.getByText('Processing', { exact: true }).first()).toBeVisible();
  }
  await expect.poll(async () => (await demo.log()).submits.length).toBe(2);
  const idsBefore = await localIds(app.page);
  // A prompt typed and not sent is still there after the restart.
  await form.getByLabel('Prompt', { exact: true }).fill(DRAFT);
  const serviceTasks = (await demo.tasks()).filter((task) => task.prompt === PROMPT);
  expect(serviceTasks.map((task) => task.status)).toEqual(['processing', 'processing']);

  let restartedAt = Number.POSITIVE_INFINITY;
  const page = await app.restart({ whileClosed: () => void (restartedAt = Date.now()) });
  await showScreen(page, 'Tasks');
  await expect(composeForm(page).getByLabel('Prompt', { exact: true })).toHaveValue(DRAFT);

  const rows = page.getByRole('article', { name: PROMPT });
  await expect(rows).toHaveCount(2);
  expect(await localIds(page)).toEqual(idsBefore);
  for (const task of serviceTasks) await demo.control(`tasks/${task.id}/complete`);
  for (const row of await rows.all()) {
    await expect(row.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByRole('img', { name: PROMPT })).toBeVisible();
  }

  const log = await demo.log();
  expect(log.submits).toHaveLength(2);
  for (const task of serviceTasks) {
    const pollsAfter = log.polls.filter(
      (poll) => poll.path === `/v1/tasks/${task.id}` && poll.at >= restartedAt,
    );
    expect(pollsAfter.length, `polls of ${task.id} after the restart`).toBeGreaterThan(0);
  }
  expect(
    (await listFiles(folders.galleryDir)).filter((file) => file.endsWith('/image-1.png')),
  ).toHaveLength(2);

  await session.close();
  const history = readHistory(folders.userDataDir);
  expect(history.map((record) => record.localId).sort()).toEqual(idsBefore);
  expect(history.map((record) => record.taskId).sort()).toEqual(
    serviceTasks.map((task) => task.id).sort(),
  );
  for (const record of history) expect(record.status).toBe('completed');
});
