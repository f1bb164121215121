import { useId, useRef, type KeyboardEvent, type RefObject } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ErrorMessage } from '../../components/error-message';
import { ViewerStatus } from '../../components/viewer-status';
import { t } from '../../i18n';
import type { Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { ImageActions } from './use-image-actions';
import { useElementSize } from './use-element-size';
import { ViewerDetails } from './viewer-details';
import { ViewerEdit } from './viewer-edit';
import { onViewerKey } from './viewer-keys';
import { triageIn } from './triage-run';
import { ViewerStage } from './viewer-stage';
import { ViewerToolbar, viewerNav } from './viewer-toolbar';
import './viewer.css';
import { FIT, actualSize, isZoomed, panBy, type ZoomState } from './zoom-pan';
import { useViewerFocus, useViewerZoom } from './use-viewer-zoom';
import { matchingCount, type MatchingCount } from './matching-count';

export interface GalleryViewerProps {
  readonly item: GalleryItem;
  /** 0-based position among the loaded images. */
  readonly position: number;
  /** Images loaded: the viewer moves among these. */
  readonly count: number;
  readonly hasMore: boolean;
  /** How many images the library holds for the filter, when main has counted them. */
  readonly total?: number | null;
  readonly onNavigate: (step: -1 | 1) => void;
  readonly onClose: () => void;
  readonly onDelete: (item: GalleryItem) => void;
  readonly actions: ImageActions;
  readonly problem: Problem | null;
  readonly onDismissProblem: () => void;
}

/** "Image 28 of 300" (or "of 200+" while the library's count is not known), 0-based `position`. */
export function positionOf(position: number, { count, more }: MatchingCount): string {
  return t(more ? 'viewer.positionMore' : 'viewer.position', { index: position + 1, count });
}

/** Fit (Ctrl/Cmd+0), 100 % (Ctrl/Cmd+1) and Z, which switches between the two. */
function zoomKeys(zoom: ZoomState, setZoom: (zoom: ZoomState) => void) {
  return {
    fit: () => setZoom(FIT),
    actual: () => setZoom(actualSize()),
    toggleZoom: () => setZoom(isZoomed(zoom) ? FIT : actualSize()),
  };
}

/**
 * The image viewer: a modal dialog over the gallery with the full image (zoom, pan), previous
 * and next, the image's details and actions. Escape closes it; the gallery then focuses the
 * tile of the image last shown.
 */
export function GalleryViewer(props: GalleryViewerProps) {
  const { item, position, count, hasMore, onNavigate, onClose } = props;
  const dialogRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const stageSize = useElementSize(stageRef);
  const titleId = useId();
  const sideRef = useRef<HTMLDivElement>(null);
  // Hidden or shown for every image, and kept for the next start.
  const detailsHidden = useAppStore((s) => s.galleryDisplay.detailsHidden);
  const toggleDetails = (): void => {
    if (!detailsHidden && sideRef.current?.contains(document.activeElement)) {
      stageRef.current?.focus({ preventScroll: true });
    }
    useAppStore.getState().gallerySetDisplay({ detailsHidden: !detailsHidden });
  };
  const view = useViewerZoom(item, stageSize);
  const { zoom, setZoom } = view;
  useViewerFocus(dialogRef, stageRef, view.key);
  const nav = viewerNav(position > 0, position < count - 1 || hasMore, onNavigate);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void =>
    onViewerKey(event, {
      dialog: dialogRef.current,
      onClose,
      toggleDetails,
      zoomed: isZoomed(zoom),
      pan: (dx, dy) => setZoom((current) => panBy(current, dx, dy, view.size, stageSize)),
      navigate: nav.go,
      zoomStep: view.zoomStep,
      ...zoomKeys(zoom, setZoom),
      remove: () => props.onDelete(item),
      triage: triageIn(item, () => nav.go(1)),
    });

  const positionText = positionOf(position, matchingCount(count, props.total ?? null, hasMore));
  return (
    <div className="viewer-backdrop">
      <div
        ref={dialogRef}
        className="viewer"
        role="dialog"
        aria-modal="true"
        aria-label={t('viewer.label')}
        onKeyDown={onKeyDown}
      >
        <ViewerToolbar
          position={positionText}
          view={view}
          nav={nav}
          onClose={onClose}
          details={{ hidden: detailsHidden, controls: `${titleId}-side`, onToggle: toggleDetails }}
        />
        <div className={detailsHidden ? 'viewer__body viewer__body--wide' : 'viewer__body'}>
          <ViewerStage
            item={item}
            stageRef={stageRef}
            stageSize={stageSize}
            view={view}
            onStartDrag={props.actions.startDrag}
            onRetry={props.actions.retry}
          />
          <ViewerSide
            sideRef={sideRef}
            id={`${titleId}-side`}
            hidden={detailsHidden}
            titleId={titleId}
            {...props}
          />
        </div>
        {/* The window's status area is under the viewer: this one says it here. */}
        <ViewerStatus />
      </div>
    </div>
  );
}

/** The image's details and actions beside it, and a failed action's message. */
function ViewerSide(
  props: GalleryViewerProps & {
    sideRef: RefObject<HTMLDivElement | null>;
    id: string;
    hidden: boolean;
    titleId: string;
  },
) {
  return (
    <div ref={props.sideRef} id={props.id} className="viewer__side" hidden={props.hidden}>
      {props.problem ? (
        <ErrorMessage
          message={props.problem.message}
          detail={props.problem.detail}
          onDismiss={props.onDismissProblem}
        />
      ) : null}
      <ViewerDetails
        item={props.item}
        actions={props.actions}
        onDelete={props.onDelete}
        titleId={props.titleId}
      />
      <ViewerEdit item={props.item} />
    </div>
  );
}
