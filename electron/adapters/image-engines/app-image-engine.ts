/**
 * The desktop app's image engine: every decode, thumbnail, conversion and demo picture of the app
 * goes through it. Chromium's own codecs in a hidden sandboxed image renderer do the work; where
 * that renderer cannot start (it answers `unavailable`), images are saved sized from their header
 * check and their thumbnails are made once an engine that decodes is here. The user is told once.
 */
import { ImageEngineError, type ImageEngine } from '../../ports/image-engine';
import type { Logger } from '../../ports/logger';
import { join } from 'node:path';
import type { RendererImageEngine } from '../../core/images';
import { RendererCredentialVerifier } from '../../core/content-credentials';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import type { App } from 'electron';
import { registerPrivilegedSchemes } from '../app-protocol';
import { createChromiumImageEngine } from '../chromium-image-engine';
import { systemClock } from '../system-clock';
import { createHeaderOnlyEngine } from './header-only-engine';

/**
 * `primary` (the image renderer) until it says it is unavailable, then the header-only engine for
 * the rest of the run; `onNoDecoder` is called once, when that happens.
 */
export function appImageEngine(
  logger: Logger,
  onNoDecoder: () => void,
  primary: ImageEngine = imageRenderer(logger),
): ImageEngine {
  const fallback = createHeaderOnlyEngine();
  let current: ImageEngine = primary;
  const fellBack = (error: unknown): boolean => {
    if (!(error instanceof ImageEngineError) || error.why !== 'unavailable') return false;
    if (current === primary) {
      current = fallback;
      logger.warn('the image renderer cannot start: images are saved with thumbnails pending', {
        detail: error.message,
      });
      onNoDecoder();
    }
    return true;
  };
  const run = async <T>(job: (engine: ImageEngine) => Promise<T>): Promise<T> => {
    const engine = current;
    try {
      return await job(engine);
    } catch (error) {
      if (engine === primary && fellBack(error)) return job(current);
      throw error;
    }
  };
  return {
    get name() {
      return current.name;
    },
    thumbnail: (request) => run((engine) => engine.thumbnail(request)),
    toPng: (bytes, maxSide) => run((engine) => engine.toPng(bytes, maxSide)),
    renderSvgPng: (svg, size) => run((engine) => engine.renderSvgPng(svg, size)),
    dispose: () => primary.dispose(),
  };
}

/**
 * The image renderer: its page and preload are built beside main.js (one bundle). The app's
 * Content Credentials are verified on it too (app-credential-verifier.ts).
 */
export function imageRenderer(logger: Logger, mayOpenWindows?: () => boolean): RendererImageEngine {
  return createChromiumImageEngine({
    pageRoot: join(import.meta.dirname, 'image-renderer'),
    preloadPath: join(import.meta.dirname, 'image-preload.cjs'),
    clock: systemClock,
    logger,
    ...(mayOpenWindows ? { mayOpenWindows } : {}),
  });
}

/** The installed app's images as the `pictor` command sees them. */
export interface CommandLineImages {
  /** The image engine, made once the app is ready. */
  readonly engine: () => Promise<ImageEngine>;
  /**
   * A Content Credentials verifier on the same image renderer (no fallback: `pictor self-test`
   * checks the renderer itself); ended with the engine.
   */
  readonly rendererVerifier: (trustAnchors: string) => ContentCredentialVerifier;
}

/**
 * The app's image engine for the installed app run as the `pictor` command, and a verifier on its
 * renderer. Call before `ready`: the image renderer's schemes are registered now, the only time
 * Electron accepts them. The command says itself when thumbnails were left for the app (and
 * `self-test` fails its image steps on the header-only engine); why the renderer could not start
 * goes to `logger`.
 */
export function commandLineImages(app: Pick<App, 'whenReady'>, logger: Logger): CommandLineImages {
  registerPrivilegedSchemes();
  let renderer: RendererImageEngine | null = null;
  const ready = async (): Promise<RendererImageEngine> => {
    await app.whenReady();
    renderer ??= imageRenderer(logger);
    return renderer;
  };
  return {
    engine: async () => appImageEngine(logger, () => undefined, await ready()),
    rendererVerifier: (trustAnchors) =>
      new RendererCredentialVerifier({
        renderer: { runJob: async (spec) => (await ready()).runJob(spec) },
        trustAnchors,
        logger,
      }),
  };
}
