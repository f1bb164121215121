/**
 * Room on the way out to the client. What the server wrote and the client has not read yet sits
 * in stdout's buffer, in the server's memory: a client that reads slowly, or never, would have
 * every answer it asked for held there. So no call is handed on while that buffer is over a bound
 * (mcp-call-gate.ts), and work that makes a large answer (get_image) starts only when there is
 * room for it.
 */
import type { Writable } from 'node:stream';

/** The most bytes written and not yet read by the client before the server waits for it. */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/**
 * Resolves once `out` holds at most MAX_UNREAD_BYTES the client has not read (or has closed), or
 * at once when `call` is aborted: a call the client cancelled waits for no room (its caller asks
 * its signal after), or it would hold its place among the reads at once until stdout drained.
 */
export type OutputRoom = (call: AbortSignal) => Promise<void>;

function drainedClosedOrCancelled(out: Writable, call: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      call.removeEventListener('abort', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    call.addEventListener('abort', done, { once: true });
  });
}

export function outputRoom(out: Writable): OutputRoom {
  return async (call) => {
    while (out.writableLength > MAX_UNREAD_BYTES && !out.destroyed && !call.aborted) {
      await drainedClosedOrCancelled(out, call);
    }
  };
}
