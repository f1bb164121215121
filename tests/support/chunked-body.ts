/**
 * A body framed as HTTP/1.1 chunks cut as a test says (hostile hosts and services that frame a
 * byte a chunk): the one home for writing such framing by hand.
 */

/** The size of a body's `index`th chunk on the wire. */
export type ChunkSizes = (index: number) => number;

/** `body` as HTTP/1.1 chunks of `sizes`, without the last (zero) chunk. */
export function chunkedBody(body: Uint8Array, sizes: ChunkSizes): Buffer {
  const frames: number[] = [];
  let length = 0;
  for (let at = 0; at < body.length;) {
    const size = Math.min(sizes(frames.length), body.length - at);
    frames.push(size);
    length += size.toString(16).length + size + 4;
    at += size;
  }
  const out = Buffer.allocUnsafe(length);
  let from = 0;
  let to = 0;
  for (const size of frames) {
    to += out.write(`${size.toString(16)}\r\n`, to, 'latin1');
    out.set(body.subarray(from, from + size), to);
    to += size;
    from += size;
    to += out.write('\r\n', to, 'latin1');
  }
  return out;
}
