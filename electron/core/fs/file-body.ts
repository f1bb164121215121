/**
 * Response bodies from an opened file, with no second copy of its bytes: the buffer read from
 * disk is what the page gets (a Uint8Array handed to `new Response` would be copied, and a copy
 * of that copied again), in pieces of {@link PIECE_BYTES} (views of that buffer). Both bodies are
 * pulled (high-water mark 0): nothing is handed over, or read, before it is asked for, and a body
 * ends only when it is asked for more after its last piece.
 *
 * Why pieces: Electron asks for a body as soon as it has the response, whatever the page does
 * (its NodeStreamLoader reads the stream into the request's data pipe, holding each buffer until
 * the pipe has taken it all, and Node's stream buffers one more ahead). A page that reads nothing
 * thus leaves each response holding what was handed over: at most about three pieces, not the
 * whole file. And a body read whole keeps its bytes in the read budget until it ends, which it
 * does not while the page leaves it unread: the budget bounds what such bodies hold.
 */
import type { FileHandle } from 'node:fs/promises';
import type { StreamSlot } from './stream-slots';

/** What a body hands over at a time: Electron's data pipe's own size (Mojo's default). */
export const PIECE_BYTES = 64 * 1024;

/**
 * A body of bytes already read: `bytes` itself, a piece at a time. `done` runs once, when the
 * page has taken the last piece and asked for more, or has given up on the body.
 */
export function bytesBody(bytes: Uint8Array, done: () => void): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at < bytes.length) {
          controller.enqueue(bytes.subarray(at, at + PIECE_BYTES));
          at += PIECE_BYTES;
          return;
        }
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
 * How a file body reads: `readBytes` at a time (at least a piece), handed over `pieceBytes` at a
 * time (views of the read). A body the page may leave unread hands over pieces (see above); one
 * the page reads at once whole (an image job's) hands over each read whole: a stream step per
 * read, not one per 64 KB.
 */
interface FileBodyReads {
  readonly readBytes: number;
  readonly pieceBytes: number;
  /**
   * Where each read goes: a buffer of at least `bytes` (the read's length) that is the body's
   * alone (default: a new one per read). The reader gets views of it.
   */
  readonly buffer?: (bytes: number) => Buffer;
  /** Runs once when the body ends after its last piece was taken and more was asked for. */
  readonly readToEnd?: () => void;
}

const PIECES: FileBodyReads = { readBytes: PIECE_BYTES, pieceBytes: PIECE_BYTES };

/**
 * Exactly `size` bytes of `handle` (its size as `fstat` saw it), read as the page asks (`reads`:
 * a piece at a time by default). The caller took `slot` before it
 * opened `handle`; the handle is closed and the slot given back at the end, on an error, when the
 * page gives up, or when it has asked for nothing for the slots' idle time (the body then errors:
 * a response left unread cannot hold a file open for ever). Nothing past `size` is read, and a
 * file that shrank errors the body: never cut short or padded.
 */
export function fileBody(
  handle: FileHandle,
  size: number,
  slot: StreamSlot,
  reads: FileBodyReads = PIECES,
): ReadableStream<Uint8Array> {
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    slot.release();
    await handle.close().catch(() => undefined);
  };
  const read = pieceReader(handle, size, reads);
  let leftUnread: () => void = () => undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        leftUnread = () => {
          if (ended) return;
          controller.error(new Error('The page left the file unread.'));
          void end();
        };
        slot.idle(leftUnread);
      },
      async pull(controller) {
        slot.busy();
        try {
          const piece = await read();
          if (piece) {
            controller.enqueue(piece);
            return slot.idle(leftUnread);
          }
          controller.close();
          reads.readToEnd?.();
          await end();
        } catch (error) {
          controller.error(error);
          await end();
        }
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  );
}

const NOTHING_HELD = new Uint8Array(0);

/**
 * The next piece of `handle`'s first `size` bytes on each call (null past the end), reading
 * `readBytes` at a time (at least a piece) only when what was read is all handed over.
 */
function pieceReader(
  handle: FileHandle,
  size: number,
  { readBytes, pieceBytes, buffer: lent }: FileBodyReads,
): () => Promise<Uint8Array | null> {
  let position = 0;
  /** What was read and not handed over yet (views of one read's buffer). */
  let held: Uint8Array = NOTHING_HELD;
  return async () => {
    if (held.length === 0) {
      if (position >= size) return null;
      const length = Math.min(Math.max(readBytes, PIECE_BYTES), size - position);
      // Its own memory (not Node's shared pool): the page gets views of this very buffer.
      const buffer = lent?.(length) ?? Buffer.allocUnsafeSlow(length);
      if (buffer.length < length) throw new Error('A read buffer is shorter than a read.');
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead === 0) throw new Error('The file shrank while it was sent.');
      position += bytesRead;
      held = buffer.subarray(0, bytesRead);
    }
    const piece = held.subarray(0, Math.max(pieceBytes, 1));
    // Nothing left of a read holds no view of it: a body kept after its end pins no buffer.
    held = held.length > piece.length ? held.subarray(piece.length) : NOTHING_HELD;
    return piece;
  };
}
