/**
 * Response bodies from an opened file, with no second copy of its bytes: the buffer read from
 * disk is the chunk the page gets (a Uint8Array handed to `new Response` would be copied, and a
 * copy of that copied again). Both bodies are pulled (high-water mark 0): nothing is handed over,
 * or read, before the page asks for it.
 */
import type { FileHandle } from 'node:fs/promises';

/** Chunks of a streamed file: few trips through the thread pool, little memory per request. */
const STREAM_CHUNK_BYTES = 256 * 1024;

/**
 * A body of one chunk already read: `bytes` itself, not a copy. `done` runs once, when the page
 * has taken the chunk or given up on the body.
 */
export function bytesBody(bytes: Uint8Array, done: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(bytes);
        controller.close();
        done();
      },
      cancel() {
        done();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Exactly `size` bytes of `handle` (its size as `fstat` saw it), read a chunk at a time as the
 * page asks; the handle is closed at the end, on an error, or when the page gives up. Nothing
 * past `size` is read, and a file that shrank errors the body: never cut short or padded.
 */
export function fileBody(handle: FileHandle, size: number): ReadableStream<Uint8Array> {
  let position = 0;
  const close = () => handle.close().catch(() => undefined);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (position < size) {
            const length = Math.min(STREAM_CHUNK_BYTES, size - position);
            // Its own memory (not Node's shared pool): the page gets this very buffer.
            const buffer = Buffer.allocUnsafeSlow(length);
            const { bytesRead } = await handle.read(buffer, 0, length, position);
            if (bytesRead === 0) throw new Error('The file shrank while it was sent.');
            position += bytesRead;
            controller.enqueue(buffer.subarray(0, bytesRead));
          }
          if (position >= size) {
            controller.close();
            await close();
          }
        } catch (error) {
          controller.error(error);
          await close();
        }
      },
      cancel: close,
    },
    { highWaterMark: 0 },
  );
}
