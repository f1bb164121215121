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
  /**
   * As a delete of `gone` starts: the image that stays next to the first one going (after it,
   * else before it), or the grid itself.
   */
  readonly focusAfterDelete: (gone: ReadonlySet<string>) => void;
}

/**
 * Whether the focus may be moved for the user: it is nowhere (the page), in the gallery, or in
 * the status area (a Undo button that went away), not somewhere they moved it to meanwhile.
 */
function focusIsFree(section: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (active === null || active === document.body) return true;
  return Boolean(section?.contains(active) || active.closest('.status-area'));
}

/**
 * The grid's focus: an Undo gives it to the image that came back (or the grid, while it runs);
 * a delete gives it at once to the image that stays next to those going, or to the grid itself,
 * never to the page, where Ctrl/Cmd+Z and the arrows mean nothing.
 */
export function useGalleryFocus(section: RefObject<HTMLElement | null>): GalleryFocus {
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const focusTile = useCallback((key: string) => {
    setActiveKey(key);
    setFocusRequest((previous) => ({ key, seq: (previous?.seq ?? 0) + 1 }));
  }, []);
  const focusGrid = useCallback(
    () => section.current?.querySelector<HTMLElement>('[role="grid"]')?.focus(),
    [section],
  );
  const restored = useAppStore((s) => s.galleryRestored);
  useEffect(() => {
    if (restored === null || !focusIsFree(section.current)) return;
    const first = restored.keys.find((key) =>
      store().galleryRefs.some((item) => itemKey(item) === key),
    );
    if (first !== undefined) focusTile(first);
    else if (!section.current?.contains(document.activeElement)) focusGrid();
  }, [restored, focusTile, focusGrid, section]);
  const focusAfterDelete = useCallback(
    (gone: ReadonlySet<string>) => {
      const items = store().galleryRefs;
      const first = items.findIndex((item) => gone.has(itemKey(item)));
      const stays = (item: (typeof items)[number]) => !gone.has(itemKey(item));
      const next =
        first < 0
          ? undefined
          : (items.slice(first).find(stays) ?? items.slice(0, first).reverse().find(stays));
      if (next) focusTile(itemKey(next));
      else focusGrid();
    },
    [focusTile, focusGrid],
  );
  return { activeKey, setActiveKey, focusRequest, focusTile, focusAfterDelete };
}
