/**
 * A small ImageEngine over native sharp for tests under Node, standing in for the product's
 * sharp-native adapter until that one is in this tree: a full decode (a truncated or corrupt
 * file fails), the size after the EXIF orientation, and a WebP thumbnail that fits the size asked.
 */
import sharp from 'sharp';
import type { ImageEngine, ThumbnailAnswer } from '../../electron/ports/image-engine';

export function sharpImageEngine(): ImageEngine {
  return {
    name: 'sharp-native',
    async thumbnail(request): Promise<ThumbnailAnswer> {
      try {
        const decoded = await sharp(request.file, { failOn: 'error' })
          .rotate()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const { width, height, channels } = decoded.info;
        const webp = await sharp(decoded.data, { raw: { width, height, channels } })
          .resize(request.thumbnailSize, request.thumbnailSize, {
            fit: 'inside',
            withoutEnlargement: true,
          })
          .webp()
          .toBuffer();
        return { kind: 'thumbnail', width, height, webp };
      } catch (error) {
        return { kind: 'undecodable', detail: String(error) };
      }
    },
    async toPng(bytes, maxSide = 4096) {
      return sharp(bytes)
        .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
    },
    async renderSvgPng(svg, size) {
      return sharp(Buffer.from(svg))
        .resize(size.width, size.height, { fit: 'fill' })
        .png()
        .toBuffer();
    },
    async dispose() {},
  };
}
