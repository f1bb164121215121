/**
 * The one home of the bridges that serve the app's protocol handlers over loopback HTTP (the image
 * page's stand, tests/support/image-page-stand.ts, and the journeys' app server,
 * tests/e2e/harness/app-server.ts): what a handler returns, a WHATWG Response, sent on a node:http
 * or node:http2 response. A body the product errors mid-way (the image page left a job's file
 * unread past its slot's idle time: "The page left the file unread.") ends that one request, as
 * it ends the protocol request in Electron, instead of an unhandled 'error' that ends the process.
 */
import type { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** A bridge's answer to one request: HTTP/1.1's or HTTP/2's. */
export type Outgoing = ServerResponse | Http2ServerResponse;

/** Sends `response` (status, headers, body) on `outgoing`; a body that errors ends it as failed. */
export function sendResponse(response: Response, outgoing: Outgoing): void {
  (outgoing as ServerResponse).writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    outgoing.end();
    return;
  }
  Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
    // With the error: over HTTP/2 a destroy without one resets the stream as "no error", and
    // the client took the bytes so far for the whole body.
    .on('error', (error) => outgoing.destroy(error))
    .pipe(outgoing as NodeJS.WritableStream);
}
