/**
 * The mask's two PNGs in the window (shared/domain/mask-png.ts, shared with the command line),
 * deflated by the page's CompressionStream('deflate') where there is one, else stored blocks.
 */
import {
  concat,
  maskPngs as encodeMaskPngs,
  storedDeflate,
  type Deflate,
  type MaskPngs,
} from '../../../../shared/domain/mask-png';

export { storedDeflate, type Deflate, type MaskPngs } from '../../../../shared/domain/mask-png';

/**
 * Both PNGs of `coverage` (one byte per pixel, non-zero = edit) at `width` × `height`, or null
 * when nothing is to be edited.
 */
export function maskPngs(
  coverage: Uint8Array,
  width: number,
  height: number,
  deflate: Deflate = pageDeflate,
): Promise<MaskPngs | null> {
  return encodeMaskPngs(coverage, width, height, deflate);
}

/** The zlib stream of the page's CompressionStream, or stored blocks where there is none. */
async function pageDeflate(bytes: Uint8Array): Promise<Uint8Array> {
  if (typeof CompressionStream !== 'function') return storedDeflate(bytes);
  const stream = new CompressionStream('deflate');
  const writer = stream.writable.getWriter();
  // Written without waiting: the readable side must be drained for the write to finish.
  const written = writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close());
  const parts: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  await written;
  return concat(parts);
}
