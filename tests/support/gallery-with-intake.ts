/**
 * A gallery and its image intake over one folder, made as the core makes them (pictor-core.ts):
 * for tests that download into, check or rebuild a gallery without a whole core.
 */
import { ImageIntake, type ImageIntakeOptions } from '../../electron/core/download/image-intake';
import { Gallery, type GalleryOptions } from '../../electron/core/gallery/gallery';
import { testImageEngine } from './image-engine';

export interface GalleryWithIntake {
  gallery: Gallery;
  intake: ImageIntake;
}

/** What a test changes over {@link galleryOnServer}'s defaults. */
export type GalleryTestOptions = Partial<Omit<GalleryOptions, 'root'> & ImageIntakeOptions>;

/**
 * A gallery in `root` as most tests make it: its intake downloads with Node's own fetch (from the
 * test's loopback servers) and decodes with the tests' image engine (image-engine.ts); `options`
 * add to those or replace them (a logger, a time limit, a cap, the image metadata…).
 */
export function galleryOnServer(root: string, options: GalleryTestOptions = {}): GalleryWithIntake {
  const intakeOptions: ImageIntakeOptions = { imageEngine: testImageEngine, fetch, ...options };
  const gallery = new Gallery({
    root,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return { gallery, intake: new ImageIntake(gallery, intakeOptions) };
}

/** {@link galleryOnServer} whose intake never downloads: a gallery an import or a rebuild fills. */
export function galleryOffline(root: string, options: GalleryTestOptions = {}): GalleryWithIntake {
  const refuse = () => Promise.reject(new Error('This test gallery does not download.'));
  return galleryOnServer(root, { fetch: refuse, ...options });
}
