/**
 * When a gallery tile fetches its thumbnail. A tile in view: at once, and it counts as on its way
 * until its image loads or fails. A tile drawn ahead of the view (the rows of overscan) waits for them to arrive before it asks for its own, so a screen after a
 * jump or an open has the gallery protocol, the main process and the decoder to itself: asked
 * for together, the rows around would double the requests the first screen waits behind. The
 * wait is bounded: a thumbnail that never settles holds nothing back for long. One page, one
 * count: JavaScript runs a turn at a time. While the view moves more than a screen a frame (a
 * scrollbar dragged far, view-motion.ts) no tile asks; a tile that leaves the page drops what it
 * asked for.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { whenIdle } from '../../lib/use-when-idle';

/** Longest a tile drawn ahead of the view waits for an idle window before fetching anyway. */
const AHEAD_IDLE_TIMEOUT_MS = 500;
/**
 * Longest a tile drawn ahead of the view waits for the thumbnails in view to arrive before it
 * waits for the idle window (a loaded machine answers a screen in about a second).
 */
const AHEAD_IN_VIEW_TIMEOUT_MS = 1500;

let loading = 0;
const waiting = new Set<() => void>();

/**
 * A tile in view has asked for its thumbnail: call the answer once it loaded or failed, or the
 * tile went (a second call does nothing).
 */
function inViewLoading(): () => void {
  loading += 1;
  let settled = false;
  return () => {
    if (settled) return;
    settled = true;
    loading -= 1;
    if (loading > 0) return;
    const ready = [...waiting];
    waiting.clear();
    for (const callback of ready) callback();
  };
}

/** Runs `callback` once no thumbnail in view is on its way (at once if none); returns the cancel. */
function whenInViewLoaded(callback: () => void): () => void {
  if (loading === 0) {
    callback();
    return () => undefined;
  }
  waiting.add(callback);
  return () => waiting.delete(callback);
}

/**
 * True once a tile drawn ahead of the view may fetch its thumbnail: the thumbnails in view have
 * arrived (at most {@link AHEAD_IN_VIEW_TIMEOUT_MS}), then the window was
 * idle (at most {@link AHEAD_IDLE_TIMEOUT_MS}); at once while in view. Nothing while `held` (the
 * view moving more than a screen a frame, view-motion.ts): the wait starts once it settles. It
 * stays true after: a tile that asked keeps its image, moved out of view or held.
 */
export function useAheadFetch(ahead: boolean, held = false): boolean {
  const [allowed, setAllowed] = useState(false);
  // Set once, never unset: the same at every rendering of a tile that has asked.
  const asked = useRef(false);
  if (!ahead && !held) asked.current = true;
  const ready = allowed || asked.current;
  useEffect(() => {
    if (ready || held) return undefined;
    let cancelIdle: (() => void) | null = null;
    let cancelLoaded = (): void => undefined;
    const idle = () => {
      if (cancelIdle) return;
      window.clearTimeout(timer);
      cancelLoaded();
      cancelIdle = whenIdle(() => setAllowed(true), AHEAD_IDLE_TIMEOUT_MS);
    };
    const timer = window.setTimeout(idle, AHEAD_IN_VIEW_TIMEOUT_MS);
    cancelLoaded = whenInViewLoaded(idle);
    return () => {
      window.clearTimeout(timer);
      cancelLoaded();
      cancelIdle?.();
    };
  }, [ready, held]);
  return ready;
}

/**
 * A tile in view counts as on its way from its fetch to its load or error; a tile that leaves the
 * page drops its request ({@link useDropOnLeave}). Counted in a layout effect, which React runs
 * for the whole drawing before any tile's effects: the rows drawn above the view come first in
 * the page, and a tile of theirs that looked in its effect found none on its way yet and asked
 * beside the screen it was to wait for (a drag's stop drew both at once).
 */
export function useInViewLoading(source: string | null, image: RefObject<HTMLImageElement | null>) {
  const settle = useRef<(() => void) | null>(null);
  useDropOnLeave(image);
  useLayoutEffect(() => {
    if (source === null) return undefined;
    const done = inViewLoading();
    settle.current = done;
    if (image.current?.complete) done();
    return done;
  }, [source, image]);
  return () => settle.current?.();
}

/**
 * A tile that left the page drops its thumbnail: an image element taken out of the page still
 * holds the image it asked for until it is collected, so its request goes on (main answers it);
 * without its `src` nothing holds it, and Chromium cancels a load nothing holds. (StrictMode's
 * rehearsed unmount leaves the element in the page: kept.)
 */
function useDropOnLeave(image: RefObject<HTMLImageElement | null>): void {
  useEffect(() => {
    const element = image.current;
    return () => {
      if (element && !element.isConnected) element.removeAttribute('src');
    };
  }, [image]);
}
