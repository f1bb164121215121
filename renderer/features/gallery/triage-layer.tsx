/**
 * The Triage view over the gallery while the store says it is open: on the image asked for, or
 * else the grid's focused tile (or the first image); closing it focuses that image's tile.
 */
import { useEffect } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ViewErrorBoundary } from '../../components/error-boundary';
import { useAppStore } from '../../store/app-store';
import { itemKey } from '../../store/gallery-list-model';
import { TriageView } from './triage-view';
import type { GalleryFocus } from './use-gallery-focus';

export function TriageLayer(props: {
  items: readonly GalleryItem[];
  focus: Pick<GalleryFocus, 'activeKey' | 'focusTile'>;
}) {
  const open = useAppStore((s) => s.triageViewOpen);
  const key = useAppStore((s) => s.triageViewKey);
  const { items, focus } = props;
  const first = items[0];
  const wanted = key ?? focus.activeKey ?? (first ? itemKey(first) : null);
  useEffect(() => {
    if (open && key === null && wanted !== null) useAppStore.getState().triageShowView(wanted);
  }, [open, key, wanted]);
  if (!open) return null;
  return (
    <ViewErrorBoundary>
      <TriageView
        items={items}
        onClosed={(closed) => {
          if (closed !== null) focus.focusTile(closed);
        }}
      />
    </ViewErrorBoundary>
  );
}
