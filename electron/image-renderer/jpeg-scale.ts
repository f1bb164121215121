/**
 * The arithmetic of a reduced JPEG decode. libjpeg decodes at M/8 of the stored size, each side
 * ⌈side × M / 8⌉, for M of 1 to 8 (sharp's shrink-on-load uses the same scales). Chromium's
 * ImageDecoder picks the largest M whose pixels fit the area it is asked for, so the page asks
 * for the size it wants plus a pixel each way.
 */
import type { StoredSize } from './image-size';

/** `stored` decoded at `eighths`/8, as libjpeg sizes it. */
export function scaledBy(stored: StoredSize, eighths: number): StoredSize {
  return {
    width: Math.ceil((stored.width * eighths) / 8),
    height: Math.ceil((stored.height * eighths) / 8),
  };
}

/** The fewest eighths of `stored` whose long side still covers `fit`'s (8: no reduction). */
export function eighthsFor(stored: StoredSize, fit: StoredSize): number {
  const long = Math.max(stored.width, stored.height);
  const wanted = Math.max(fit.width, fit.height);
  for (let eighths = 1; eighths < 8; eighths += 1) {
    if (Math.ceil((long * eighths) / 8) >= wanted) return eighths;
  }
  return 8;
}

/** What to ask ImageDecoder for to get `stored` at `eighths`/8. */
export function desiredFor(stored: StoredSize, eighths: number): StoredSize {
  const scaled = scaledBy(stored, eighths);
  return { width: scaled.width + 1, height: scaled.height + 1 };
}

/**
 * Whether a frame `coded` in size and shown at `display` is `stored` decoded at one of libjpeg's
 * scales, turned a quarter when `turned` (the job's oriented size is its stored size turned). A
 * reduced frame cannot show the full size: that is the SOF marker, which the page's own marker
 * walk (image-size.ts) reads as libjpeg does.
 */
export function isReductionOf(
  coded: StoredSize,
  display: StoredSize,
  stored: StoredSize,
  turned: boolean,
): boolean {
  const upright = turned ? { width: display.height, height: display.width } : display;
  if (upright.width !== coded.width || upright.height !== coded.height) return false;
  for (let eighths = 1; eighths <= 8; eighths += 1) {
    const scaled = scaledBy(stored, eighths);
    if (coded.width === scaled.width && coded.height === scaled.height) return true;
  }
  return false;
}
