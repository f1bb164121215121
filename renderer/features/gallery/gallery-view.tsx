import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ConfirmImageDelete } from './confirm-image-delete';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ViewErrorBoundary } from '../../components/error-boundary';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { GalleryContextMenu, type MenuRequest } from './gallery-context-menu';
import { GalleryHeader } from './gallery-header';
import { itemKey } from '../../store/gallery-list-model';
import { GalleryContent, useGalleryState } from './gallery-content';
import { GalleryViewer, type GalleryViewerProps } from './gallery-viewer';
import { useFilterAnnouncement } from './use-filter-announcement';
import { useGalleryViewer, type GalleryViewerState } from './use-gallery-viewer';
import { useGalleryFocus } from './use-gallery-focus';
import { useImageActions } from './use-image-actions';
import { SelectionToolbar, useGallerySelection } from './gallery-selection';
import { useDeleteQuestion } from './use-delete-question';
import { KeyboardHelp } from './keyboard-help';
import { TriageLayer } from './triage-layer';
import { BoardsSidebar } from './boards-sidebar';
import { TriageDialogs } from './triage-dialogs';
import './gallery.css';

const store = useAppStore.getState;

/** The viewer over the gallery; a viewer that throws leaves the gallery working. */
function ViewerLayer({
  viewer,
  ...props
}: Omit<GalleryViewerProps, 'item' | 'onNavigate' | 'onClose' | 'total'> & {
  viewer: GalleryViewerState & { item: GalleryItem };
}) {
  // The library's count for the filter: the position is said of it, not of the pages loaded.
  const total = useAppStore((s) => s.galleryTotal);
  return (
    <ViewErrorBoundary>
      <GalleryViewer
        item={viewer.item}
        total={total}
        onNavigate={viewer.navigate}
        onClose={viewer.close}
        {...props}
      />
    </ViewErrorBoundary>
  );
}

/** Opening the gallery loads it the first time and brings it up to date afterwards. */
function useGalleryOpened(): void {
  useEffect(() => {
    const { galleryStatus, galleryLoad, galleryRefresh } = store();
    void (galleryStatus === 'idle' ? galleryLoad() : galleryRefresh());
  }, []);
}

/**
 * The gallery screen: the boards sidebar beside the gallery, and the dialogs the triage keys open.
 */
export function GalleryView() {
  const filters = useAppStore((s) => s.galleryFilters);
  const onFiltersChange = useFilterAnnouncement();
  return (
    <div className="gallery-frame">
      <BoardsSidebar filters={filters} onFiltersChange={onFiltersChange} />
      <GallerySection />
      <TriageDialogs />
    </div>
  );
}

/**
 * The gallery: filters, the virtualized grid of every image on this computer, and the viewer. It
 * reads only the local gallery, so it works the same with the network off.
 */
function GallerySection() {
  const state = useGalleryState();
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const ids = useId();
  const { actions, problem, dismissProblem } = useImageActions();
  const selection = useGallerySelection(state.items, state.filters, state.total);
  const question = useDeleteQuestion(selection);
  const sectionRef = useRef<HTMLElement>(null);
  const onFiltersChange = useFilterAnnouncement();

  useGalleryOpened();
  const focus = useGalleryFocus(sectionRef);

  // An image opened from a page loaded by position is shown among that page's images.
  const viewerKey = useAppStore((s) => s.galleryViewerKey);
  const jumpItems = state.jump?.items.some((item) => itemKey(item) === viewerKey)
    ? state.jump.items
    : null;
  const fromJump = jumpItems !== null;
  const viewer = useGalleryViewer(jumpItems ?? state.items, focus.focusTile);
  const viewerBase = fromJump ? (state.jump?.offset ?? 0) : 0;
  const onOpen = useCallback((key: string) => store().galleryOpenViewer(key), []);

  return (
    // Ctrl/Cmd+A and Escape on the grid (see gallery-selection.tsx).
    <section
      ref={sectionRef}
      className="gallery"
      aria-labelledby={`${ids}-title`}
      onKeyDown={selection.onKeyDown}
    >
      <GalleryHeader
        titleId={`${ids}-title`}
        status={state.status}
        loaded={state.items.length}
        total={state.total}
        hasMore={state.hasMore}
        selection={selection}
        filters={state.filters}
        models={state.models}
        onFiltersChange={onFiltersChange}
        shown={state.shown}
      />
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
        {t('gallery.grid.help')} {t('gallery.grid.menuHelp')} {t('gallery.grid.selectHelp')}
      </p>
      <GalleryContent
        state={state}
        focus={focus}
        actions={actions}
        selection={selection}
        tile={{ onOpen, onDelete: question.askTile, onMenu: setMenu }}
        helpId={`${ids}-help`}
      />
      <SelectionToolbar
        selection={selection}
        focusAfterDelete={focus.focusAfterDelete}
        total={state.total}
        question={question}
      />
      {viewer.item ? (
        <ViewerLayer
          viewer={{ ...viewer, item: viewer.item }}
          position={viewerBase + viewer.index}
          count={fromJump ? (state.total ?? state.items.length) : state.items.length}
          hasMore={fromJump ? false : state.hasMore}
          onDelete={question.askImage}
          actions={actions}
          problem={problem}
          onDismissProblem={dismissProblem}
        />
      ) : null}
      <GalleryContextMenu
        request={menu}
        onClose={closeMenu}
        onOpen={onOpen}
        onDelete={question.askTile}
        actions={actions}
      />
      <ConfirmImageDelete target={question.image} onDone={question.done} remove={actions.remove} />
      <TriageLayer items={state.items} focus={focus} />
      <KeyboardHelp />
    </section>
  );
}
