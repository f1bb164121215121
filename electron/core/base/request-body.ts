/**
 * A request body as the bytes `fetch` would send, for transports that take bytes only: the pinned
 * connection of signed uploads (download/pinned-fetch.ts) and the CLI's undici, which does not
 * know Node's own FormData and would send one as the text "[object FormData]". Node's own
 * `Response` does the encoding, so a form goes as `fetch` sends it: multipart/form-data, parts in
 * order, each file with its name and type, under a fresh boundary.
 */

/** The bytes of a body and the headers to send them with. */
export interface EncodedBody {
  readonly bytes: Uint8Array<ArrayBuffer>;
  /** The caller's headers, with the body's Content-Type (see {@link encodeBody}). */
  readonly headers: Headers;
}

/**
 * `body` encoded. A FormData's Content-Type (with its boundary) replaces any the caller set: the
 * body can only be read with that boundary. Any other body keeps the caller's Content-Type, and
 * gets its own (a Blob's type, text's `text/plain;charset=UTF-8`) only when the caller set none,
 * as `fetch` does.
 */
export async function encodeBody(body: BodyInit, headers?: HeadersInit): Promise<EncodedBody> {
  const encoded = new Response(body);
  const sent = new Headers(headers);
  const type = encoded.headers.get('content-type');
  if (type !== null && (body instanceof FormData || !sent.has('content-type'))) {
    sent.set('content-type', type);
  }
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), headers: sent };
}
