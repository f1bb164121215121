/**
 * A response body over a Node readable (an HTTP message, a file stream) that hands on each chunk
 * as it came, not a copy of it. Node's `Readable.toWeb` copies every chunk (so that a chunk cut
 * from Node's shared buffer pool can be transferred), which doubled the memory every download and
 * image job allocated and the garbage the main process collected for it. Nothing that reads these
 * bodies transfers or keeps a chunk, so no copy is needed.
 *
 * Backpressure as `toWeb`'s: the source is paused while more than `highWaterMark` bytes wait, and
 * resumed when the reader asks. A source that ends early (a connection cut before its end) errors
 * the body, as `toWeb` does; cancelling the body destroys the source.
 */
import type { Readable } from 'node:stream';

/** Bytes queued ahead of the reader before the source is paused (Node's default for a socket). */
const QUEUED_BYTES = 64 * 1024;

export function readableBody(
  source: Readable,
  highWaterMark: number = QUEUED_BYTES,
): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.pause();
        source.on('data', (chunk: Buffer | string) => {
          if (settled) return;
          controller.enqueue(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        // node:stream loaded with the first body, not with this module (a CLI command that
        // downloads nothing never loads it).
        const { finished } = process.getBuiltinModule('node:stream');
        finished(source, { writable: false }, (error) => {
          if (settled) return;
          settled = true;
          if (error) controller.error(error);
          else controller.close();
        });
      },
      pull() {
        source.resume();
      },
      cancel(reason) {
        settled = true;
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
}
