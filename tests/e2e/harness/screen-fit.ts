/**
 * Whether the journeys' window fits the screen, said as a sentence, and the largest mode a Mac's
 * screen offers (from `displayplacer list`). Pure: the Electron host (electron-host.ts) and the
 * macOS display step (tests/e2e/packaged/mac-display.ts) use it; unit-tested in
 * tests/unit/e2e/screen-fit.test.ts. A window is never larger than its screen's work area (the
 * screen less the menu bar, dock or task bar): virtual Intel Macs have had 1176x694 screens.
 */

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The largest content size a journey asks for (app-types.ts' DEFAULT_VIEWPORT). */
export const LARGEST_JOURNEY_WINDOW: Size = { width: 1280, height: 800 };

/** Room for a window's title bar above its content (macOS: 28 points; Windows about 31). */
export const TITLE_BAR = 32;

/** What the runner's step sets the screen with, per OS: named in the sentence. */
function remedy(platform: NodeJS.Platform): string {
  if (platform === 'win32') return ' (on a Windows runner: npm run ci:windows-display)';
  if (platform === 'darwin') return ' (on a macOS runner: npm run ci:mac-display)';
  return ' (under xvfb-run: a larger -s "-screen 0 1920x1080x24")';
}

/**
 * Why the window did not get its size, or null when it did: the screen's work area is named, so a
 * failure caused by the runner's screen reads as that, not as a layout fault.
 */
export function windowSizeProblem(
  got: Size,
  wanted: Size,
  workArea: Size,
  platform: NodeJS.Platform,
): string | null {
  if (got.width === wanted.width && got.height === wanted.height) return null;
  const fits = wanted.width <= workArea.width && wanted.height + TITLE_BAR <= workArea.height;
  const base = `The window is ${got.width}x${got.height}, not ${wanted.width}x${wanted.height}`;
  return fits
    ? `${base}, though the screen's work area (${workArea.width}x${workArea.height}) has room for it.`
    : `${base}: the screen's work area is ${workArea.width}x${workArea.height}, too small for the journeys' window${remedy(platform)}.`;
}

/** Whether a work area holds the largest journey window with its title bar. */
export function screenFitsJourneys(workArea: Size): boolean {
  return (
    workArea.width >= LARGEST_JOURNEY_WINDOW.width &&
    workArea.height >= LARGEST_JOURNEY_WINDOW.height + TITLE_BAR
  );
}

export interface DisplayMode extends Size {
  /** displayplacer's persistent screen id. */
  readonly id: string;
  readonly mode: number;
}

/**
 * The main screen's largest mode (by area) in `displayplacer list`'s text: the first screen
 * listed, its `mode N: res:WxH …` lines. Null when the text lists none.
 */
export function largestDisplayMode(list: string): DisplayMode | null {
  const screens = list.split(/^Persistent screen id: /m).slice(1);
  const first = screens[0];
  if (first === undefined) return null;
  const id = first.split('\n')[0]?.trim() ?? '';
  let best: DisplayMode | null = null;
  for (const match of first.matchAll(/^\s*mode (\d+): res:(\d+)x(\d+)/gm)) {
    const mode = { id, mode: Number(match[1]), width: Number(match[2]), height: Number(match[3]) };
    if (!best || mode.width * mode.height > best.width * best.height) best = mode;
  }
  return id === '' ? null : best;
}
