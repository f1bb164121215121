/**
 * A response body consumed as Electron consumes it (shell/browser/net/node_stream_loader.cc): read
 * through Node's `Readable.fromWeb` as soon as the response is given, whatever the page does, into
 * the request's data pipe (64 KiB, which a page that reads nothing never drains), each buffer held
 * until the pipe has taken all of it.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** Mojo's default data pipe, which Electron makes for each response. */
const PIPE_BYTES = 64 * 1024;

export interface ElectronConsumer {
  /** The pipe is full, or the body ended or failed: Electron asks for nothing more. */
  stuck(): boolean;
  /** The body errored (the sender ended it). */
  failed(): boolean;
  /** The page reads everything from now on: the whole body, or the body's error. */
  drain(): Promise<Buffer>;
}

export function electronTakes(body: ReadableStream<Uint8Array>): ElectronConsumer {
  const readable = Readable.fromWeb(body as unknown as WebReadableStream<Uint8Array>);
  const pieces: Buffer[] = [];
  let inPipe = 0;
  let writing = false;
  let draining = false;
  let ended = false;
  let errored = false;
  const readMore = (): void => {
    if (writing) return;
    const buffer = readable.read() as Buffer | null;
    if (buffer === null) return;
    pieces.push(buffer);
    if (draining || inPipe + buffer.length <= PIPE_BYTES) {
      inPipe += buffer.length;
      readMore();
    } else {
      // The pipe is full and the page reads nothing: this write never completes.
      writing = true;
    }
  };
  readable.on('readable', readMore);
  const done = new Promise<Buffer>((resolve, reject) => {
    readable.on('end', () => {
      ended = true;
      resolve(Buffer.concat(pieces));
    });
    readable.on('error', (error) => {
      errored = true;
      reject(error);
    });
  });
  // A body ended by its sender before the page drains it is an outcome the tests read, not a crash.
  done.catch(() => undefined);
  return {
    stuck: () => writing || ended || errored,
    failed: () => errored,
    drain(): Promise<Buffer> {
      draining = true;
      writing = false;
      readMore();
      return done;
    },
  };
}
