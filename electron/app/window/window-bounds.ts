/**
 * The main window's remembered size and place. Saved bounds come from disk and may describe a
 * monitor that is gone, so they are checked against the displays present now before use.
 */
import type { WindowBounds } from '../../core/settings';

/** What is saved between runs, as stored (`WindowBounds`): `x`/`y` absent means "centre it". */
export type WindowState = Readonly<WindowBounds>;

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export const MIN_WINDOW_SIZE = { width: 800, height: 600 } as const;
export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;
/** How much of the window must lie on a display for the saved place to be kept. */
const MIN_VISIBLE = { width: 120, height: 60 } as const;

const finite = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

function clampSize(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(value, Math.max(min, max))));
}

/**
 * Saved state made safe for the displays present: size at least 800x600 and at most the work
 * area; the position kept only when enough of the window (with its title bar) lies on a
 * display, otherwise dropped so the window is centred. `workAreas[0]` is the primary display.
 */
export function fitWindowState(saved: unknown, workAreas: readonly Rect[]): WindowState {
  const state = (typeof saved === 'object' && saved !== null ? saved : {}) as Partial<WindowState>;
  const maximized = state.maximized === true;
  const primary = workAreas[0];
  const wanted = {
    width: finite(state.width) ? state.width : DEFAULT_WINDOW_SIZE.width,
    height: finite(state.height) ? state.height : DEFAULT_WINDOW_SIZE.height,
  };
  if (finite(state.x) && finite(state.y)) {
    const rect = { x: state.x, y: state.y, ...wanted };
    const home = workAreas.find((area) => {
      const seen = overlap(rect, area);
      return seen.width >= MIN_VISIBLE.width && seen.height >= MIN_VISIBLE.height;
    });
    if (home) {
      const width = clampSize(wanted.width, MIN_WINDOW_SIZE.width, home.width);
      const height = clampSize(wanted.height, MIN_WINDOW_SIZE.height, home.height);
      // The title bar must be reachable: never above the top of the work area.
      const y = Math.round(Math.max(state.y, home.y));
      return { x: Math.round(state.x), y, width, height, maximized };
    }
  }
  return {
    width: clampSize(wanted.width, MIN_WINDOW_SIZE.width, primary?.width ?? wanted.width),
    height: clampSize(wanted.height, MIN_WINDOW_SIZE.height, primary?.height ?? wanted.height),
    maximized,
  };
}
