/**
 * What a view shows is main's to say (electron/ipc/open-views.ts), over the app's real wiring
 * (gallery-wired.tsx): a task whose prompt holds the gallery's (and the task list's) search words
 * in another order joins both live, as main's own search finds it; an image that stops matching
 * the gallery's filters leaves it live. The page judges no filter or search itself.
 */
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems, selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { okValue } from '../../../support/ipc';
import { itemKey } from '../../../../renderer/store/gallery-list-model';
import { seedGallery, wiredGallery } from './gallery-wired';

/** Main's own handlers, history and engine, one runtime for the file. */
const renderWired = wiredGallery();

const galleryKeys = (): string[] => selectGalleryItems(useAppStore.getState()).map(itemKey);
const taskIds = (): string[] =>
  selectTaskItems(useAppStore.getState()).map((item) => item.record.localId);

describe('views decided by main', () => {
  it('shows live a task whose prompt holds the search words in another order', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 5) });
    await act(async () => {
      useAppStore.getState().gallerySetFilters({ search: 'fox red' });
      useAppStore.getState().tasksSetSearch('snow fox');
    });
    await waitFor(() => {
      const state = useAppStore.getState();
      expect(state.galleryStatus).toBe('ready');
      expect(selectGalleryItems(state)).toEqual([]);
      expect(state.tasksLoaded).toBe(true);
      expect(state.tasksIds).toEqual([]);
    });
    const [made] = await main.generate(['A red fox asleep in the snow']);
    const localId = made!.localId;
    await waitFor(() => expect(galleryKeys()).toEqual([`${localId}/0`]));
    await waitFor(() => expect(taskIds()).toEqual([localId]));
  });

  it('takes an image out of the gallery live when it stops matching the filters', async () => {
    const { main } = await renderWired({ events: true, prepare: (m) => seedGallery(m, 4) });
    const images = useAppStore.getState().galleryRefs;
    expect(images).toHaveLength(4);
    okValue(
      await main.api.invoke('triage:apply', { images, change: { kind: 'rating', rating: 5 } }),
    );
    await act(async () => useAppStore.getState().gallerySetFilters({ rating: 4 }));
    await waitFor(() => expect(galleryKeys()).toHaveLength(4));
    const [first, ...rest] = images;
    // Rated down by main's own handler: only its `tasks:updated` reaches the page.
    okValue(
      await main.api.invoke('triage:apply', {
        images: [first!],
        change: { kind: 'rating', rating: 1 },
      }),
    );
    await waitFor(() => expect(galleryKeys()).toEqual(rest.map(itemKey)));
    expect(selectGalleryItems(useAppStore.getState())[0]?.image.rating).toBe(5);
  });
});
