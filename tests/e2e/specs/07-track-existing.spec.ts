/**
 * Journey 7: a task created outside Pictor (another tool, the same account) is pasted into
 * "Track a task id". Pictor polls it like its own and saves its image into the gallery; it
 * never submits anything itself.
 *
 * Only a browser shows here: a task made by another client of the same service process, tracked and
 * its image painted in the gallery of the built page.
 */
import { expect, test } from '@playwright/test';
import { expectSavedOnDisk, readHistory } from './support/disk';
import { pollsOf, useDemoProcess, type ServiceTask } from './support/service';
import { useAppSession } from './support/session';
import {
  closeDialog,
  expectLoadedImage,
  galleryTiles,
  openDetails,
  showScreen,
  statusBadge,
  taskRow,
} from './support/ui';

const ACCOUNT = 'tracker';
const KEY = 'sk-tracker-journey-7';
const SERVICE_PROMPT = 'A paper boat on a rain-soaked street, made with another tool';
const LABEL = 'Paper boat from the command line';

const demo = useDemoProcess({ keys: [`${ACCOUNT}:${KEY}`], durationMs: 3_000 });
const session = useAppSession('track');

test('a task id created elsewhere is tracked into the gallery without a submit', async () => {
  const { page } = await session.launchConnected(demo.url, KEY);
  // Created on the service directly, with the account of the key the app uses.
  const created = (await demo.control('tasks', {
    account: ACCOUNT,
    prompt: SERVICE_PROMPT,
    size: '512x512',
  })) as ServiceTask;
  expect(created.status).toBe('processing');

  await showScreen(page, 'Tasks');
  await page.getByRole('button', { name: 'Track a task id' }).click();
  const dialog = page.getByRole('dialog', { name: 'Track a task id' });
  await dialog.getByRole('button', { name: 'Track', exact: true }).click();
  await expect(dialog).toContainText('Paste the task id first.');
  await dialog.getByLabel('Task id').fill(created.id);
  await dialog.getByLabel('Prompt (optional, to find it later)').fill(LABEL);
  await dialog.getByRole('button', { name: 'Track', exact: true }).click();
  await expect(dialog).toBeHidden();

  const row = taskRow(page, LABEL);
  await expect(row).toBeVisible();
  await expect(statusBadge(row)).toHaveText('Completed', { timeout: 30_000 });
  await expect(row).toContainText('1 image');
  const details = await openDetails(page, LABEL);
  await expect(details).toContainText(created.id);
  await expect(details).toContainText('Tracked (created elsewhere)');
  await expect(details).toContainText('Saved · 512×512');
  await closeDialog(details);

  await showScreen(page, 'Gallery');
  await expectLoadedImage(galleryTiles(page).getByRole('img', { name: LABEL, exact: true }));

  const log = await demo.log();
  expect(log.submits, 'Pictor submitted nothing').toHaveLength(0);
  const polls = pollsOf(log, created.id);
  expect(polls.length).toBeGreaterThan(0);
  expect(polls.every((entry) => entry.account === ACCOUNT)).toBe(true);
  expect(log.downloads.filter((entry) => entry.status === 200)).toHaveLength(1);
  expect(await demo.tasks()).toHaveLength(1);

  await session.close();
  const records = readHistory(session.folders.userDataDir);
  expect(records).toHaveLength(1);
  const [record] = records;
  if (!record) throw new Error('no history record');
  expect(record).toMatchObject({
    taskId: created.id,
    origin: 'tracked',
    status: 'completed',
    request: { prompt: LABEL },
  });
  expect(record.images[0]).toMatchObject({ width: 512, height: 512 });
  await expectSavedOnDisk(session.folders.galleryDir, record);
});
