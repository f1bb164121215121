/**
 * Reads one job's bytes from its one-time URL, as they stream in, up to a ceiling: a body
 * longer than the ceiling is cancelled, never held. Used by the workers and the page itself.
 */
import { SIZE_SNIFF_BYTES } from './image-size';

/** The bytes did not arrive (the address was refused, the stream broke): not the image's fault. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}

/** The body is longer than the page reads: the image's fault. */
export class SourceTooLargeError extends Error {
  override readonly name = 'SourceTooLargeError';
}

export interface Source {
  /** Every byte, as a Blob (which Chromium may keep outside the page's heap). */
  readonly blob: Blob;
  /** The first {@link SIZE_SNIFF_BYTES}, for the header check. */
  readonly head: Uint8Array;
}

function headOf(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const head = new Uint8Array(Math.min(total, SIZE_SNIFF_BYTES));
  let filled = 0;
  for (const chunk of chunks) {
    if (filled >= head.length) break;
    const part = chunk.subarray(0, head.length - filled);
    head.set(part, filled);
    filled += part.length;
  }
  return head;
}

/** Fetches `url` (no credentials, no cache) and reads at most `maxBytes` of it. */
export async function readSource(url: string, maxBytes: number, type = ''): Promise<Source> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', redirect: 'error' });
  } catch {
    throw new SourceError('The image bytes could not be fetched.');
  }
  if (!response.ok || !response.body) {
    throw new SourceError(`The image bytes were refused (${response.status}).`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel().catch(() => undefined);
        throw new SourceTooLargeError(`The image is larger than ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof SourceTooLargeError) throw error;
    throw new SourceError('The image bytes stopped arriving.');
  }
  return { blob: new Blob(chunks as BlobPart[], { type }), head: headOf(chunks, total) };
}
