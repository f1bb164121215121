/**
 * A response body over a Node readable (an HTTP message) that hands on what the source has, not a
 * copy of each chunk. Node's `Readable.toWeb` copies every chunk (so that a chunk cut from Node's
 * shared buffer pool can be transferred), which doubled the memory every body allocated and the
 * garbage the main process collected for it. No reader of these bodies needs the copy: the one
 * that moves pieces to a worker moves a piece's memory only when the piece is all of it, and
 * copies a view (core/service/answer-reader.ts).
 *
 * Read as the reader asks, in Node's paused mode: each piece handed on is what the source holds
 * when it is read (`read()`), the chunk as it came when one waits alone, the chunks that waited
 * together joined in one piece. A service that frames its answer a byte a chunk gives node:http a
 * chunk a byte; handed on one by one (`'data'`), each cost the body a queued piece, a read's
 * promise and a pull: a megabyte so framed over loopback was 1,000,000 pieces and 1.36 s of the
 * process's CPU (node:http's own parsing of it, read alone: 1.09 s); read this way, 125 pieces
 * and 0.88 s (tests/unit/core/fs/readable-body.test.ts counts the pieces).
 *
 * Backpressure: the source is read only while fewer than `highWaterMark` bytes wait for the
 * reader; what it holds meanwhile stays in its own buffer, which stops it reading its socket. A
 * source that ends early (a connection cut before its end) errors the body, as `toWeb` does;
 * cancelling the body destroys the source.
 */
import type { Readable } from 'node:stream';

/** Bytes queued ahead of the reader before the source is left unread (a socket read's worth). */
const QUEUED_BYTES = 64 * 1024;

export function readableBody(
  source: Readable,
  highWaterMark: number = QUEUED_BYTES,
): ReadableStream<Uint8Array> {
  let settled = false;
  let wanted = false;
  let take = (): void => undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // What the source holds, while the reader wants more. read() gives null once it holds
        // nothing: the source then reads on, and says 'readable' when it has more (or has ended).
        take = () => {
          while (wanted && !settled) {
            const held = source.read() as Buffer | string | null;
            if (held === null) return;
            controller.enqueue(typeof held === 'string' ? Buffer.from(held) : held);
            wanted = (controller.desiredSize ?? 0) > 0;
          }
        };
        source.on('readable', () => take());
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
        wanted = true;
        take();
      },
      cancel(reason) {
        settled = true;
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark, size: (chunk) => chunk.byteLength },
  );
}
