/**
 * Reads one job's bytes from its one-time URL into a Blob, which Chromium assembles from the
 * stream outside the page's heap: no copy of the image passes through JavaScript. The length is
 * the one the response declares (the main process sends each file's size), checked before a byte
 * is read; Chromium fails a body that ends short of it or runs past it.
 */
/** The bytes did not arrive (the address was refused, the stream broke): not the image's fault. */
class SourceError extends Error {
  override readonly name = 'SourceError';
}

/** The body is longer than the page reads: the image's fault. */
export class SourceTooLargeError extends Error {
  override readonly name = 'SourceTooLargeError';
}

/** Fetches `url` (no credentials, no cache, no redirect) and reads at most `maxBytes` of it. */
export async function readSource(url: string, maxBytes: number, type = ''): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'omit', cache: 'no-store', redirect: 'error' });
  } catch {
    throw new SourceError('The image bytes could not be fetched.');
  }
  if (!response.ok || !response.body) {
    throw new SourceError(`The image bytes were refused (${response.status}).`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!Number.isSafeInteger(declared) || declared < 0) {
    void response.body.cancel().catch(() => undefined);
    throw new SourceError('The image bytes came without their length.');
  }
  if (declared > maxBytes) {
    void response.body.cancel().catch(() => undefined);
    throw new SourceTooLargeError(`The image is larger than ${maxBytes} bytes.`);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new SourceError('The image bytes stopped arriving.');
  }
  if (blob.size !== declared) throw new SourceError('The image bytes did not all arrive.');
  return type === '' ? blob : blob.slice(0, blob.size, type);
}
