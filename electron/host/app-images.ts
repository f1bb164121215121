/**
 * The app's images: Chromium's codecs in a hidden sandboxed window (opened by the first image
 * job, closed when idle) as its image engine, header-only when that cannot start; Content
 * Credentials verified in the same renderer (a worker thread when it cannot). Ended at quit.
 */
import { appCredentialVerifier } from '../adapters/image-engines/app-credential-verifier';
import { appImageEngine, imageRenderer } from '../adapters/image-engines/app-image-engine';
import { certificateCount, readTrustAnchors } from '../core/content-credentials';
import type { ContentCredentialVerifier } from '../ports/content-credential-verifier';
import type { ImageEngine } from '../ports/image-engine';
import type { Logger } from '../ports/logger';

export interface AppImages {
  readonly engine: ImageEngine;
  /** The verifier, once the trust list is read. */
  readonly credentials: Promise<ContentCredentialVerifier>;
  /** Ends the verifier and the engine (its window and workers). */
  dispose(): Promise<void>;
}

export interface AppImagesOptions {
  /**
   * False once the app is quitting: the image renderer's window does not open again then (an
   * image job finds it unavailable), so a helper never holds the quit back (app-lifetime.ts).
   */
  readonly mayOpenWindows?: () => boolean;
}

/** `onNoDecoder` is told once when the engine falls back to header-only. */
export function startAppImages(
  logger: Logger,
  onNoDecoder: () => void,
  options: AppImagesOptions = {},
): AppImages {
  const renderer = imageRenderer(logger, options.mayOpenWindows);
  const engine = appImageEngine(logger, onNoDecoder, renderer);
  const credentials = readTrustAnchors().then((trustAnchors) => {
    if (certificateCount(trustAnchors) === 0)
      logger.warn('The Content Credentials trust list is missing: no signer will show as trusted.');
    return appCredentialVerifier({ renderer, trustAnchors, logger });
  });
  return {
    engine,
    credentials,
    async dispose() {
      await (await credentials).dispose().catch(() => undefined);
      await engine.dispose().catch(() => undefined);
    },
  };
}
