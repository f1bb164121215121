/**
 * What the Chromium image engine (core/images/renderer-image-engine.ts) needs from its host: a way
 * to start one image renderer (the page in electron/image-renderer) and talk to it over its one
 * port. The app starts a hidden sandboxed window (adapters/chromium-image-engine.ts); tests and
 * the bench open the same page in Debian's Chromium.
 */
import type { PageRequest } from '../../shared/image-renderer/protocol';

/** What a started renderer reports. */
export interface ImageRendererEvents {
  /** A message from the page, unchecked: the engine parses it. */
  answer(message: unknown): void;
  /**
   * The renderer is gone (its process died, it stopped responding, its page went away): every job
   * it held is lost. Reported at most once per renderer; `close()` does not report it.
   */
  gone(reason: string): void;
}

/** One running renderer. */
export interface ImageRendererConnection {
  /** Sends a job (or a cancel) to the page. */
  post(request: PageRequest): void;
  /** Ends the renderer (its window or page); nothing is reported after this. */
  close(): void;
}

/** Starts image renderers, one at a time (the engine never holds two). */
export interface ImageRendererHost {
  /**
   * Starts a renderer and connects to its page; the engine then waits for the page's `ready`.
   * @throws when no renderer can be started here.
   */
  start(events: ImageRendererEvents): Promise<ImageRendererConnection>;
  /** The one-time address of a job's bytes, made from its token. */
  sourceUrl(token: string): string;
}
