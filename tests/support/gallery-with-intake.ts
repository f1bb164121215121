/**
 * A gallery and its image intake over one folder, made as the core makes them (pictor-core.ts):
 * for tests that download into, check or rebuild a gallery without a whole core.
 */
import { ImageIntake, type ImageIntakeOptions } from '../../electron/core/download/image-intake';
import { Gallery, type GalleryOptions } from '../../electron/core/gallery/gallery';

export function galleryWithIntake(options: GalleryOptions & ImageIntakeOptions): {
  gallery: Gallery;
  intake: ImageIntake;
} {
  const { root, ...intakeOptions } = options;
  const gallery = new Gallery({
    root,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return { gallery, intake: new ImageIntake(gallery, intakeOptions) };
}
