/**
 * The viewer's zoom and pan as pure state transitions. "Fit" follows the window; any zoom
 * step switches to an explicit scale with an offset of the image centre from the stage centre.
 */

export const MIN_SCALE = 0.1;
export const MAX_SCALE = 8;
/** One +/− step or wheel notch multiplies the scale by this. */
export const ZOOM_STEP = 1.25;
/** How far one arrow key press pans (CSS pixels). */
const PAN_STEP = 48;
/** Space kept around an image shown at "fit" (CSS pixels, each side). */
const FIT_MARGIN = 16;

export type ZoomState =
  | { readonly mode: 'fit' }
  | { readonly mode: 'scale'; readonly scale: number; readonly x: number; readonly y: number };

export const FIT: ZoomState = { mode: 'fit' };

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The scale that shows the whole image in the stage with a margin, never past 100 %. */
export function fitScale(image: Size, stage: Size): number {
  const width = stage.width - FIT_MARGIN * 2;
  const height = stage.height - FIT_MARGIN * 2;
  if (image.width <= 0 || image.height <= 0 || width <= 0 || height <= 0) return 1;
  return Math.min(1, width / image.width, height / image.height);
}

export function currentScale(state: ZoomState, image: Size, stage: Size): number {
  return state.mode === 'fit' ? fitScale(image, stage) : state.scale;
}

/** Zoomed means anything but "fit": the arrow keys pan instead of changing image. */
export function isZoomed(state: ZoomState): boolean {
  return state.mode !== 'fit';
}

function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** Keeps the image from being dragged out of sight: it may move only as far as it overflows. */
function clampOffset(
  scale: number,
  x: number,
  y: number,
  image: Size,
  stage: Size,
): { x: number; y: number } {
  const limitX = Math.max(0, (image.width * scale - stage.width) / 2);
  const limitY = Math.max(0, (image.height * scale - stage.height) / 2);
  return {
    x: Math.min(limitX, Math.max(-limitX, x)),
    y: Math.min(limitY, Math.max(-limitY, y)),
  };
}

/**
 * Multiplies the scale by `factor`, keeping the image point under `anchor` (relative to the
 * stage centre; default the centre itself) where it is.
 */
export function zoomBy(
  state: ZoomState,
  factor: number,
  image: Size,
  stage: Size,
  anchor: { x: number; y: number } = { x: 0, y: 0 },
): ZoomState {
  const scale = currentScale(state, image, stage);
  const next = clampScale(scale * factor);
  const x0 = state.mode === 'scale' ? state.x : 0;
  const y0 = state.mode === 'scale' ? state.y : 0;
  const ratio = next / scale;
  const offset = clampOffset(
    next,
    anchor.x - (anchor.x - x0) * ratio,
    anchor.y - (anchor.y - y0) * ratio,
    image,
    stage,
  );
  return { mode: 'scale', scale: next, ...offset };
}

/** 100 %: one image pixel per CSS pixel, centred. */
export function actualSize(): ZoomState {
  return { mode: 'scale', scale: 1, x: 0, y: 0 };
}

/** Moves a zoomed image by (dx, dy); "fit" does not pan. */
export function panBy(
  state: ZoomState,
  dx: number,
  dy: number,
  image: Size,
  stage: Size,
): ZoomState {
  if (state.mode === 'fit') return state;
  return { ...state, ...clampOffset(state.scale, state.x + dx, state.y + dy, image, stage) };
}

/** The pan an arrow key asks for, or null for other keys. */
export function panForKey(key: string): { dx: number; dy: number } | null {
  switch (key) {
    case 'ArrowLeft':
      return { dx: PAN_STEP, dy: 0 };
    case 'ArrowRight':
      return { dx: -PAN_STEP, dy: 0 };
    case 'ArrowUp':
      return { dx: 0, dy: PAN_STEP };
    case 'ArrowDown':
      return { dx: 0, dy: -PAN_STEP };
    default:
      return null;
  }
}
