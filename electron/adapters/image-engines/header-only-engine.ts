/**
 * The `header-only` image engine: decodes nothing. Where no decoder can run (the packed CLI on a
 * host with no display, an app whose image renderer cannot start), an image is still saved, with
 * its XMP, sized from the header check; its thumbnail is marked pending and made by the app the
 * next time it shows the gallery (core/images/pending-thumbnails.ts).
 */
import { ImageEngineError, type ImageEngine } from '../../ports/image-engine';

const NO_DECODER = 'No image decoder is available in this process.';

export function createHeaderOnlyEngine(): ImageEngine {
  return {
    name: 'header-only',
    thumbnail: () => Promise.resolve({ kind: 'pending' }),
    toPng: () => Promise.reject(new ImageEngineError(NO_DECODER, 'unavailable')),
    renderSvgPng: () => Promise.reject(new ImageEngineError(NO_DECODER, 'unavailable')),
    dispose: () => Promise.resolve(),
  };
}
