/**
 * Reads one job's bytes from its one-time URL: straight into a buffer of the worker's own, which
 * nothing outside the page holds (every image and Content Credentials job), or into a Blob, which
 * Chromium assembles from the stream outside the page's heap and the browser process holds (in
 * Electron, the main process): only an SVG, which is drawn through an <img>. The length is the one
 * the response declares (the main process sends each file's size), checked before a byte is read;
 * a body that ends short of it or runs past it fails.
 */
/** The bytes did not arrive (the address was refused, the stream broke): not the image's fault. */
class SourceError extends Error {
  override readonly name = 'SourceError';
}

/** The body is longer than the page reads: the image's fault. */
export class SourceTooLargeError extends Error {
  override readonly name = 'SourceTooLargeError';
}

/** The response for `url` (no credentials, no cache, no redirect) and its declared length. */
async function opened(
  url: string,
  maxBytes: number,
): Promise<{ response: Response; body: ReadableStream<Uint8Array>; declared: number }> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', redirect: 'error' });
  } catch {
    throw new SourceError('The image bytes could not be fetched.');
  }
  const { body } = response;
  // 413: main refused a file over its own cap on an image (image-job-sources.ts), the image's
  // fault as a length past the page's ceiling is.
  if (response.status === 413) {
    void body?.cancel().catch(() => undefined);
    throw new SourceTooLargeError('The image is larger than Pictor reads.');
  }
  if (!response.ok || !body) {
    throw new SourceError(`The image bytes were refused (${response.status}).`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!Number.isSafeInteger(declared) || declared < 0) {
    void body.cancel().catch(() => undefined);
    throw new SourceError('The image bytes came without their length.');
  }
  if (declared > maxBytes) {
    void body.cancel().catch(() => undefined);
    throw new SourceTooLargeError(`The image is larger than ${maxBytes} bytes.`);
  }
  return { response, body, declared };
}

/**
 * Reads `url` into a buffer of its declared length, allocated once: with a BYOB reader the
 * network's bytes are written straight into it (no chunk buffers of their own, no growing
 * copies); at most `maxBytes`.
 */
export async function readSourceBytes(url: string, maxBytes: number): Promise<Uint8Array> {
  const { body, declared } = await opened(url, maxBytes);
  // A fetch body is a byte stream: it takes a BYOB reader.
  const reader = body.getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(declared);
  let filled = 0;
  try {
    while (filled < declared) {
      const { done, value } = await reader.read(new Uint8Array(buffer, filled, declared - filled));
      if (done || !value) break;
      buffer = value.buffer as ArrayBuffer;
      filled += value.byteLength;
    }
    // One byte more is read to tell a body that ends here from one that runs past its length.
    if (filled === declared) {
      const { done, value } = await reader.read(new Uint8Array(1));
      if (!done && value && value.byteLength > 0) {
        void reader.cancel().catch(() => undefined);
        throw new SourceError('The image bytes ran past their length.');
      }
    }
  } catch (error) {
    if (error instanceof SourceError) throw error;
    throw new SourceError('The image bytes stopped arriving.');
  }
  if (filled !== declared) throw new SourceError('The image bytes did not all arrive.');
  return new Uint8Array(buffer, 0, declared);
}

/** Fetches `url` (no credentials, no cache, no redirect) into a Blob, at most `maxBytes`. */
export async function readSource(url: string, maxBytes: number, type = ''): Promise<Blob> {
  const { response, declared } = await opened(url, maxBytes);
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new SourceError('The image bytes stopped arriving.');
  }
  if (blob.size !== declared) throw new SourceError('The image bytes did not all arrive.');
  return type === '' ? blob : blob.slice(0, blob.size, type);
}
