/**
 * The image with its mask over it: the source as an <img>, and over it a canvas of the source's
 * own size (scaled to fit by CSS) showing the mask half-transparent. A pointer's position is
 * mapped back through the canvas's shown rectangle, so a stroke lands on the source pixels under
 * it at any zoom. Mouse, pen and touch paint alike (pointer events, `touch-action: none`); a
 * pen's coalesced points are all used. A circle follows the pointer at the brush's shown size.
 */
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { t } from '../../../i18n';
import {
  COVERED,
  type MaskRaster,
  type MaskStroke,
  type MaskTool,
  type PixelRect,
} from '../../../lib/mask-raster';

/** The overlay's colour where the image is to be edited (RGBA, alpha half-transparent). */
const OVERLAY = [255, 48, 96, 140] as const;

export interface MaskCanvasProps {
  readonly source: { readonly url: string; readonly width: number; readonly height: number };
  readonly raster: MaskRaster;
  readonly tool: MaskTool;
  /** Brush size, in source pixels. */
  readonly size: number;
  /** Bumped by the editor after a change made elsewhere (undo, invert…): redraw all. */
  readonly version: number;
  /** A stroke ended that changed pixels. */
  onStroke(): void;
}

/** The painting surface of the mask editor. */
export function MaskCanvas(props: MaskCanvasProps) {
  const { source } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const { cursor, handlers } = usePainting(canvas, props);
  return (
    <div
      className="mask-canvas"
      style={{
        aspectRatio: `${source.width} / ${source.height}`,
        width: `min(100%, calc(70vh * ${source.width / source.height}))`,
      }}
    >
      <img className="mask-canvas__image" src={source.url} alt="" draggable={false} />
      <canvas
        ref={canvas}
        className="mask-canvas__overlay"
        width={source.width}
        height={source.height}
        role="img"
        tabIndex={0}
        aria-label={t('maskEditor.canvas')}
        {...handlers}
      />
      {cursor ? (
        <div
          className="mask-canvas__cursor"
          aria-hidden="true"
          style={{
            left: cursor.x,
            top: cursor.y,
            width: cursor.diameter,
            height: cursor.diameter,
          }}
        />
      ) : null}
    </div>
  );
}

/** Pointer painting on the overlay: a stroke per press, the cursor circle, the redraws. */
function usePainting(
  canvas: { readonly current: HTMLCanvasElement | null },
  { source, raster, tool, size, version, onStroke }: MaskCanvasProps,
) {
  const overlay = useOverlay(canvas);
  const stroke = useRef<MaskStroke | null>(null);
  const [cursor, setCursor] = useState<{ x: number; y: number; diameter: number } | null>(null);
  useEffect(() => overlay(raster, raster.bounds), [overlay, raster, version]);

  const place = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const scale = box.width > 0 ? box.width / source.width : 1;
    setCursor({ x: event.clientX - box.left, y: event.clientY - box.top, diameter: size * scale });
  };
  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0 || stroke.current) return;
    event.preventDefault();
    event.currentTarget.focus();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const [x, y] = sourceXY(event.currentTarget, event, source);
    stroke.current = raster.begin(tool, size, x, y);
    // The first stamp again (it changes nothing twice), for the rectangle to redraw.
    overlay(raster, stroke.current.to(x, y));
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    place(event);
    const current = stroke.current;
    if (!current) return;
    const points = event.nativeEvent.getCoalescedEvents?.() ?? [];
    for (const point of points.length > 0 ? points : [event]) {
      overlay(raster, current.to(...sourceXY(event.currentTarget, point, source)));
    }
  };
  const onPointerUp = () => {
    const current = stroke.current;
    stroke.current = null;
    if (current?.end()) onStroke();
  };
  const handlers = {
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onPointerCancel: onPointerUp,
    onLostPointerCapture: onPointerUp,
    onPointerLeave: () => setCursor(null),
  };
  return { cursor, handlers };
}

/** The source position under a pointer, in source pixels (pixel centres at .5). */
function sourceXY(
  element: HTMLElement,
  point: { clientX: number; clientY: number },
  source: { width: number; height: number },
): [number, number] {
  const box = element.getBoundingClientRect();
  const x = box.width > 0 ? ((point.clientX - box.left) * source.width) / box.width : 0;
  const y = box.height > 0 ? ((point.clientY - box.top) * source.height) / box.height : 0;
  return [x, y];
}

/**
 * Draws a rectangle of the mask onto the overlay canvas: one ImageData of the source's size is
 * kept, and only the changed rectangle is rewritten and put back (a stroke's segment, not the
 * whole image per pointer move). Without a 2D context (a test's DOM) it draws nothing.
 */
function useOverlay(canvas: {
  readonly current: HTMLCanvasElement | null;
}): (raster: MaskRaster, rect: PixelRect) => void {
  const pixels = useRef<ImageData | null>(null);
  const [draw] = useState(() => (raster: MaskRaster, rect: PixelRect) => {
    const context = canvas.current?.getContext('2d') ?? null;
    if (!context || rect.width <= 0 || rect.height <= 0) return;
    if (pixels.current?.width !== raster.width || pixels.current.height !== raster.height) {
      pixels.current = context.createImageData(raster.width, raster.height);
    }
    paintRect(raster, pixels.current.data, rect);
    context.putImageData(pixels.current, 0, 0, rect.x, rect.y, rect.width, rect.height);
  });
  return draw;
}

function paintRect(raster: MaskRaster, data: Uint8ClampedArray, rect: PixelRect): void {
  for (let y = rect.y; y < rect.y + rect.height; y += 1) {
    for (let x = rect.x; x < rect.x + rect.width; x += 1) {
      const pixel = y * raster.width + x;
      const on = raster.coverage[pixel] === COVERED;
      data.set(on ? OVERLAY : [0, 0, 0, 0], pixel * 4);
    }
  }
}
