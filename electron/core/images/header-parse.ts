/**
 * What the three format parsers (png-header.ts, jpeg-header.ts, webp-header.ts) share: the size
 * they read, and the one error they throw when the file is not what it says.
 */
import type { ImageFormat } from '../../ports/image-engine';

/** A header as a parser read it, before the pixel limit and orientation are applied. */
export interface ParsedHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** EXIF orientation 1–8 (1 when absent or not valid). */
  readonly orientation: number;
  /** An animation (APNG, animated WebP): its size is the canvas, every frame inside it. */
  readonly animated: boolean;
}

/** Why a header was refused: the file is damaged or lies, or says no size. */
export type HeaderFault = 'unreadable' | 'no_size';

export class HeaderError extends Error {
  override readonly name = 'HeaderError';

  constructor(
    readonly fault: HeaderFault,
    detail: string,
  ) {
    super(detail);
  }
}

/** Throws a {@link HeaderError} ('unreadable', `detail`) unless `bytes` is there. */
export function present<T>(bytes: T | null, detail: string): T {
  if (bytes === null) throw new HeaderError('unreadable', detail);
  return bytes;
}
