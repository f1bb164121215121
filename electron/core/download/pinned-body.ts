/**
 * The body of a pinned download's `Response` (pinned-exchange.ts) in two ways of reading it. The
 * download's own pump (body-to-file.ts) asks for its {@link BodySource} and takes each piece as a
 * view of the socket's kept read buffer, copied straight into its write buffer: no allocation per
 * chunk. Any other reader (a test's `response.text()`, a fetch caller) reads the stream, which
 * copies each piece before it is queued, since such a reader may keep chunks past the next read;
 * the socket is read only while a read waits (the stream's high-water mark is 0), so nothing is
 * read ahead of either kind of reader, and the pump can still take the source after the
 * `Response` is made.
 */
import type { BodySource } from './pinned-exchange';

const sources = new WeakMap<ReadableStream<Uint8Array>, BodySource>();

/** The pinned body behind `stream`, when it is one and nothing has read it as a stream. */
export function directBody(stream: ReadableStream<Uint8Array>): BodySource | undefined {
  return stream.locked ? undefined : sources.get(stream);
}

export function bodyStream(source: BodySource): ReadableStream<Uint8Array> {
  let wake: (() => void) | null = null;
  let started = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (wake) {
          const waiting = wake;
          wake = null;
          waiting();
        }
        if (started) return;
        started = true;
        source
          .pipe((piece) => {
            controller.enqueue(new Uint8Array(piece));
            if ((controller.desiredSize ?? 0) > 0) return null;
            return new Promise<void>((resolve) => (wake = resolve));
          })
          .then(
            () => controller.close(),
            (error: unknown) => controller.error(error),
          )
          .catch(() => undefined);
      },
      cancel(reason) {
        source.cancel(reason);
        wake?.();
      },
    },
    { highWaterMark: 0 },
  );
  sources.set(stream, source);
  return stream;
}
