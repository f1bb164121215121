import { useCallback, useEffect } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';

export interface GalleryViewerState {
  /** The image open in the viewer, if it is among the loaded ones. */
  readonly item: GalleryItem | undefined;
  readonly index: number;
  readonly navigate: (step: -1 | 1) => void;
  readonly close: () => void;
}

/**
 * Which image the viewer shows and how it moves: previous/next walk the loaded images (loading
 * the next page near the end), closing hands the focus to that image's tile, and an image that
 * disappears (its task removed elsewhere) closes the viewer.
 */
export function useGalleryViewer(
  items: readonly GalleryItem[],
  focusTile: (key: string) => void,
): GalleryViewerState {
  const viewerKey = useAppStore((s) => s.galleryViewerKey);
  const ready = useAppStore((s) => s.galleryStatus === 'ready');
  const index = viewerKey === null ? -1 : items.findIndex((item) => itemKey(item) === viewerKey);
  const item = index >= 0 ? items[index] : undefined;

  const close = useCallback(() => {
    const { galleryViewerKey, galleryCloseViewer } = useAppStore.getState();
    galleryCloseViewer();
    if (galleryViewerKey !== null) focusTile(galleryViewerKey);
  }, [focusTile]);

  const gone = viewerKey !== null && item === undefined && ready;
  useEffect(() => {
    if (gone) useAppStore.getState().galleryCloseViewer();
  }, [gone]);

  const navigate = (step: -1 | 1): void => {
    const state = useAppStore.getState();
    const next = items[index + step];
    if (next) state.galleryOpenViewer(itemKey(next));
    if (step > 0 && index + 2 >= items.length) void state.galleryLoadMore();
  };
  return { item, index, navigate, close };
}
