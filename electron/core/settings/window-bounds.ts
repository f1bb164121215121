/**
 * The main window's remembered place, and where to put it back when the screen it was on is gone
 * (a laptop undocked, a monitor unplugged, a resolution changed).
 */
import { z } from 'zod';

const coordinate = z.number().int().min(-100_000).max(100_000);
const extent = z.number().int().min(1).max(100_000);

export const windowBoundsSchema = z.object({
  x: coordinate,
  y: coordinate,
  width: extent,
  height: extent,
  /** Restore maximized; x/y/width/height are then the normal (unmaximized) bounds. */
  maximized: z.boolean(),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;

/** A rectangle in screen coordinates (Electron's Rectangle has this shape). */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The displays' work areas (screen minus menu bar, dock and taskbar). */
export interface ScreenLayout {
  readonly primary: Rect;
  readonly all: readonly Rect[];
}

/** Where to open the window. Without x/y Electron centres it on the primary display. */
export interface PlacedBounds {
  readonly x?: number;
  readonly y?: number;
  readonly width: number;
  readonly height: number;
  readonly maximized: boolean;
}

export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;
export const MIN_WINDOW_SIZE = { width: 640, height: 480 } as const;

/** The part of a window that must stay reachable to move it: its title bar. */
const TITLE_BAR_HEIGHT = 32;
const MIN_VISIBLE_WIDTH = 100;
const MIN_VISIBLE_HEIGHT = 16;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return { width: Math.max(0, width), height: Math.max(0, height) };
}

function contains(area: Rect, rect: Rect): boolean {
  return (
    rect.x >= area.x &&
    rect.y >= area.y &&
    rect.x + rect.width <= area.x + area.width &&
    rect.y + rect.height <= area.y + area.height
  );
}

/** The work area where the window's title bar is most visible, if it is visible enough anywhere. */
function homeArea(rect: Rect, areas: readonly Rect[]): Rect | null {
  const titleBar = { ...rect, height: Math.min(TITLE_BAR_HEIGHT, rect.height) };
  let best: Rect | null = null;
  let bestWidth = 0;
  for (const area of areas) {
    const seen = overlap(titleBar, area);
    const enough =
      seen.width >= Math.min(MIN_VISIBLE_WIDTH, rect.width) &&
      seen.height >= Math.min(MIN_VISIBLE_HEIGHT, titleBar.height);
    if (enough && seen.width > bestWidth) {
      best = area;
      bestWidth = seen.width;
    }
  }
  return best;
}

/** A size no smaller than the minimum and no larger than `area`. */
function fitSize(width: number, height: number, area: Rect): { width: number; height: number } {
  const fit = (value: number, minimum: number, room: number) =>
    Math.max(Math.min(value, room), Math.min(minimum, room));
  return {
    width: fit(width, MIN_WINDOW_SIZE.width, area.width),
    height: fit(height, MIN_WINDOW_SIZE.height, area.height),
  };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/**
 * Where to open the window: the saved bounds when they are fully on a display; pulled inside the
 * display that shows its title bar when partly off-screen; centred on the primary display when
 * the display it was on is gone. Sizes are kept between MIN_WINDOW_SIZE and the work area.
 */
export function visibleBounds(saved: WindowBounds | null, screen: ScreenLayout): PlacedBounds {
  if (saved === null) {
    return {
      ...fitSize(DEFAULT_WINDOW_SIZE.width, DEFAULT_WINDOW_SIZE.height, screen.primary),
      maximized: false,
    };
  }
  const { maximized } = saved;
  const home = homeArea(saved, screen.all);
  const area = home ?? screen.primary;
  const size = fitSize(saved.width, saved.height, area);
  if (home && contains(home, { ...saved, ...size }))
    return { x: saved.x, y: saved.y, ...size, maximized };
  if (home) {
    const x = clamp(saved.x, home.x, home.x + home.width - size.width);
    const y = clamp(saved.y, home.y, home.y + home.height - size.height);
    return { x, y, ...size, maximized };
  }
  const x = area.x + Math.floor((area.width - size.width) / 2);
  const y = area.y + Math.floor((area.height - size.height) / 2);
  return { x, y, ...size, maximized };
}
