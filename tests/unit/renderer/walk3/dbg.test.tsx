import { act, waitFor } from '@testing-library/react';
import { it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { renderGallery, seedImages, tile, keyOf } from '../gallery/gallery-harness';
it('dbg', async () => {
  await renderGallery({ prepare: (f) => seedImages(f, 300), events: true });
  const loaded = useAppStore.getState().galleryItems;
  const unsub = useAppStore.subscribe((s) => {
    if (s.galleryItems.length === 0)
      console.log(
        'EMPTY',
        s.galleryNextCursor,
        s.galleryStatus,
        s.galleryTotal,
        new Error().stack?.split('\n').slice(2, 9).join('\n'),
      );
  });
  await act(() => useAppStore.getState().galleryDeleteImages(loaded));
  await waitFor(() => tile(keyOf(200)));
  unsub();
});
