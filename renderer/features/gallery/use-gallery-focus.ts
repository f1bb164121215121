import { useCallback, useEffect, useState, type RefObject } from 'react';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';
import type { FocusRequest } from './use-grid-focus';

const store = useAppStore.getState;

/** Which tile of the grid is active, and the requests that move the focus to one. */
export interface GalleryFocus {
  readonly activeKey: string | null;
  readonly setActiveKey: (key: string | null) => void;
  readonly focusRequest: FocusRequest | null;
  /** Makes the tile active and gives it the focus. */
  readonly focusTile: (key: string) => void;
  /** After a delete whose first image was at `first`: the image now there, or the grid. */
  readonly focusAfterDelete: (first: number) => void;
}

/**
 * The grid's focus: an Undo gives it to the image that came back; after a delete it goes to the
 * image now where the first deleted one was, or to the grid itself, never to the page, where
 * Ctrl+Z and the arrows mean nothing.
 */
export function useGalleryFocus(section: RefObject<HTMLElement | null>): GalleryFocus {
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const focusTile = useCallback((key: string) => {
    setActiveKey(key);
    setFocusRequest((previous) => ({ key, seq: (previous?.seq ?? 0) + 1 }));
  }, []);
  const restored = useAppStore((s) => s.galleryRestored);
  useEffect(() => {
    const first = restored?.keys[0];
    if (first !== undefined) focusTile(first);
  }, [restored, focusTile]);
  const focusAfterDelete = useCallback(
    (first: number) => {
      const items = store().galleryItems;
      const next = items[Math.min(Math.max(0, first), items.length - 1)];
      if (next) focusTile(itemKey(next));
      else section.current?.querySelector<HTMLElement>('[role="grid"]')?.focus();
    },
    [focusTile, section],
  );
  return { activeKey, setActiveKey, focusRequest, focusTile, focusAfterDelete };
}
