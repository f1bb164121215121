import {
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { imageUrl } from '../../lib/api';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { imageErrorText, t, type MessageKey } from '../../i18n';
import { canRetry } from '../../store/gallery-list-model';
import { tileState, type TileState } from './gallery-tile';
import type { ViewerZoom } from './use-viewer-zoom';
import { ZOOM_STEP, panBy, zoomBy, type Size } from './zoom-pan';

/** What the viewer shows instead of the image; a pending thumbnail does not stop it showing. */
type StageState = Exclude<TileState, 'thumbnailPending'>;

const STATE_SENTENCE: Record<Exclude<StageState, null>, MessageKey> = {
  downloading: 'viewer.state.pending',
  failed: 'viewer.state.failed',
  expired: 'viewer.state.expired',
  invalid: 'viewer.state.invalid',
  missing: 'viewer.state.missing',
};

export interface ViewerStageProps {
  readonly item: GalleryItem;
  readonly stageRef: RefObject<HTMLDivElement | null>;
  readonly stageSize: Size;
  readonly view: ViewerZoom;
  readonly onStartDrag: (item: GalleryItem) => void;
  readonly onRetry: (item: GalleryItem) => void;
}

/**
 * The full image, zoomed and panned: wheel zooms around the pointer, dragging pans a zoomed
 * image, and an image at "fit" can be dragged out to another app as a file.
 */
export function ViewerStage(props: ViewerStageProps) {
  const { item, stageRef, stageSize } = props;
  const { imageSize, zoom, setZoom, size, scale } = props.view;
  // Remembered per file: the stage stays mounted (and focused) from one image to the next.
  const [failedFile, setFailedFile] = useState<string | null>(null);
  const file = item.image.file;
  const tile = tileState(item, file !== undefined && failedFile === file);
  const state: StageState =
    file === undefined && item.image.state === 'saved'
      ? 'missing'
      : tile === 'thumbnailPending'
        ? null
        : tile;
  const pannable =
    zoom.mode === 'scale' &&
    (size.width * scale > stageSize.width || size.height * scale > stageSize.height);

  useWheelZoom(stageRef, (factor, anchor) =>
    setZoom((current) => zoomBy(current, factor, size, stageSize, anchor)),
  );
  const drag = useRef<{ x: number; y: number } | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (!pannable || event.button !== 0) return;
    drag.current = { x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    const last = drag.current;
    if (!last) return;
    drag.current = { x: event.clientX, y: event.clientY };
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    setZoom((current) => panBy(current, dx, dy, size, stageSize));
  };
  const endDrag = (): void => {
    drag.current = null;
  };
  const onDragStart = (event: DragEvent<HTMLImageElement>): void => {
    // The OS drag carries the real file; the page's own drag would carry a URL.
    event.preventDefault();
    props.onStartDrag(item);
  };

  const percent = Math.round(scale * 100);
  const x = zoom.mode === 'scale' ? zoom.x : 0;
  const y = zoom.mode === 'scale' ? zoom.y : 0;
  return (
    <div
      ref={stageRef}
      className={`viewer-stage${pannable ? ' viewer-stage--pannable' : ''}`}
      role="group"
      aria-label={t('viewer.stage', { percent })}
      tabIndex={0}
      data-scale={scale}
      data-x={x}
      data-y={y}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    >
      {state === null && item.image.file !== undefined ? (
        <img
          className={`viewer-stage__image${imageSize ? '' : ' viewer-stage__image--unsized'}`}
          src={imageUrl(item.image.file)}
          alt={item.prompt}
          decoding="async"
          draggable={!pannable}
          onDragStart={onDragStart}
          onLoad={(event) => {
            const image = event.currentTarget;
            if (!imageSize && image.naturalWidth > 0) {
              props.view.onImageSize({ width: image.naturalWidth, height: image.naturalHeight });
            }
          }}
          onError={() => setFailedFile(file ?? null)}
          style={
            imageSize
              ? {
                  width: size.width * scale,
                  height: size.height * scale,
                  transform: `translate(-50%, -50%) translate(${String(x)}px, ${String(y)}px)`,
                }
              : undefined
          }
        />
      ) : (
        <div className="viewer-stage__state">
          <ErrorMessage
            role="none"
            tone={state === 'downloading' ? 'warning' : 'error'}
            message={t(STATE_SENTENCE[state ?? 'missing'])}
            detail={item.image.error ? imageErrorText(item.image) : undefined}
            actions={
              canRetry(item) ? (
                <Button icon="retry" onClick={() => props.onRetry(item)}>
                  {t('viewer.retry')}
                </Button>
              ) : undefined
            }
          />
        </div>
      )}
    </div>
  );
}

/** Wheel zoom with a non-passive listener (React's wheel handler cannot prevent scrolling). */
function useWheelZoom(
  ref: RefObject<HTMLElement | null>,
  onZoom: (factor: number, anchor: { x: number; y: number }) => void,
): void {
  const latest = useRef(onZoom);
  latest.current = onZoom;
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const onWheel = (event: WheelEvent): void => {
      if (event.deltaY === 0) return;
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      const anchor = {
        x: event.clientX - rect.left - rect.width / 2,
        y: event.clientY - rect.top - rect.height / 2,
      };
      latest.current(event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, anchor);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [ref]);
}
