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

/**
 * Why no marker was read: `no-marker`, no 0xFF where a marker must start; `ends`, the file ends
 * before the marker does.
 */
export type MarkerProblem = 'no-marker' | 'ends';

/**
 * The marker starting at `at` and where what follows it starts.
 * @throws what `refusal` makes of the problem when there is no marker there.
 */
export async function jpegMarkerAt(
  reader: ByteRanges,
  at: number,
  refusal: (problem: MarkerProblem) => Error,
): Promise<{ marker: number; next: number }> {
  const window = await reader.bytes(at, Math.min(MAX_FILL, reader.size - at));
  if (!window || window.length < 2) throw refusal('ends');
  if (window[0] !== 0xff) throw refusal('no-marker');
  let i = 1;
  while (i + 1 < window.length && window[i] === 0xff) i += 1;
  return { marker: window[i] ?? 0, next: at + i + 1 };
}
