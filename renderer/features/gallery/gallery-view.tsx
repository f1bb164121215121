import { useCallback, useEffect, useId, useState } from 'react';
import { ConfirmImageDelete } from './confirm-image-delete';
import { useShallow } from 'zustand/react/shallow';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ViewErrorBoundary } from '../../components/error-boundary';
import { ErrorMessage } from '../../components/error-message';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { GalleryBody } from './gallery-body';
import { GalleryFiltersBar } from './gallery-filters';
import { GalleryGrid } from './gallery-grid';
import { hasActiveFilters } from '../../store/gallery-list-model';
import { GalleryViewer } from './gallery-viewer';
import { useFilterAnnouncement } from './use-filter-announcement';
import { useGalleryViewer } from './use-gallery-viewer';
import type { FocusRequest } from './use-grid-focus';
import { useImageActions } from './use-image-actions';
import './gallery.css';

const store = useAppStore.getState;

/**
 * The gallery screen: filters, the virtualized grid of every image on this computer, and the
 * viewer. It reads only the local gallery, so it works the same with the network off.
 */
export function GalleryView() {
  const state = useAppStore(
    useShallow((s) => ({
      items: s.galleryItems,
      status: s.galleryStatus,
      error: s.galleryError,
      hasMore: s.galleryNextCursor !== null,
      loadingMore: s.galleryLoadingMore,
      filters: s.galleryFilters,
      models: s.galleryModels,
      shown: s.view === 'gallery',
    })),
  );
  const ids = useId();
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const [confirming, setConfirming] = useState<GalleryItem | null>(null);
  const { actions, problem, dismissProblem } = useImageActions();
  const onFiltersChange = useFilterAnnouncement();

  useEffect(() => {
    // Opening the gallery loads it the first time and brings it up to date afterwards.
    const { galleryStatus, galleryLoad, galleryRefresh } = store();
    void (galleryStatus === 'idle' ? galleryLoad() : galleryRefresh());
  }, []);

  const focusTile = useCallback((key: string) => {
    setActiveKey(key);
    setFocusRequest((previous) => ({ key, seq: (previous?.seq ?? 0) + 1 }));
  }, []);
  const viewer = useGalleryViewer(state.items, focusTile);
  const onLoadMore = useCallback(() => void store().galleryLoadMore(), []);
  const onOpen = useCallback((key: string) => store().galleryOpenViewer(key), []);
  const askDelete = useCallback((item: GalleryItem) => {
    if (item.image.state === 'saved') setConfirming(item);
  }, []);

  return (
    <section className="gallery" aria-labelledby={`${ids}-title`}>
      <header className="gallery__header">
        <div className="gallery__heading">
          <h1 id={`${ids}-title`} className="gallery__title">
            {t('gallery.title')}
          </h1>
          {state.status === 'ready' ? (
            <span className="gallery__count">
              {t(state.hasMore ? 'gallery.countMore' : 'gallery.count', {
                count: state.items.length,
              })}
            </span>
          ) : null}
        </div>
        <GalleryFiltersBar
          filters={state.filters}
          models={state.models}
          onChange={onFiltersChange}
          active={state.shown}
        />
      </header>
      {problem && !viewer.item ? (
        <div className="gallery__notice">
          <ErrorMessage
            message={problem.message}
            detail={problem.detail}
            onDismiss={dismissProblem}
          />
        </div>
      ) : null}
      <p id={`${ids}-help`} className="visually-hidden">
        {t('gallery.grid.help')}
      </p>
      <GalleryBody
        status={state.status}
        error={state.error}
        empty={state.items.length === 0}
        filtered={hasActiveFilters(state.filters)}
        onRetryLoad={() => void store().galleryLoad()}
      >
        <GalleryGrid
          items={state.items}
          hasMore={state.hasMore}
          loadingMore={state.loadingMore}
          activeKey={activeKey}
          onActiveChange={setActiveKey}
          focusRequest={focusRequest}
          onOpen={onOpen}
          onDelete={askDelete}
          onFavourite={actions.favourite}
          onRetry={actions.retry}
          onStartDrag={actions.startDrag}
          onLoadMore={onLoadMore}
          describedBy={`${ids}-help`}
        />
        {state.loadingMore ? (
          <div className="gallery__more">
            <Spinner /> {t('gallery.loadingMore')}
          </div>
        ) : null}
      </GalleryBody>
      {viewer.item ? (
        <ViewErrorBoundary>
          <GalleryViewer
            item={viewer.item}
            position={viewer.index}
            count={state.items.length}
            hasMore={state.hasMore}
            onNavigate={viewer.navigate}
            onClose={viewer.close}
            onDelete={askDelete}
            actions={actions}
            problem={problem}
            onDismissProblem={dismissProblem}
          />
        </ViewErrorBoundary>
      ) : null}
      <ConfirmImageDelete
        target={confirming}
        onDone={() => setConfirming(null)}
        remove={actions.remove}
      />
    </section>
  );
}
