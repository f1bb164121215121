import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { galleryCursorOf } from '../../../fakes/fake-pictor-api';
import { makeImage, makeTask } from '../../../support/task-records';
import {
  focusedKey,
  keyOf,
  renderGallery,
  scroller,
  scrollGrid,
  seedImages,
  tile,
} from './gallery-harness';

const ROW = 195;
const NEWEST = Date.UTC(2026, 0, 15, 12, 0, 0);
const rowTop = (row: number): number => 16 + row * ROW;

/** A new task with `count` saved images, newer than every seeded one, announced by event. */
function arrive(fake: FakePictorApi, count: number, localId = 'fresh'): void {
  fake.addTasks([
    makeTask({
      localId,
      createdAt: NEWEST + 60_000,
      prompt: 'Just arrived',
      images: Array.from({ length: count }, (_, index) => makeImage(index)),
    }),
  ]);
  act(() => {
    fake.updateTask(localId, {});
  });
}

const gridKeys = (): string[] =>
  screen.getAllByRole('gridcell').map((cell) => cell.dataset['key'] ?? '');

describe('live updates', () => {
  it('adds new images at the top when the user is at the top', async () => {
    const { fake } = await renderGallery({ events: true, prepare: (f) => seedImages(f, 50) });
    arrive(fake, 2);
    await waitFor(() => expect(gridKeys().slice(0, 3)).toEqual(['fresh/0', 'fresh/1', keyOf(0)]));
    expect(scroller().scrollTop).toBe(0);
    expect(screen.getAllByAltText('Just arrived')).toHaveLength(2);
  });

  it('keeps the focused tile focused and in place when images arrive above it', async () => {
    const { fake } = await renderGallery({ events: true, prepare: (f) => seedImages(f, 200) });
    scrollGrid(rowTop(10));
    // Row 10, column 2; three new images push it to row 11, column 0.
    act(() => tile(keyOf(52)).focus());
    arrive(fake, 3);
    await waitFor(() => expect(useAppStore.getState().galleryItems).toHaveLength(203));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(52)));
    expect(scroller().scrollTop).toBe(rowTop(11));
    expect(document.querySelectorAll('[role="gridcell"][tabindex="0"]')).toHaveLength(1);
  });

  it('keeps the images in view where they were when nothing is focused', async () => {
    const { fake } = await renderGallery({ events: true, prepare: (f) => seedImages(f, 200) });
    scrollGrid(rowTop(10) + 40);
    arrive(fake, 5);
    await waitFor(() => expect(useAppStore.getState().galleryItems).toHaveLength(205));
    // The first image in view (index 50) is now at 55: one row further down, and so is the view.
    expect(scroller().scrollTop).toBe(rowTop(11) + 40);
    expect(focusedKey()).toBeUndefined();
  });

  it('reloads the first page on gallery:changed and keeps the pages loaded after it', async () => {
    const { fake } = await renderGallery({ events: true, prepare: (f) => seedImages(f, 500) });
    scrollGrid(rowTop(40));
    await waitFor(() => expect(useAppStore.getState().galleryItems).toHaveLength(400));
    fake.addTasks([
      makeTask({
        localId: 'quiet',
        createdAt: NEWEST + 1,
        prompt: 'Rebuilt',
        images: [makeImage(0)],
      }),
    ]);
    const before = fake.callsTo('gallery:list').length;
    act(() => fake.emit('gallery:changed', { reason: 'rebuilt' }));
    await waitFor(() => expect(useAppStore.getState().galleryItems[0]?.localId).toBe('quiet'));
    expect(fake.callsTo('gallery:list')[before]).not.toHaveProperty('cursor');
    expect(useAppStore.getState().galleryItems).toHaveLength(401);
    // The next page still starts after the 400 images loaded before (the 400th of the 500 seeded).
    expect(useAppStore.getState().galleryNextCursor).toBe(
      galleryCursorOf(useAppStore.getState().galleryItems[400]!),
    );
  });

  it('updates a tile in place and removes the tiles of a removed task', async () => {
    const { fake } = await renderGallery({ events: true, prepare: (f) => seedImages(f, 20) });
    act(() => {
      fake.updateTask('seed-000003', {
        images: [makeImage(0, { state: 'expired', file: undefined, thumbnail: undefined })],
      });
    });
    await waitFor(() => expect(tile(keyOf(3)).textContent).toContain('Link expired'));
    await act(async () => {
      await window.pictor!.invoke('tasks:remove', { localId: 'seed-000004' });
    });
    await waitFor(() => expect(document.querySelector(`[data-key="${keyOf(4)}"]`)).toBeNull());
    expect(gridKeys()).toHaveLength(19);
  });
});
