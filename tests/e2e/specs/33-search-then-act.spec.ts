/**
 * Journey 33, what the search field shows is what an action takes: a search is applied once
 * typing pauses, so a user who clears (or changes) the gallery's search and at once presses
 * "Select all" acted on the OLD search's images, and the search applied a moment later then
 * emptied that selection: no selection at all, under a field that matched every image (the Tasks
 * screen's search the same). Leaving the field applies what it shows, so Select all takes what
 * the field names, every time; and the gallery's Select all stays under the pointer while the
 * search it applied reloads the images shown.
 *
 * Only a browser shows here: a real field, a real button pressed before the pause ends, and the
 * selection bar the user reads.
 */
import { expect, test, type Page } from '@playwright/test';
import { launchWithLibrary, makeLibraryFirst } from './support/library';
import { SCREENSHOT_PROMPTS } from './support/screenshots';
import { useAppSession } from './support/session';
import { galleryTiles, showGalleryOf, showScreen, taskRows } from './support/ui';

/** The library 20-layout and 12-screenshots start on too (made once per worker). */
const PROMPTS = SCREENSHOT_PROMPTS;
const session = useAppSession('search-then-act');
makeLibraryFirst(PROMPTS);

/** The gallery's search field. */
function gallerySearch(page: Page) {
  return page.getByRole('search', { name: 'Filter the gallery' }).getByLabel('Search prompts');
}

test('clearing the gallery search and pressing Select all at once selects every image the field names', async () => {
  const { page } = await launchWithLibrary(session, PROMPTS);
  await showGalleryOf(page, PROMPTS);
  const search = gallerySearch(page);
  const selectAll = page.locator('.gallery__heading').getByRole('button', { name: 'Select all' });
  const bar = page.getByRole('toolbar', { name: 'Selected images' });
  // Several rounds: the button is pressed well inside the pause each time (a race, asked often).
  for (let round = 0; round < 5; round += 1) {
    await search.fill('ramen');
    await expect(galleryTiles(page)).toHaveCount(1);
    await search.fill('');
    await selectAll.click();
    await expect(galleryTiles(page)).toHaveCount(PROMPTS.length);
    await expect(bar.locator('.gallery-selection__count')).toHaveText(
      `All ${PROMPTS.length} images`,
    );
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await expect(bar).toBeHidden();
  }
});

test('clearing the task search and pressing Select all at once selects every task the field names', async () => {
  const { page } = await launchWithLibrary(session, PROMPTS);
  await showScreen(page, 'Tasks');
  await expect(taskRows(page)).toHaveCount(PROMPTS.length);
  const search = page.getByRole('searchbox', { name: 'Search prompts' });
  const selectAll = page.locator('.task-toolbar').getByRole('button', { name: 'Select all' });
  const bar = page.getByRole('toolbar', { name: 'Selected tasks' });
  for (let round = 0; round < 5; round += 1) {
    await search.fill('ramen');
    await expect(taskRows(page)).toHaveCount(1);
    await search.fill('');
    await selectAll.click();
    await expect(taskRows(page)).toHaveCount(PROMPTS.length);
    await expect(bar.locator('.selection-bar__count')).toHaveText(`All ${PROMPTS.length} tasks`);
    await bar.getByRole('button', { name: 'Clear selection' }).click();
    await expect(bar).toBeHidden();
  }
});
