import { useCallback, useEffect, useRef } from 'react';
import { announce } from '../../components/live-region';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { GalleryFilters } from '../../store/gallery-list-model';

/**
 * Changes the gallery's filters and, once the new list is in, says how many images it shows
 * (a screen reader otherwise hears nothing after typing a search).
 */
export function useFilterAnnouncement(): (patch: Partial<GalleryFilters>) => void {
  const pending = useRef(false);
  const status = useAppStore((s) => s.galleryStatus);
  const count = useAppStore((s) => s.galleryRefs.length);
  const hasMore = useAppStore((s) => s.galleryNextCursor !== null);

  const change = useCallback((patch: Partial<GalleryFilters>) => {
    pending.current = true;
    useAppStore.getState().gallerySetFilters(patch);
  }, []);

  useEffect(() => {
    if (status !== 'ready' || !pending.current) return;
    pending.current = false;
    announce(t(hasMore ? 'gallery.announce.loadedMore' : 'gallery.announce.loaded', { count }));
  }, [status, count, hasMore]);
  return change;
}
