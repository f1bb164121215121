/**
 * The gallery and the Triage view over the page's one records table: the gallery holds image
 * refs (task and image index) and reads each image from its task's record, so a record written
 * once (a rating main sends) shows in the grid, the Triage view and the task list alike, and an
 * image that leaves the gallery's filter (main's `views`) leaves it live, its record let go
 * once no view names it.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import {
  selectGalleryItems,
  selectGalleryJump,
  selectTaskItems,
} from '../../../../renderer/store/record-selectors';
import { okValue } from '../../../support/ipc';
import { keyOf, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

const renderWired = wiredGallery();
const state = () => useAppStore.getState();
const id = (n: number) => `seed-${String(n).padStart(6, '0')}`;

/** The Triage view's filmstrip names, one per image. */
function stripNames(view: HTMLElement): (string | null)[] {
  const strip = within(view).getByRole('list');
  return within(strip)
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));
}

describe('the gallery over the one records table', () => {
  it('holds refs only: each image is read from its task record, the one the task list reads', async () => {
    await renderWired({ events: true, prepare: (m) => seedGallery(m, 3) });
    await act(() => state().tasksReload());
    expect(state().galleryRefs).toEqual([0, 1, 2].map((n) => ({ localId: id(n), index: 0 })));
    const record = state().records.get(id(1))!;
    expect(selectTaskItems(state()).find((item) => item.record.localId === id(1))).toBe(record);
    expect(selectGalleryItems(state())[1]?.image).toEqual(record.record.images[0]);
  });

  it('shows a record updated once in the grid, the Triage view and the task list', async () => {
    const { main, user } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 3) });
    await act(() => state().tasksReload());
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    const image = { localId: id(1), index: 0 };
    const refs = state().galleryRefs;
    // Rated by main's own handler: only its one `tasks:updated` reaches the page.
    okValue(
      await main.api.invoke('triage:apply', {
        images: [image],
        change: { kind: 'rating', rating: 3 },
      }),
    );
    await waitFor(() => expect(stripNames(view)[1]).toContain('3 stars'));
    const written = state().records.get(id(1))!;
    expect(written.record.images[0]?.rating).toBe(3);
    expect(selectTaskItems(state()).find((item) => item.record.localId === id(1))).toBe(written);
    expect(selectGalleryItems(state())[1]?.image.rating).toBe(3);
    // A rating changes a record, not the list: the views' refs stay the same array, so nothing
    // over them (the holders of the records table, the grid's selector) starts again.
    expect(state().galleryRefs).toBe(refs);
    fireEvent.keyDown(view, { code: 'Escape', key: 'Escape' });
    await waitFor(() => expect(tile(keyOf(1)).querySelector('[data-rating="3"]')).not.toBeNull());
  });

  it('drops an image live when it leaves the filter, and lets its record go when no view names it', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 3) });
    // The gallery alone names the tasks: the task list's search holds none of them.
    await act(async () => state().tasksSetSearch('no task says this'));
    await waitFor(() => expect(state().tasksIds).toEqual([]));
    const images = state().galleryRefs;
    okValue(
      await main.api.invoke('triage:apply', { images, change: { kind: 'rating', rating: 5 } }),
    );
    await act(async () => state().gallerySetFilters({ rating: 4 }));
    await waitFor(() => expect(state().galleryRefs).toHaveLength(3));
    const [first, ...rest] = images;
    okValue(
      await main.api.invoke('triage:apply', {
        images: [first!],
        change: { kind: 'rating', rating: 1 },
      }),
    );
    await waitFor(() => expect(state().galleryRefs.map(itemKey)).toEqual(rest.map(itemKey)));
    // No other view names the task: its record went with the image.
    expect(state().tasksIds).toEqual([]);
    expect(state().records.has(first!.localId)).toBe(false);
    expect(selectGalleryItems(state()).map((item) => item.image.rating)).toEqual([5, 5]);
  });
  it('reads the page loaded by position from the same records', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 4) });
    await act(() => state().galleryLoadAt(2, 2));
    expect(state().galleryJump?.refs).toEqual([2, 3].map((n) => ({ localId: id(n), index: 0 })));
    okValue(
      await main.api.invoke('triage:apply', {
        images: [{ localId: id(3), index: 0 }],
        change: { kind: 'rating', rating: 2 },
      }),
    );
    await waitFor(() => expect(selectGalleryJump(state())?.items[1]?.image.rating).toBe(2));
    expect(selectGalleryItems(state())[3]?.image).toBe(selectGalleryJump(state())?.items[1]?.image);
  });
});
