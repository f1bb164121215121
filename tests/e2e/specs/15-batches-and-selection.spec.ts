/**
 * Journey 15, batches and selection: "Generate 3" on the built-in demo service becomes one card
 * of the history, the prompt said once and the three results side by side; the user selects tasks
 * with Ctrl+click and Shift+click (a result's picture, then a lone task's row), removes them with
 * one confirmation, and the history on disk
 * agrees while their images stay in the gallery folder. axe checks the row, the selection bar and
 * the confirmation.
 *
 * Only a browser shows here: Ctrl+click and Shift+click selection with real pointer events, and axe
 * on the rendered row, selection bar and confirmation.
 */
import { expect, test } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { imageFiles, readHistory } from './support/disk';
import { useAppSession } from './support/session';
import { composeForm, expectLoadedImage, generate, historySection } from './support/ui';

const BATCH = 'Three paper cranes on a wire, batch journey';
const LONE = 'A lone heron in the reeds, batch journey';

const session = useAppSession('batches');

test('Generate 3 is one card; Ctrl and Shift select; one confirmation removes the selection', async () => {
  const { page } = await session.launch();
  await generate(page, LONE);

  const form = composeForm(page);
  await form.getByLabel('Prompt', { exact: true }).fill(BATCH);
  await form.getByLabel('Number of tasks', { exact: true }).fill('3');
  await form.getByRole('button', { name: 'Generate 3' }).click();

  // One card for the batch: three tasks, each an article named by the prompt, the prompt shown once.
  const feed = page.getByRole('feed', { name: 'Task history' });
  const batch = feed.locator('.task-batch');
  await expect(batch).toHaveCount(1);
  const tiles = batch.getByRole('article', { name: BATCH, exact: true });
  await expect(tiles).toHaveCount(3);
  await expect(batch.getByText(BATCH, { exact: true })).toHaveCount(1);
  await expect(batch.getByText('3 tasks', { exact: true })).toBeVisible();
  for (const tile of await tiles.all()) {
    // A result's state is its description (an icon on the square while it is not done).
    await expect(tile.getByText('Completed', { exact: true })).toBeAttached({ timeout: 30_000 });
    await expectLoadedImage(tile.getByRole('img', { name: BATCH }));
  }
  // The results sit side by side: same top edge, each to the right of the one before.
  const boxes = await Promise.all((await tiles.all()).map((tile) => tile.boundingBox()));
  expect(new Set(boxes.map((box) => Math.round(box?.y ?? -1))).size).toBe(1);
  expect(boxes.map((box) => box?.x ?? 0)).toEqual(
    [...boxes.map((box) => box?.x ?? 0)].sort((a, b) => a - b),
  );
  const lone = feed.getByRole('article', { name: LONE, exact: true });
  await expect(lone.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });

  // Ctrl+click the first result's picture, Shift+click the third's: the three are selected (a
  // plain click on a picture opens it).
  await tiles
    .nth(0)
    .getByRole('img', { name: BATCH })
    .click({ modifiers: ['Control'] });
  await tiles
    .nth(2)
    .getByRole('img', { name: BATCH })
    .click({ modifiers: ['Shift'] });
  const bar = page.getByRole('toolbar', { name: 'Selected tasks' });
  await expect(bar.getByText('3 selected')).toBeVisible();
  // Ctrl+click adds the lone task, and a second Ctrl+click takes it out again.
  await lone.locator('.task-row__meta').click({ modifiers: ['Control'] });
  await expect(bar.getByText('4 selected')).toBeVisible();
  await expect(lone.getByRole('checkbox', { name: 'Select' })).toBeChecked();
  await lone.locator('.task-row__meta').click({ modifiers: ['Control'] });
  await expect(bar.getByText('3 selected')).toBeVisible();
  for (const tile of await tiles.all()) {
    await expect(tile.getByRole('checkbox', { name: 'Select' })).toBeChecked();
  }
  await expectAccessible(page, 'tasks, a batch selected');

  // On disk the three share a batch id (the first one's local id); the lone task has none.
  const stored = readHistory(session.folders.userDataDir);
  const batchIds = stored.filter((r) => r.request.prompt === BATCH).map((r) => r.batchId);
  expect(batchIds).toHaveLength(3);
  expect(new Set(batchIds).size).toBe(1);
  expect(stored.map((r) => r.localId)).toContain(batchIds[0]);
  expect(stored.find((r) => r.request.prompt === LONE)?.batchId).toBeUndefined();

  const galleryBefore = await imageFiles(session.folders.galleryDir);
  expect(galleryBefore).toHaveLength(4);
  await bar.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove 3 tasks?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'tasks, removing a selection');
  await confirm.getByRole('button', { name: 'Remove 3 tasks' }).click();

  // Gone from the list in one step, with one confirmation; the lone task stays.
  await expect(feed.getByRole('article', { name: BATCH })).toHaveCount(0);
  await expect(historySection(page).getByRole('article')).toHaveCount(1);
  await expect(lone).toBeVisible();
  await expect(page.getByRole('status', { name: 'Done' })).toContainText('3 tasks removed.');
  await expect(bar).toHaveCount(0);

  // The history on disk agrees; the removed tasks' images stay in the gallery folder.
  const history = readHistory(session.folders.userDataDir);
  expect(history.map((record) => record.request.prompt)).toEqual([LONE]);
  expect(await imageFiles(session.folders.galleryDir)).toEqual(galleryBefore);

  // Ctrl+A in the list selects all that is left (the whole filtered history); Escape clears it.
  await lone.focus();
  await page.keyboard.press('Control+a');
  await expect(bar.getByText('All 1 task')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
});
