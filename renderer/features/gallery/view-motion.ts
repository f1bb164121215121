/**
 * Whether the grid's view is moving too fast for its tiles to ask for their thumbnails. A
 * scrollbar dragged over a large gallery (or a jump by key: End, Home, a return to a place) moves
 * the view more than a screen a frame: each page it passes is drawn for a frame or two, and the
 * thumbnails its tiles asked for then would be answered by main and decoded by Chromium for
 * nobody, while the screen the hand stops at waits behind them on two cores. So from a drawing
 * more than a screen away from the last, the tiles hold their thumbnails (a blank pixel), and ask
 * at the first animation frame in which the view moved less than a screen: the frame after the
 * hand stops. (The page of images by position is not held: asked for at once it arrives a frame
 * sooner where the drag stops, which the screen waits for; use-grid-loading.ts.) Wheel, trackpad
 * and Page Down move a screen a frame or less: nothing is held, tiles ask as they come into view.
 * Frames, not a timer: the hold lasts as long as the movement, and one frame after it.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Where the view is now, in the grid's terms (use-grid-rows.ts's reading, set at each scroll). */
export interface ViewOffset {
  readonly scrollOffset: number | null;
}

/** The view's height and a row's, in the grid's terms. */
export interface ViewSize {
  readonly viewport: number;
  readonly row: number;
}

/**
 * False while the view moves more than a screen from one frame to the next, from the drawing
 * that jumped; true again at the first frame it moved less. `offset` is the view's offset as
 * drawn; `view` is read at each frame (a scroll sets it before the frame's callbacks). A screen
 * here is the view's height and a row: the grid is drawn anew only when a row comes or goes, so
 * the last drawing may lag the view by up to a row (Page Down's screen is no jump).
 */
export function useViewSettled(offset: number, size: ViewSize, view: ViewOffset): boolean {
  // Where the view was at the last drawing while settled, and at the last frame while moving.
  const seen = useRef(offset);
  const [moving, setMoving] = useState(false);
  const screen = size.viewport + size.row;
  // A hidden grid (0 high) has no screen to measure by: it never holds.
  const jumped = size.viewport > 0 && Math.abs(offset - seen.current) > screen;
  useLayoutEffect(() => {
    if (moving) return;
    seen.current = offset;
    // Before the paint: the tiles of the page jumped to were drawn held already.
    if (jumped) setMoving(true);
  }, [moving, jumped, offset]);
  useEffect(() => {
    if (!moving) return undefined;
    let frame = requestAnimationFrame(function tick() {
      const now = view.scrollOffset ?? 0;
      const moved = Math.abs(now - seen.current) > screen;
      seen.current = now;
      if (moved) frame = requestAnimationFrame(tick);
      else setMoving(false);
    });
    return () => cancelAnimationFrame(frame);
  }, [moving, screen, view]);
  return !(moving || jumped);
}
