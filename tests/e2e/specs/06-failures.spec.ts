/**
 * Journey 6: what the user sees when things go wrong, and that nothing invisible happens.
 * - A task the service fails shows the service's own reason.
 * - A submit the service refuses says why and the service created no task: no phantom task on
 *   either side. Refused for the account (401 wrong key, 402 no credits), it leaves no row: one
 *   banner says it and the prompt stays in the form; refused as invalid (400 a size over the
 *   service's cap), its row is marked "Not submitted" (never "Processing"), to be edited.
 * - An image whose URL expired before it could be downloaded is labelled as such.
 *
 * One service process for the file: tasks take a minute unless the control API finishes them,
 * and image URLs expire 1 ms after completion (no test here needs a download to work).
 *
 * Only a browser shows here: the service process's own reasons and refusals as rendered banners and
 * rows, and an expired image link as a real failed load.
 */
import { expect, test, type Page } from '@playwright/test';
import { imageFiles, readHistory, recordFor } from './support/disk';
import { serviceTask, useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import {
  closeDialog,
  composeForm,
  galleryTiles,
  generate,
  historySection,
  openDetails,
  showScreen,
  statusBadge,
  taskRow,
} from './support/ui';

const ALICE = { account: 'alice', key: 'sk-alice-journey-6' };
const BROKE = { account: 'broke', key: 'sk-broke-journey-6' };
const SERVICE_REASON = {
  code: 'content_policy_violation',
  message: 'The prompt was refused by the safety system: it names a real person',
};

const demo = useDemoProcess({
  keys: [`${ALICE.account}:${ALICE.key}`, `${BROKE.account}:${BROKE.key}`],
  credits: [`${BROKE.account}:0`],
  durationMs: 60_000,
  imageTtlMs: 1,
});
const session = useAppSession('failures');

/** Launches the app connected to the service with `key`, on the Tasks screen. */
async function tasksWithKey(key: string): Promise<Page> {
  const { page } = await session.launchConnected(demo.url, key);
  await showScreen(page, 'Tasks');
  return page;
}

test('a task the service fails shows the service’s reason', async () => {
  const prompt = 'A portrait of a famous person, failed by the service';
  const page = await tasksWithKey(ALICE.key);
  const { folders } = session;
  const before = await submitCounts(200);
  await generate(page, prompt);
  const row = taskRow(page, prompt);
  await expect(statusBadge(row)).toHaveText('Processing');
  const task = await serviceTask(demo, prompt);
  await demo.control(`tasks/${task.id}/fail`, { error: SERVICE_REASON });

  await expect(statusBadge(row)).toHaveText('Failed', { timeout: 15_000 });
  await expect(row).toContainText(SERVICE_REASON.message);
  await expect(row.getByRole('button', { name: 'Submit again' })).toBeVisible();
  const details = await openDetails(page, prompt);
  await expect(details).toContainText(SERVICE_REASON.message);
  await expect(details).toContainText(task.id);
  await closeDialog(details);

  const after = await submitCounts(200);
  expect(after.accepted, 'one submit').toBe(before.accepted + 1);
  expect(after.lastAccount, 'with the key of the account').toBe(ALICE.account);
  expect((await demo.tasks()).filter((entry) => entry.prompt === prompt)).toHaveLength(1);
  await session.close();
  const record = recordFor(readHistory(folders.userDataDir), prompt);
  expect(record).toMatchObject({ taskId: task.id, status: 'failed', images: [] });
  expect(record.error?.kind).toBe('task_failed');
  expect(record.error?.message).toContain(SERVICE_REASON.message);
  expect(await imageFiles(folders.galleryDir)).toEqual([]);
});

interface RefusalCase {
  readonly name: string;
  readonly key: string;
  readonly customSize?: string;
  readonly status: number;
  /** The account the service attributes the request to (null: it did not know the key). */
  readonly account: string | null;
  readonly says: readonly string[];
  /**
   * Refused for the account (key, credits): no row is kept, one banner says it and the prompt
   * stays in the form. Otherwise (400) the row stays, to be edited.
   */
  readonly banner?: string;
}

// A wrong key (401) is no longer a journey here: Settings checks a key with the service before it
// stores it, so a refused key is never saved (tests/unit/renderer/features/settings.test.tsx,
// tests/unit/core/service/connection-test.test.ts); a key refused at submit time (revoked later)
// is covered over real HTTP by tests/integration/cli/submit-errors.test.ts and the engine's tests.
const REFUSALS: readonly RefusalCase[] = [
  {
    name: '402: an account without credits',
    key: BROKE.key,
    status: 402,
    account: BROKE.account,
    says: ['The account has run out of credits (402).'],
    banner: 'The account has no credits left, so nothing was created.',
  },
  {
    name: '400: a custom size over the service’s cap',
    key: ALICE.key,
    customSize: '4096x4096',
    status: 400,
    account: ALICE.account,
    says: ['The service rejected the request (400)', 'at most 2048 pixels per side'],
  },
];

for (const refusal of REFUSALS) {
  test(`a refused submit (${refusal.name}) says why and leaves no phantom task`, async () => {
    const prompt = `A quiet harbour at dawn, refused with ${refusal.status}`;
    const page = await tasksWithKey(refusal.key);
    const { folders } = session;
    const before = await submitCounts(refusal.status);
    const form = composeForm(page);
    if (refusal.customSize) {
      await form.getByLabel('Size', { exact: true }).selectOption({ label: 'Custom…' });
      await form.getByLabel('Custom size (width x height)').fill(refusal.customSize);
    }
    await form.getByLabel('Prompt', { exact: true }).fill(prompt);
    await form.getByRole('button', { name: /^Generate/ }).click();

    if (refusal.banner) {
      // Refused for the account: one banner, what was typed kept, no row.
      const banner = page.getByRole('region', { name: 'Request not sent' });
      await expect(banner).toContainText(refusal.banner, { timeout: 15_000 });
      await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(prompt);
      await expect(historySection(page).getByRole('article', { name: prompt })).toHaveCount(0);
    } else {
      const row = taskRow(page, prompt);
      await expect(statusBadge(row)).toHaveText('Not submitted', { timeout: 15_000 });
      for (const text of refusal.says) await expect(row).toContainText(text);
      await expect(row.getByRole('button', { name: 'Edit and submit again' })).toBeVisible();
      await expect(row.getByRole('button', { name: 'Copy task id' })).toBeDisabled();
      await expectOnlyUnder(page, 'Not submitted', prompt);
    }
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByText(/tasks? running/),
    ).toHaveCount(0);

    const after = await submitCounts(refusal.status);
    expect(after.answered, 'the service saw the submit and refused it').toBe(before.answered + 1);
    expect(after.lastAccount).toBe(refusal.account);
    expect(after.accepted, 'no submit was accepted').toBe(before.accepted);
    expect(after.tasks, 'the service created no task').toBe(before.tasks);

    await session.close();
    const stored = readHistory(folders.userDataDir);
    if (refusal.banner) {
      expect(stored.filter((record) => record.request.prompt === prompt)).toEqual([]);
    } else {
      const record = recordFor(stored, prompt);
      expect(record).toMatchObject({ status: 'submit_failed', taskId: null, hold: null });
      expect(record.error?.httpStatus).toBe(refusal.status);
    }
    expect(await imageFiles(folders.galleryDir)).toEqual([]);
  });
}

