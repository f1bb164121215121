/**
 * The task list's box as it was last laid out in a window of this size: its content width and the
 * height of its viewport, kept in the window's localStorage. A virtual list knows which rows are in
 * view only once it is laid out. Without these, the first render with rows drew one row, the
 * list measured itself in that commit, and drew the rows in view in a second render React forced
 * before the frame, running first every effect the first render had left for after it (the
 * compose form's focus, the requests of the other screens): the cost of the first frame with rows
 * that the empty history's does not have. With them the first render draws the rows in view. The
 * list still measures itself in that commit and draws again at once when the box is not the one
 * remembered (another window size, a banner, a taller compose form), so the first frame shows the
 * rows in view either way.
 */
import { z } from 'zod';
import { readStored, writeStored } from '../lib/stored-value';

/** The list's content width and viewport height, in px; 0 for a part not known. */
export interface FeedBox {
  readonly width: number;
  readonly height: number;
}

const size = z.number().nonnegative().finite();
const storedSchema = z.object({
  windowWidth: size,
  windowHeight: size,
  width: size,
  height: size,
});
type Stored = z.infer<typeof storedSchema>;

const KEY = 'pictor.taskListBox';
const NONE: Stored = { windowWidth: 0, windowHeight: 0, width: 0, height: 0 };

/** The box remembered for a window of the size this one has now; zeros when there is none. */
export function rememberedFeedBox(): FeedBox {
  const stored = readStored(KEY, storedSchema, NONE);
  return stored.windowWidth === window.innerWidth && stored.windowHeight === window.innerHeight
    ? { width: stored.width, height: stored.height }
    : { width: 0, height: 0 };
}

/**
 * Keeps `part` of the box as just measured, for the next start in a window of this size. A part
 * that is 0 (the list hidden, not laid out) is not kept; the other part stays as it was measured
 * last (each is measured again whenever it changes).
 */
export function rememberFeedBox(part: Partial<FeedBox>): void {
  const known = readStored(KEY, storedSchema, NONE);
  const next: Stored = {
    windowWidth: window.innerWidth,
    windowHeight: window.innerHeight,
    width: part.width !== undefined && part.width > 0 ? part.width : known.width,
    height: part.height !== undefined && part.height > 0 ? part.height : known.height,
  };
  const same = (Object.keys(next) as (keyof Stored)[]).every((key) => next[key] === known[key]);
  if (!same) writeStored(KEY, next);
}
