/**
 * Journey 18, refusals and the reported model: a submit the service refuses for the account keeps what
 * was typed, says so in one banner however many times it happens, and leaves no row in the
 * history or on disk; the service saw each request once. A request it refuses as invalid (400)
 * stays a row whose "Edit and submit again" puts it back in the form without sending anything;
 * a completed task shows the model the service reported beside the one asked for. Changing the
 * gallery folder (item 11) asks what to do with the folder main's dialog returned (answered by the
 * host's stand-in, PICTOR_E2E_CHOOSE_FOLDER, on Chromium and on Electron alike), moves the library
 * with the progress shown and reports it; the files are in the new folder on disk. axe checks the
 * banner and the question.
 *
 * Only a browser shows here: one banner however many refusals, main's folder dialog answered by the
 * host, the library moved on disk with its progress rendered; axe on the banner and question.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { imageFiles, readHistory } from './support/disk';
import { useDemoProcess } from './support/service';
import { FAST_ENV, useAppSession } from './support/session';
import {
  closeDialog,
  composeForm,
  generate,
  generateAll,
  historySection,
  openDetails,
  showScreen,
  statusBadge,
  taskRow,
} from './support/ui';

const ALICE = { account: 'alice', key: 'sk-alice-journey-18' };
const BOB = { account: 'bob', key: 'sk-bob-revoked-after-saving-18' };

const demo = useDemoProcess({
  keys: [`${ALICE.account}:${ALICE.key}`, `${BOB.account}:${BOB.key}`],
  durationMs: 500,
});
const session = useAppSession('refusals');

async function tasksWithKey(key: string): Promise<Page> {
  const { page } = await session.launchConnected(demo.url, key);
  await showScreen(page, 'Tasks');
  return page;
}

async function refusedSubmits(): Promise<number> {
  const { submits } = await demo.log();
  return submits.filter((entry) => entry.status === 401).length;
}

// Settings checks a key with the service before storing it, so the refused key is one the service
// accepted when it was saved and revoked afterwards (the demo's control API), as a key revoked in
// the service's console would be.
test('a revoked key keeps the prompt, one banner for every attempt, and no row', async () => {
  const prompt = 'A lighthouse in a storm, refused for the key';
  const page = await tasksWithKey(BOB.key);
  await demo.control('revoke-key', { key: BOB.key });
  const before = await refusedSubmits();
  const form = composeForm(page);
  const promptBox = form.getByLabel('Prompt', { exact: true });
  await promptBox.fill(prompt);
  await form.getByRole('button', { name: /^Generate/ }).click();
  const banner = page.getByRole('region', { name: 'Request not sent' });
  await expect(banner).toContainText('The service refused the API key', { timeout: 15_000 });
  await expect(promptBox).toHaveValue(prompt);

  // Again: still one banner, counting the attempts; the prompt is still there.
  await form.getByRole('button', { name: /^Generate/ }).click();
  await expect(banner).toContainText('Refused 2 times.', { timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Request not sent' })).toHaveCount(1);
  await expect(promptBox).toHaveValue(prompt);
  await expect(historySection(page).getByRole('article', { name: prompt })).toHaveCount(0);
  await expectAccessible(page, 'a refused submit, its banner');
  expect(await refusedSubmits(), 'each request sent once').toBe(before + 2);

  await banner.getByRole('button', { name: 'Open Settings' }).click();
  // Settings, at the key: the one set was refused, so it is the one to replace.
  const keySection = page.getByRole('region', { name: 'API key' });
  await expect(keySection.getByRole('button', { name: 'Replace key' })).toBeVisible();
  await session.close();
  const stored = readHistory(session.folders.userDataDir);
  expect(stored.filter((record) => record.request.prompt === prompt)).toEqual([]);
});

test('a 400 row is edited before it is sent again; a completed task shows both models', async () => {
  const page = await tasksWithKey(ALICE.key);
  const refused = 'A harbour at dawn, far too large';
  const form = composeForm(page);
  await form.getByLabel('Size', { exact: true }).selectOption({ label: 'Custom…' });
  await form.getByLabel('Custom size (width x height)').fill('4096x4096');
  const promptBox = form.getByLabel('Prompt', { exact: true });
  await promptBox.fill(refused);
  await form.getByRole('button', { name: /^Generate/ }).click();
  const row = taskRow(page, refused);
  await expect(statusBadge(row)).toHaveText('Not submitted', { timeout: 15_000 });
  // Refused as invalid: the row stays, and what was typed is in the form again.
  await expect(promptBox).toHaveValue(refused);
  await promptBox.fill('');
  const { submits } = await demo.log();
  await row.getByRole('button', { name: 'Edit and submit again' }).click();
  await expect(promptBox).toHaveValue(refused);
  await expect(promptBox).toBeFocused();
  await expect(composeForm(page).getByLabel('Custom size (width x height)')).toHaveValue(
    '4096x4096',
  );
  expect((await demo.log()).submits, 'nothing sent by editing').toHaveLength(submits.length);

  const fine = 'A harbour at dawn, the right size';
  await composeForm(page).getByLabel('Size', { exact: true }).selectOption({ index: 0 });
  await generate(page, fine);
  await expect(statusBadge(taskRow(page, fine))).toHaveText('Completed', { timeout: 30_000 });
  const details = await openDetails(page, fine);
  await expect(details).toContainText('Model asked for');
  await expect(details).toContainText('sketch-image-1');
  await closeDialog(details);
});

test('changing the gallery folder asks, moves the library with its progress and reports it', async () => {
  const target = join(session.folders.root, 'Moved library');
  const { page } = await session.launch({
    env: { ...FAST_ENV, PICTOR_E2E_CHOOSE_FOLDER: target },
  });
  await generateAll(page, ['A paper boat on a pond, before the move']);
  expect(await imageFiles(session.folders.galleryDir)).toHaveLength(1);

  await showScreen(page, 'Settings');
  const gallery = page.getByRole('region', { name: 'Gallery' });
  await gallery.getByRole('button', { name: 'Change…' }).click();
  const question = page.getByRole('dialog', { name: 'Change the gallery folder' });
  await expect(question).toContainText('This folder holds no Pictor library.');
  // Main's own folder dialog was asked once, and answered by the host's stand-in on both hosts.
  expect(session.app.osCalls().filter((call) => call.action === 'chooseFolder')).toEqual([
    { action: 'chooseFolder', arg: target },
  ]);
  await expect(question).toContainText(target);
  await expect(
    question.getByRole('button', { name: 'Start an empty library there' }),
  ).toBeVisible();
  await expectAccessible(page, 'the gallery folder question');
  await question.getByRole('button', { name: 'Move this library there' }).click();

  await expect(gallery.getByRole('status')).toContainText(
    `The library moved to ${target}: 1 task folder.`,
    { timeout: 30_000 },
  );
  await expect(gallery.getByText(target, { exact: true })).toBeVisible();
  expect(await imageFiles(target)).toHaveLength(1);
  expect(await imageFiles(session.folders.galleryDir)).toEqual([]);
});
