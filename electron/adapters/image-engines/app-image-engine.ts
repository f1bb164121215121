/**
 * The desktop app's image engine: every decode, thumbnail, conversion and demo picture of the app
 * goes through it. Chromium's own codecs in a hidden sandboxed image renderer take this place
 * (their adapter); until then, and wherever that renderer cannot start, images are saved sized
 * from their header check and their thumbnails are made once an engine that decodes is here.
 */
import type { ImageEngine } from '../../ports/image-engine';
import type { Logger } from '../../ports/logger';
import { createHeaderOnlyEngine } from './header-only-engine';

/** The engine; `onNoDecoder` is called when it decodes nothing (the app tells the user once). */
export function appImageEngine(logger: Logger, onNoDecoder: () => void): ImageEngine {
  const engine: ImageEngine = createHeaderOnlyEngine();
  if (engine.name === 'header-only') {
    logger.warn('no image decoder: images are saved with their thumbnails pending');
    onNoDecoder();
  }
  return engine;
}
