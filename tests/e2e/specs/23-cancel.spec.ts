/**
 * Journey 23: a fal task cancelled while queued. The user gives fal.ai the address of their own
 * fal service (a demo process speaking fal's dialect, each task queued its first minute) and its
 * key, sets a price for fal.ai, generates, and while the task waits in fal's queue presses
 * "Cancel on the service" on its row. The service got one cancel request with fal's key header;
 * the row says the task was cancelled and not billed; the history on disk has it failed as
 * canceled, when the user asked, and its cost not billed. Nothing else was submitted.
 *
 * Only a browser shows here: a cancel sent to a service process speaking fal's dialect while its
 * task is queued, seen in that process's log and on the row of the built page.
 */
import { expect, test, type Page } from '@playwright/test';
import { CANCEL_ANSWER_WAIT_MS } from '../../../electron/core/batch/cancel-tasks';
import { readHistory, recordFor } from './support/disk';
import { serviceTask, useDemoProcess } from './support/service';
import { useAppSession } from './support/session';
import { composeForm, showScreen, statusBadge, taskRow } from './support/ui';

const KEY = 'fal-e2e-cancel-2c8e1a5b';
const PROMPT = 'A lighthouse that never got drawn';

// Three minutes a task: queued its first minute, long after the cancel.
const fal = useDemoProcess({ dialect: 'fal', keys: [`faluser:${KEY}`], durationMs: 180_000 });
const session = useAppSession('cancel');

/** Settings: fal.ai at the demo process's address, with its key, and a price for its tasks. */
async function setUpFal(page: Page, address: string): Promise<void> {
  await showScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'fal.ai' });
  await section.getByLabel('Address', { exact: true }).fill(address);
  await section.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(section.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await section.getByLabel('fal.ai API key').fill(KEY);
  await section.getByRole('button', { name: 'Save key' }).click();
  const consent = section.getByRole('button', { name: 'Store with weaker protection' });
  const stored = section.getByText(/A key is stored/);
  await expect(consent.or(stored)).toBeVisible();
  if (await consent.isVisible()) await consent.click();
  await expect(stored).toBeVisible();
  const prices = page.getByRole('form', { name: 'Prices' });
  await prices.getByLabel('Service').selectOption({ label: 'fal.ai' });
  await prices.getByLabel('Amount').fill('0.03');
  await prices.getByRole('button', { name: 'Set price' }).click();
  await expect(page.getByText('fal.ai, every model: $0.03 per image')).toBeVisible();
}

test('a fal task cancelled while queued: the service is told, the task ends cancelled and not billed', async () => {
  const { page } = await session.launch();
  await setUpFal(page, fal.directUrl);

  await showScreen(page, 'Tasks');
  const form = composeForm(page);
  await form.getByLabel('Service', { exact: true }).selectOption({ label: 'fal.ai' });
  await form.getByLabel('Prompt', { exact: true }).fill(PROMPT);
  await form.getByRole('button', { name: /^Generate/ }).click();
  const row = taskRow(page, PROMPT);
  // Waiting in fal's queue: the row says so, with its place.
  await expect(statusBadge(row)).toHaveText('Queued', { timeout: 30_000 });
  const queued = await serviceTask(fal, PROMPT);
  expect(queued.status).toBe('processing');

  await row.getByRole('button', { name: 'Cancel on fal.ai' }).click();
  const done = page.getByRole('status', { name: 'Done' });
  // Main settles a cancel with the service's next answer, waiting at most CANCEL_ANSWER_WAIT_MS
  // for it: the page's word may come that late on a loaded machine (a CI run read nothing at the
  // same 30 s, with the row cancelled by 37 s), so the wait here is past main's own bound.
  await expect(done.getByText('The task was cancelled on the service.')).toBeVisible({
    timeout: CANCEL_ANSWER_WAIT_MS + 15_000,
  });
  await expect(statusBadge(row)).toHaveText('Cancelled');
  // fal's own words for it, and the price's estimate gone: not billed.
  await expect(row).toContainText('Request was cancelled');
  await expect(row).toContainText('not billed');
  await expect(row.getByRole('button', { name: 'Cancel on fal.ai' })).toHaveCount(0);

  // What the service saw: one submit, one cancel, each with fal's own key header.
  const log = await fal.log();
  expect(log.submits).toHaveLength(1);
  const cancels = log.requests.filter((entry) => entry.route === 'cancel');
  expect(cancels).toHaveLength(1);
  expect(cancels[0]).toMatchObject({ method: 'PUT', status: 202, account: 'faluser' });
  expect(cancels[0]!.auth).toEqual({ header: 'authorization', value: `Key ${KEY}` });
  expect((await serviceTask(fal, PROMPT)).status).toBe('failed');

  await session.close();
  const record = recordFor(readHistory(session.folders.userDataDir), PROMPT);
  expect(record).toMatchObject({
    status: 'failed',
    provider: 'fal',
    error: { kind: 'canceled' },
    cost: { source: 'not_billed' },
    images: [],
  });
  expect(record.canceledByUserAt).toBeGreaterThan(record.createdAt);
});
