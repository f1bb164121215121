/**
 * The gallery's live updates over the app's real wiring (gallery-wired.tsx): new images from the
 * real engine on the demo service or from main's task updates, `gallery:changed` reloading from
 * main's own history, a tile changed in place and a task removed by main's own handler.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { makeImage, makeTask } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { focusedKey, keyOf, scroller, scrollGrid, tile } from './gallery-harness';
import { seedGallery, seedLargeGallery, wiredGallery } from './gallery-wired';

/** Main's own handlers, history and engine, one runtime for the file. */
const renderWired = wiredGallery();

const ROW = 195;
const NEWEST = Date.UTC(2026, 0, 15, 12, 0, 0);
const rowTop = (row: number): number => 16 + row * ROW;

/**
 * A new task with `count` saved images, newer than every seeded one, written to main's history
 * and sent to the page as main's task updates send a change.
 */
async function arrive(main: WiredApi, count: number, localId = 'fresh'): Promise<void> {
  const record = makeTask({
    localId,
    createdAt: NEWEST + 60_000,
    prompt: 'Just arrived',
    images: Array.from({ length: count }, (_, index) => makeImage(index)),
  });
  main.runtime.core.history.put(record);
  await act(async () => main.send('tasks:updated', [{ change: 'task', record, live: null }]));
}

/** Images without files behind them: the grid shows them by address, which jsdom does not load. */
const seedImages = (main: WiredApi, count: number): void =>
  seedLargeGallery(main, count, () => false);

const gridKeys = (): string[] =>
  screen.getAllByRole('gridcell').map((cell) => cell.dataset['key'] ?? '');

describe('live updates', () => {
  it('adds new images at the top when the user is at the top', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 50) });
    // Two tasks made by the real engine on the demo service (today: newer than every seeded one).
    const [first, second] = await main.generate(['Just arrived', 'Just arrived']);
    const made = [second!, first!].map((record) => `${record.localId}/0`);
    await waitFor(() => expect(gridKeys().slice(0, 3)).toEqual([...made, keyOf(0)]));
    expect(scroller().scrollTop).toBe(0);
    // Both tiles show their picture once the page has heard of the saved images, which may trail
    // main's history (what generate waits on) by an event on a loaded machine.
    await waitFor(() => expect(screen.getAllByAltText('Just arrived')).toHaveLength(2));
  });

  it('keeps the focused tile focused and in place when images arrive above it', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedImages(m, 200) });
    scrollGrid(rowTop(10));
    // Row 10, column 2; three new images push it to row 11, column 0.
    act(() => tile(keyOf(52)).focus());
    await arrive(main, 3);
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(203));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(52)));
    expect(scroller().scrollTop).toBe(rowTop(11));
    expect(document.querySelectorAll('[role="gridcell"][tabindex="0"]')).toHaveLength(1);
  });

  it('keeps the images in view where they were when nothing is focused', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedImages(m, 200) });
    scrollGrid(rowTop(10) + 40);
    await arrive(main, 5);
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(205));
    // The first image in view (index 50) is now at 55: one row further down, and so is the view.
    expect(scroller().scrollTop).toBe(rowTop(11) + 40);
    expect(focusedKey()).toBeUndefined();
  });

  it('reloads the first page on gallery:changed and keeps the pages loaded after it', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedImages(m, 500) });
    scrollGrid(rowTop(40));
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(400));
    main.runtime.core.history.put(
      makeTask({
        localId: 'quiet',
        createdAt: NEWEST + 1,
        prompt: 'Rebuilt',
        images: [makeImage(0)],
      }),
    );
    const before = main.callsTo('gallery:list').length;
    act(() => main.send('gallery:changed', { reason: 'rebuilt' }));
    await waitFor(() =>
      expect(selectGalleryItems(useAppStore.getState())[0]?.localId).toBe('quiet'),
    );
    const reload = main.callsTo('gallery:list')[before]!;
    expect(reload).not.toHaveProperty('cursor');
    const state = useAppStore.getState();
    expect(selectGalleryItems(state)).toHaveLength(401);
    expect(selectGalleryItems(state)[400]?.prompt).toBe('Prompt number 399');
    // The next page, asked of main with the page's cursor, starts right after the 400 seeded
    // images loaded before: no gap, no repeat.
    const next = await main.api.invoke('gallery:list', {
      ...reload,
      cursor: state.galleryNextCursor!,
    });
    expect(next.ok && next.value.items[0]?.prompt).toBe('Prompt number 400');
  });

  it('updates a tile in place and removes the tiles of a removed task', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 20) });
    const { history } = main.runtime.core;
    const changed = {
      ...history.get('seed-000003')!,
      images: [makeImage(0, { state: 'expired', file: undefined, thumbnail: undefined })],
      updatedAt: Date.now(),
    };
    history.put(changed);
    await act(async () =>
      main.send('tasks:updated', [{ change: 'task', record: changed, live: null }]),
    );
    await waitFor(() => expect(tile(keyOf(3)).textContent).toContain('Link expired'));
    // Main's own remove: its task updates tell the page the task went.
    await act(async () => {
      await window.pictor!.invoke('tasks:remove', { localId: 'seed-000004' });
    });
    await waitFor(() => expect(document.querySelector(`[data-key="${keyOf(4)}"]`)).toBeNull());
    expect(gridKeys()).toHaveLength(19);
    expect(history.get('seed-000004')).toBeUndefined();
  });
});
