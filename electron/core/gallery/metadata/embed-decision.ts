/**
 * The one place that decides whether an image's file is edited to carry Pictor's XMP. Every
 * writer path (the download's metadata step, any later one) asks here first; a reason to leave
 * the file exactly as it came is given back (it is logged, and the image is saved unedited).
 */
import type { ImageKind } from '../image-sniff';
import type { RangeReader } from './range-reader';

/**
 * `null` when the file may be edited; otherwise why it is left as it came (a sentence naming no
 * path, URL or key). Nothing refuses an edit today: a file whose container lies is refused by
 * the editors themselves (container.ts), with their own reason.
 */
export function reasonToLeaveAsIs(_reader: RangeReader, _kind: ImageKind): Promise<string | null> {
  return Promise.resolve(null);
}
