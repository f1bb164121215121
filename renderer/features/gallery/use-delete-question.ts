/**
 * The gallery's questions before a delete: one image (the viewer's Delete, a tile outside the
 * selection) or the selection. Delete on a tile, or the tile menu's "Move to trash", of an image
 * that is part of a selection of several asks about the whole selection, as the selection bar's
 * button does: the keyboard user's Delete means what is selected, not only the tile it is on.
 */
import { useCallback, useState } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { isSelected } from '../../lib/selection';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';
import type { ImageRef } from '../../store/gallery-trash-slice';
import type { GallerySelectionState } from './gallery-selection-state';

export interface DeleteQuestion {
  /** The one image asked about, or null. */
  readonly image: GalleryItem | null;
  /** The selected images asked about (the selection bar asks), or null. */
  readonly many: ImageRef[] | null;
  readonly setMany: (refs: ImageRef[] | null) => void;
  /** Asks about this image alone (the viewer). */
  readonly askImage: (item: GalleryItem) => void;
  /** Asks about the selection when the tile is in one of several, else about the tile's image. */
  readonly askTile: (item: GalleryItem) => void;
  /** The question was answered, either way. */
  readonly done: () => void;
}

export function useDeleteQuestion(
  selection: Pick<GallerySelectionState, 'selection' | 'count' | 'refs'>,
): DeleteQuestion {
  const [image, setImage] = useState<GalleryItem | null>(null);
  const [many, setMany] = useState<ImageRef[] | null>(null);
  const askImage = useCallback((item: GalleryItem) => {
    if (item.image.state === 'saved') setImage(item);
  }, []);
  const { selection: selected, count, refs } = selection;
  const askTile = useCallback(
    (item: GalleryItem) => {
      if (count < 2 || !isSelected(selected, itemKey(item))) return askImage(item);
      // The exact images first: the question names how many will go.
      refs(['saved']).then(setMany, (error: unknown) => useAppStore.getState().showError(error));
    },
    [askImage, count, selected, refs],
  );
  const done = useCallback(() => setImage(null), []);
  return { image, many, setMany, askImage, askTile, done };
}
