/**
 * The type of `window.pictor`, derived from the contract (never written by hand). The preload
 * builds the object; the renderer's lib/api.ts is the only code that touches it.
 */
import type {
  EventChannel,
  EventPayload,
  RequestChannel,
  RequestInput,
  RequestOutput,
  Result,
} from './contract';

/** Channels whose input is `undefined` may be called without an argument. */
type InvokeArgs<C extends RequestChannel> =
  undefined extends RequestInput<C> ? [input?: RequestInput<C>] : [input: RequestInput<C>];

export interface PictorApi {
  /**
   * Where the page loads gallery files from: `pictor-gallery://gallery/` in the app; the
   * end-to-end harness in plain Chromium serves the same files, through the same resolver, over
   * loopback HTTP.
   */
  readonly galleryBase: string;
  invoke<C extends RequestChannel>(
    channel: C,
    ...args: InvokeArgs<C>
  ): Promise<Result<RequestOutput<C>>>;
  /** Subscribes to a main-process event; returns the unsubscribe function. */
  on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void;
}

/** Where images and thumbnails come from in the page: never file://. */
export const GALLERY_SCHEME = 'pictor-gallery';

/** The app's gallery base, the default of {@link PictorApi.galleryBase}. */
export const GALLERY_BASE = `${GALLERY_SCHEME}://gallery/`;

/** The URL of a gallery file (root-relative path from an ImageRecord) under `base`. */
export function galleryUrl(relativePath: string, base: string = GALLERY_BASE): string {
  return `${base}${relativePath.split('/').map(encodeURIComponent).join('/')}`;
}
