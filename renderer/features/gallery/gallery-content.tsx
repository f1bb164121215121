/** The gallery screen's state from the store, and its grid inside the loading and empty states. */
import { useCallback } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { selectGalleryItems, selectGalleryJump } from '../../store/record-selectors';
import { MIN_TILE_OF } from '../../store/gallery-display';
import { hasActiveFilters } from '../../store/gallery-list-model';
import { FilterNotice } from './filter-notice';
import { GalleryBody } from './gallery-body';
import type { MenuRequest } from './gallery-context-menu';
import { GalleryGrid } from './gallery-grid';
import type { GallerySelectionState } from './gallery-selection-state';
import type { GalleryFocus } from './use-gallery-focus';
import type { ImageActions } from './use-image-actions';
import { useGridTriage } from './triage-run';
import { useDragToBoards } from './board-drop';

const store = useAppStore.getState;

export function useGalleryState() {
  return useAppStore(
    useShallow((s) => ({
      items: selectGalleryItems(s),
      status: s.galleryStatus,
      error: s.galleryError,
      hasMore: s.galleryNextCursor !== null,
      loadingMore: s.galleryLoadingMore,
      filters: s.galleryFilters,
      models: s.galleryModels,
      shown: s.view === 'gallery',
      total: s.galleryTotal,
      jump: selectGalleryJump(s),
      jumpLoading: s.galleryJumpLoading,
      display: s.galleryDisplay,
      trashBusy: s.galleryTrashBusy > 0,
    })),
  );
}

export type GalleryState = ReturnType<typeof useGalleryState>;

interface GalleryContentProps {
  readonly state: GalleryState;
  readonly focus: GalleryFocus;
  readonly actions: ImageActions;
  readonly selection: GallerySelectionState;
  /** What a tile's Enter or click, its Delete and its context menu do. */
  readonly tile: {
    readonly onOpen: (key: string) => void;
    readonly onDelete: (item: GalleryItem) => void;
    readonly onMenu: (request: MenuRequest) => void;
  };
  /** The id of the grid's keyboard help. */
  readonly helpId: string;
}

/** The grid, or why there is none (loading, failed, empty, nothing matches). */
export function GalleryContent(props: GalleryContentProps) {
  const { state, focus, actions, selection } = props;
  const onLoadAt = useCallback(
    (offset: number, limit: number, keep: string | null) =>
      void store().galleryLoadAt(offset, limit, keep),
    [],
  );
  const onLoadMore = useCallback(() => void store().galleryLoadMore(), []);
  const onTriage = useGridTriage(selection);
  const onStartDrag = useDragToBoards(selection, actions.startDrag);
  // Nothing loaded is not an empty gallery while more images remain (a delete of every loaded
  // image): the grid loads them.
  const empty = state.items.length === 0 && !state.hasMore;
  return (
    <>
      <FilterNotice filters={state.filters} count={state.total} />
      <GalleryBody
        status={state.status}
        error={state.error}
        empty={empty}
        updating={empty && (state.trashBusy || (state.total ?? 0) > 0)}
        filtered={hasActiveFilters(state.filters)}
        onRetryLoad={() => void store().galleryLoad()}
      >
        <GalleryGrid
          items={state.items}
          hasMore={state.hasMore}
          loadingMore={state.loadingMore}
          activeKey={focus.activeKey}
          onActiveChange={focus.setActiveKey}
          focusRequest={focus.focusRequest}
          onOpen={props.tile.onOpen}
          onDelete={props.tile.onDelete}
          onTriage={onTriage}
          onRetry={actions.retry}
          onStartDrag={onStartDrag}
          onLoadMore={onLoadMore}
          describedBy={props.helpId}
          total={state.total}
          jump={state.jump}
          jumpLoading={state.jumpLoading}
          onLoadAt={onLoadAt}
          minTile={MIN_TILE_OF[state.display.thumbnailSize]}
          uncropped={state.display.uncropped}
          onMenu={props.tile.onMenu}
          selection={selection.selection}
          onSelect={selection.onSelect}
          onExtend={selection.onExtend}
        />
        {state.loadingMore ? (
          <div className="gallery__more">
            <Spinner /> {t('gallery.loadingMore')}
          </div>
        ) : null}
      </GalleryBody>
    </>
  );
}
