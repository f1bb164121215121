/**
 * The desktop app's Content Credentials verifier: the sandboxed image renderer's page runs
 * @contentauth/c2pa-wasm (core/content-credentials/renderer-verifier.ts), so hostile manifests are
 * parsed outside the main process, the way the app's images are decoded (app-image-engine.ts).
 * Where that renderer cannot run the library (it cannot start, or its module did not load:
 * VerifierUnavailableError), the worker-thread verifier of the Node hosts takes over for the
 * rest of the run, as the image engine falls back to its header-only engine.
 */
import {
  C2paVerifier,
  RendererCredentialVerifier,
  type RendererJobRunner,
  VerifierUnavailableError,
} from '../../core/content-credentials';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
} from '../../ports/content-credential-verifier';
import type { Logger } from '../../ports/logger';

export interface AppCredentialVerifierOptions {
  /** The Chromium image engine (the app's image renderer). */
  readonly renderer: RendererJobRunner;
  readonly trustAnchors: string;
  readonly logger: Logger;
  /** The verifier used once the renderer cannot verify; default the worker-thread one. */
  readonly fallback?: () => ContentCredentialVerifier;
}

export function appCredentialVerifier(
  options: AppCredentialVerifierOptions,
): ContentCredentialVerifier {
  const { trustAnchors, logger } = options;
  const primary = new RendererCredentialVerifier({
    renderer: options.renderer,
    trustAnchors,
    logger,
  });
  let fallback: ContentCredentialVerifier | null = null;
  const fellBack = (error: unknown): ContentCredentialVerifier | null => {
    if (!(error instanceof VerifierUnavailableError)) return null;
    if (!fallback) {
      logger.warn('the image renderer cannot verify Content Credentials: a worker thread does', {
        detail: error.message,
      });
      fallback = options.fallback?.() ?? new C2paVerifier({ trustAnchors, logger });
    }
    return fallback;
  };
  return {
    async verify(request: CredentialRequest) {
      if (fallback) return fallback.verify(request);
      try {
        return await primary.verify(request);
      } catch (error) {
        const next = fellBack(error);
        if (!next) throw error;
        return next.verify(request);
      }
    },
    async dispose() {
      await primary.dispose();
      await fallback?.dispose();
    },
  };
}
