/**
 * Select all means all: Ctrl+A (or the "Select all" button) selects every image or task the
 * filters match, loaded or not, says so in the count ("All 300 images"), and a batch action acts
 * on that whole set, which main names from the filters when the action runs. In the gallery and
 * in Tasks alike, over main's own handlers, history and trash (tests/support/wired-api.ts).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GALLERY_PAGE_SIZE } from '../../../../renderer/store/gallery-list-model';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems, selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';
import { seedHistory, startWiredApp } from '../render-wired-app';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const toolbar = (name: string): HTMLElement => screen.getByRole('toolbar', { name });
const seedIds = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => `seed-${String(i).padStart(6, '0')}`);
const sent = <T,>(calls: readonly { images: T[] }[]): T[] => calls.flatMap((call) => call.images);
/** The selection bar's picks: triage requests naming images. */
const picks = (main: { callsTo(channel: 'triage:apply'): readonly object[] }) =>
  main
    .callsTo('triage:apply')
    .filter((call): call is { images: { localId: string; index: number }[] } => 'images' in call);

describe('Select all in the gallery', () => {
  it('Ctrl+A selects every image the filters match, loaded or not, and the trash takes them all', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 300) });
    expect(selectGalleryItems(useAppStore.getState())).toHaveLength(GALLERY_PAGE_SIZE);
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}a{/Control}');
    expect(toolbar('Selected images').textContent).toContain('All 300 images');

    await user.click(
      within(toolbar('Selected images')).getByRole('button', { name: 'Move to trash' }),
    );
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Move 300 images to the trash?');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    // One request for all 300 (not one per image), named by main from the filters.
    await waitFor(() => expect(main.callsTo('gallery:deleteImages')).toHaveLength(1));
    expect(sent(main.callsTo('gallery:deleteImages'))).toHaveLength(300);
    expect(main.callsTo('gallery:selectAll')).toEqual([{ states: ['saved'] }]);
    // Wait on the store, not on a text query: a failing getByText prints the 200 tiles each
    // poll, which took seconds of the thread main runs on (the cause of an earlier timeout).
    await waitFor(() => expect(useAppStore.getState().galleryTotal).toBe(0), { timeout: 30_000 });
    expect(screen.getByText('No images yet')).toBeTruthy();
    // Main's own trash holds them: every image is deleted in the history, no file is left.
    const { history } = main.runtime.core;
    expect(seedIds(300).filter((id) => history.get(id)?.images[0]?.state !== 'deleted')).toEqual(
      [],
    );
    expect(
      readdirSync(join(main.runtime.galleryDir(), 'g')).filter((n) => n.endsWith('.png')),
    ).toEqual([]);
  });

  it('the "Select all" button does the same; one taken out stays out; favourite and export reach them all', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 300) });
    const folder = join(main.dir, 'export');
    mkdirSync(folder);
    main.env['PICTOR_E2E_CHOOSE_FOLDER'] = folder;
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    fireEvent.click(tile(keyOf(5)), { ctrlKey: true });
    const bar = toolbar('Selected images');
    expect(bar.textContent).toContain('All 299 images');
    expect(tile(keyOf(5)).getAttribute('aria-selected')).toBe('false');
    expect(tile(keyOf(6)).getAttribute('aria-selected')).toBe('true');

    await user.click(within(bar).getByRole('button', { name: 'Pick' }));
    await waitFor(() => expect(sent(picks(main))).toHaveLength(299));
    expect(sent(picks(main))).not.toContainEqual({
      localId: 'seed-000005',
      index: 0,
    });
    const { history } = main.runtime.core;
    await waitFor(() => expect(history.get('seed-000299')?.images[0]?.favourite).toBe(true));
    expect(history.get('seed-000005')?.images[0]?.favourite).toBe(false);

    await user.click(within(bar).getByRole('button', { name: 'Export…' }));
    await waitFor(() => expect(main.callsTo('gallery:exportImages')).toHaveLength(1));
    expect(sent(main.callsTo('gallery:exportImages'))).toHaveLength(299);
    // Main copied the 299 files into the folder the user chose.
    await waitFor(() =>
      expect(useAppStore.getState().statusEntries.map((shown) => wordsOf(shown.text))).toContain(
        `299 images copied to ${folder}.`,
      ),
    );
    expect(readdirSync(folder).filter((name) => name.endsWith('.png'))).toHaveLength(299);
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
    await user.click(within(toolbar('Selected images')).getByRole('button', { name: 'Pick' }));
    await waitFor(() => expect(sent(picks(main))).toHaveLength(100));
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
    const { user, main } = await startWiredApp({
      prepare: (m) => void seedHistory(m, 300),
    });
    expect(selectTaskItems(useAppStore.getState()).length).toBeLessThan(300);
    act(() => screen.getAllByRole('article')[0]!.focus());
    await user.keyboard('{Control>}a{/Control}');
    expect(toolbar('Selected tasks').textContent).toContain('All 300 tasks');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('toolbar', { name: 'Selected tasks' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = toolbar('Selected tasks');
    expect(bar.textContent).toContain('All 300 tasks');
    await user.click(within(bar).getByRole('button', { name: 'Pick' }));
    // None of them has an image yet: each keeps its own star (main skips tasks with images, whose
    // pick is triage's; the tasks not loaded are asked of both).
    await waitFor(() =>
      expect(main.callsTo('tasks:setFavouriteMany').flatMap((call) => call.localIds)).toHaveLength(
        300,
      ),
    );
    await waitFor(() => expect(main.runtime.core.history.get('seed-000299')?.favourite).toBe(true));

    await user.click(within(bar).getByRole('button', { name: 'Remove' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Remove 300 tasks?');
    await user.click(within(confirm).getByRole('button', { name: 'Remove 300 tasks' }));
    await waitFor(() =>
      expect(main.callsTo('tasks:removeMany').flatMap((call) => call.localIds)).toHaveLength(300),
    );
    expect(main.callsTo('tasks:selectAll')).toEqual([{}, {}]);
    // Main removed them all from its history.
    await waitFor(() => expect(main.runtime.core.history.get('seed-000299')).toBeUndefined());
    expect(seedIds(300).filter((id) => main.runtime.core.history.get(id))).toEqual([]);
  });
});