/** Submits the service answered with `status` and with 200, and the tasks it holds. */
async function submitCounts(status: number) {
  const { submits } = await demo.log();
  const answered = submits.filter((entry) => entry.status === status);
  return {
    answered: answered.length,
    lastAccount: answered.at(-1)?.account ?? null,
    accepted: submits.filter((entry) => entry.status === 200).length,
    tasks: (await demo.tasks()).length,
  };
}

/** With the status chip `group` on, the history lists exactly the task `prompt`; "In progress" lists none. */
async function expectOnlyUnder(page: Page, group: string, prompt: string): Promise<void> {
  const history = historySection(page);
  const chip = (name: string) => history.getByRole('button', { name, exact: true });
  await chip(group).click();
  await expect(history.getByRole('article')).toHaveCount(1);
  await expect(taskRow(page, prompt)).toBeVisible();
  await chip(group).click();
  await chip('In progress').click();
  await expect(history.getByText('No tasks match')).toBeVisible();
  await chip('In progress').click();
  await expect(taskRow(page, prompt)).toBeVisible();
}

test('an image whose URL expired before the download is labelled', async () => {
  const prompt = 'A snow globe on a windowsill, its link already expired';
  const page = await tasksWithKey(ALICE.key);
  const { folders } = session;
  await generate(page, prompt);
  const row = taskRow(page, prompt);
  await expect(statusBadge(row)).toHaveText('Processing');
  const task = await serviceTask(demo, prompt);
  await demo.control(`tasks/${task.id}/complete`);

  await expect(row).toContainText(
    'Completed, but the image link expired before the image was saved.',
    { timeout: 15_000 },
  );
  await expect(statusBadge(row)).toHaveText('Link expired');
  await expect(row.getByRole('button', { name: 'Retry images' })).toBeVisible();
  const details = await openDetails(page, prompt);
  await expect(details).toContainText('Link expired');
  await expect(details).toContainText('the image server answered 403');
  await closeDialog(details);

  await showScreen(page, 'Gallery');
  const tile = galleryTiles(page).filter({ hasText: prompt });
  await expect(tile).toHaveCount(1);
  await expect(tile).toContainText('Link expired');
  await expect(tile.getByRole('img', { name: prompt })).toHaveCount(0);

  const downloads = (await demo.log()).downloads.filter((entry) => entry.path.includes('/files/'));
  expect(downloads.length).toBeGreaterThan(0);
  expect(downloads.every((entry) => entry.status === 403)).toBe(true);
  await session.close();
  const record = recordFor(readHistory(folders.userDataDir), prompt);
  expect(record.status).toBe('completed');
  expect(record.images).toHaveLength(1);
  expect(record.images[0]?.state).toBe('expired');
  expect(await imageFiles(folders.galleryDir)).toEqual([]);
});
