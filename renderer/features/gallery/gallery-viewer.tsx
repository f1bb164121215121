import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import type { Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { ImageActions } from './use-image-actions';
import { useElementSize } from './use-element-size';
import { ViewerDetails } from './viewer-details';
import { StatusArea } from '../shell/status-area';
import { trapTab, viewerKey } from './viewer-keys';
import { ViewerStage } from './viewer-stage';
import { ViewerToolbar } from './viewer-toolbar';
import './viewer.css';
import {
  FIT,
  actualSize,
  currentScale,
  isZoomed,
  panBy,
  zoomBy,
  type Size,
  type ZoomState,
} from './zoom-pan';

export interface GalleryViewerProps {
  readonly item: GalleryItem;
  /** 0-based position among the loaded images. */
  readonly position: number;
  readonly count: number;
  readonly hasMore: boolean;
  readonly onNavigate: (step: -1 | 1) => void;
  readonly onClose: () => void;
  readonly onDelete: (item: GalleryItem) => void;
  readonly actions: ImageActions;
  readonly problem: Problem | null;
  readonly onDismissProblem: () => void;
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
  const [zoom, setZoom] = useState<ZoomState>(FIT);
  const recorded = recordedSize(item);
  const [loaded, setLoaded] = useState<{ key: string; size: Size } | null>(null);
  const key = `${item.localId}/${String(item.index)}`;
  const imageSize = recorded ?? (loaded?.key === key ? loaded.size : null);
  const size = imageSize ?? { width: 0, height: 0 };

  // Every image opens at "fit".
  useEffect(() => setZoom(FIT), [key]);
  useEffect(() => stageRef.current?.focus({ preventScroll: true }), []);
  // The focus stays in the viewer when the image changes under it (deleted, restored): a button
  // that became disabled or went away would otherwise drop it to the page.
  useEffect(() => {
    const dialog = dialogRef.current;
    const active = document.activeElement;
    if (dialog && (active === null || active === document.body || !document.contains(active))) {
      stageRef.current?.focus({ preventScroll: true });
    }
  }, [key]);

  const canPrevious = position > 0;
  const canNext = position < count - 1 || hasMore;
  const zoomStep = (factor: number): void =>
    setZoom((current) => zoomBy(current, factor, size, stageSize));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key === 'Tab') return trapTab(event, dialogRef.current);
    // Text fields keep their keys; arrows on a toolbar button still change image or pan.
    if ((event.target as HTMLElement).closest('input, select, textarea')) return;
    if (isUndoKey(event)) {
      event.preventDefault();
      return props.actions.undo();
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'i' || event.key === 'I') {
      event.preventDefault();
      return toggleDetails();
    }
    const handled = viewerKey(event.key, {
      zoomed: isZoomed(zoom),
      pan: (dx, dy) => setZoom((current) => panBy(current, dx, dy, size, stageSize)),
      navigate: (step) => {
        if (step < 0 ? canPrevious : canNext) onNavigate(step);
      },
      zoomStep,
      fit: () => setZoom(FIT),
      actual: () => setZoom(actualSize()),
      favourite: () => props.actions.favourite(item),
      remove: () => props.onDelete(item),
    });
    if (handled) event.preventDefault();
  };

  const percent = Math.round(currentScale(zoom, size, stageSize) * 100);
  const positionText = t(hasMore ? 'viewer.positionMore' : 'viewer.position', {
    index: position + 1,
    count,
  });
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
          percent={percent}
          zoom={zoom}
          onZoomStep={zoomStep}
          onZoom={setZoom}
          canPrevious={canPrevious}
          canNext={canNext}
          onNavigate={onNavigate}
          onClose={onClose}
          details={{ hidden: detailsHidden, controls: `${titleId}-side`, onToggle: toggleDetails }}
        />
        <div className={detailsHidden ? 'viewer__body viewer__body--wide' : 'viewer__body'}>
          <ViewerStage
            item={item}
            stageRef={stageRef}
            stageSize={stageSize}
            imageSize={imageSize}
            onImageSize={(natural) => setLoaded({ key, size: natural })}
            zoom={zoom}
            setZoom={setZoom}
            onStartDrag={props.actions.startDrag}
            onRetry={props.actions.retry}
          />
          <div ref={sideRef} id={`${titleId}-side`} className="viewer__side" hidden={detailsHidden}>
            {props.problem ? (
              <ErrorMessage
                message={props.problem.message}
                detail={props.problem.detail}
                onDismiss={props.onDismissProblem}
              />
            ) : null}
            <ViewerDetails
              item={item}
              actions={props.actions}
              onDelete={props.onDelete}
              titleId={titleId}
            />
          </div>
        </div>
        {/* The window's status area is under the viewer: this one says it here. */}
        <StatusArea placement="viewer" />
      </div>
    </div>
  );
}

/** Ctrl+Z (Cmd+Z on a Mac): undo the last delete. */
export function isUndoKey(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    !event.shiftKey &&
    !event.altKey &&
    event.key.toLowerCase() === 'z'
  );
}

function recordedSize(item: GalleryItem): Size | null {
  const { width, height } = item.image;
  return width !== undefined && height !== undefined ? { width, height } : null;
}
