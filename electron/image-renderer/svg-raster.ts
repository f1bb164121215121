/**
 * SVG to PNG, in the page itself: workers have no SVG decoder. The SVG goes through an <img> from
 * a blob: URL, which renders it in Chromium's secure static mode (no script, no external
 * resource), then onto a canvas of exactly the asked size.
 */
import {
  PAGE_MAX_PIXELS,
  type PageAnswer,
  type SvgJob,
} from '../../shared/image-renderer/protocol';
import { SourceTooLargeError, readSource } from './read-source';

/** An SVG Pictor draws is a few kilobytes; anything past this is not one of them. */
const MAX_SVG_BYTES = 4 * 1024 * 1024;

async function loadImage(blob: Blob): Promise<HTMLImageElement | null> {
  const url = URL.createObjectURL(blob);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return image;
  } catch {
    return null;
  } finally {
    URL.revokeObjectURL(url);
  }
}

export async function rasterSvg(job: SvgJob): Promise<PageAnswer> {
  const { id, width, height } = job;
  const undecodable = (detail: string): PageAnswer => ({ type: 'undecodable', id, detail });
  if (width < 1 || height < 1 || width * height > PAGE_MAX_PIXELS) {
    return undecodable('The SVG’s size is outside the page’s limits.');
  }
  let blob: Blob;
  try {
    blob = await readSource(job.url, MAX_SVG_BYTES, 'image/svg+xml');
  } catch (error) {
    if (error instanceof SourceTooLargeError) return undecodable(error.message);
    return { type: 'failed', id, detail: 'The SVG could not be fetched.' };
  }
  const image = await loadImage(blob);
  if (!image) return undecodable('The SVG could not be drawn.');
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!context) return { type: 'failed', id, detail: 'No canvas.' };
  context.drawImage(image, 0, 0, width, height);
  const png = await canvas.convertToBlob({ type: 'image/png' });
  return { type: 'png', id, png: new Uint8Array(await png.arrayBuffer()) };
}
