/**
 * Journey 36, the library with the service out of reach: a user who made two pictures loses the
 * service (the app's "network" to it switched off) and starts Pictor again. The history and the
 * gallery are whole, search and the viewer work, the library exports; a Generate pressed now is
 * told once that nothing was sent, its prompt back in the form and no history row; and the Costs
 * screen lists the two tasks and not that attempt (the service never accepted it: it was never a
 * task), so no row says a task was removed. Importing the export back into the same library adds
 * nothing and says so.
 *
 * Only a browser shows here: the notice, the form and the Costs list a user reads side by side.
 */
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useDemoProcess } from './support/service';
import { FAST_ENV, useAppSession } from './support/session';
import {
  composeForm,
  expectLoadedImage,
  galleryTiles,
  generateAll,
  showGalleryOf,
  showScreen,
  taskRows,
  tileFor,
  viewer,
  viewerImage,
} from './support/ui';

const KEY = 'sk-e2e-offline-library';
const PROMPTS = ['A lighthouse in fog', 'A teapot on a shelf'];
const UNSENT = 'A kite flown while the service is out of reach';
const demo = useDemoProcess({ keys: [`me:${KEY}`], durationMs: 200 });
const session = useAppSession('offline-library');

/** Settings › Library. */
function librarySection(page: Page) {
  return page.getByRole('region', { name: 'Library', exact: true });
}

/** The Costs screen's row of the task with `prompt`. */
function costRow(page: Page, prompt: string) {
  return page.getByRole('row').filter({ hasText: prompt });
}

test('with the service out of reach the library browses, exports and re-imports, and a Generate that cannot be sent is said once and leaves no task in any list', async () => {
  test.setTimeout(120_000);
  // In the test's own folder (removed with it), never a fixed name in the shared temp folder.
  const archive = join(session.folders.root, 'library.zip');
  const env = { ...FAST_ENV, PICTOR_E2E_EXPORT_FILE: archive, PICTOR_E2E_IMPORT_SOURCE: archive };
  const made = await session.launchConnected(demo.url, KEY, { env });
  await generateAll(made.page, PROMPTS);
  await session.close();
  await demo.goOffline();
  const submitsBefore = (await demo.log()).submits.length;
  try {
    const { page } = await session.launch({ env });

    // Browse, search and open, all from this computer.
    await showScreen(page, 'Tasks');
    await expect(taskRows(page)).toHaveCount(PROMPTS.length);
    await showGalleryOf(page, PROMPTS);
    const search = page
      .getByRole('search', { name: 'Filter the gallery' })
      .getByLabel('Search prompts');
    await search.fill('teapot');
    await expect(galleryTiles(page)).toHaveCount(1);
    await tileFor(page, 'A teapot on a shelf').getByRole('img').dblclick();
    await expectLoadedImage(viewerImage(page));
    await page.keyboard.press('Escape');
    await expect(viewer(page)).toBeHidden();
    await search.fill('');
    await expect(galleryTiles(page)).toHaveCount(PROMPTS.length);

    // Export, then import the same archive back: nothing is added, and the summary says why.
    await showScreen(page, 'Settings');
    const library = librarySection(page);
    await library.getByRole('button', { name: 'Export all…' }).click();
    await expect(library.getByText(/^Exported 2 tasks and 2 images \(.+\) to /)).toBeVisible();
    await library.getByRole('button', { name: 'Import archive…' }).click();
    await expect(library.getByText('Added 0 tasks and 0 images.', { exact: true })).toBeVisible();
    await expect(
      library.getByText('Already in the library, skipped: 2 tasks and 2 images.', { exact: true }),
    ).toBeVisible();

    // Generate now: nothing is sent, the notice says so once, the prompt is back in the form.
    await showScreen(page, 'Tasks');
    const form = composeForm(page);
    await form.getByLabel('Prompt', { exact: true }).fill(UNSENT);
    await form.getByRole('button', { name: /^Generate/ }).click();
    const notice = page.getByRole('region', { name: 'Request not sent' });
    await expect(notice).toContainText('Pictor could not reach the service, so nothing was sent.');
    await expect(form.getByLabel('Prompt', { exact: true })).toHaveValue(UNSENT);
    await expect(taskRows(page)).toHaveCount(PROMPTS.length);

    // Costs lists the two tasks and not the attempt: the service never accepted it, so it was
    // never a task and cost nothing (core/history/ledger-accepted-schema.ts).
    await showScreen(page, 'Costs');
    for (const prompt of PROMPTS) await expect(costRow(page, prompt)).toHaveCount(1);
    await expect(costRow(page, UNSENT)).toHaveCount(0);
  } finally {
    await demo.goOnline();
  }
  expect((await demo.log()).submits.length).toBe(submitsBefore);
});
