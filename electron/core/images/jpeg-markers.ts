/**
 * The one JPEG marker reader, for the header check (jpeg-header.ts) and the metadata editor
 * (gallery/metadata/jpeg-meta.ts): the marker at an offset, after the fill bytes (0xFF) that may
 * pad the space before it, read through any reader of byte ranges.
 */

/** Fill bytes looked at before one marker: a file with more is not one to walk. */
const MAX_FILL = 32;

/** A reader of exact byte ranges (`null`: not all in the file). */
export interface ByteRanges {
  readonly size: number;
  bytes(offset: number, length: number): Promise<Uint8Array | null>;
}

export type MarkerRead =
  | { readonly marker: number; readonly next: number }
  /** No 0xFF where a marker must start. */
  | { readonly problem: 'no-marker' }
  /** The file ends before the marker does. */
  | { readonly problem: 'ends' };

/** The marker starting at `at` and where what follows it starts. */
export async function jpegMarkerAt(reader: ByteRanges, at: number): Promise<MarkerRead> {
  const window = await reader.bytes(at, Math.min(MAX_FILL, reader.size - at));
  if (!window || window.length < 2) return { problem: 'ends' };
  if (window[0] !== 0xff) return { problem: 'no-marker' };
  let i = 1;
  while (i + 1 < window.length && window[i] === 0xff) i += 1;
  return { marker: window[i] ?? 0, next: at + i + 1 };
}
