/**
 * The two custom protocols of the app, over loopback HTTP for the chromium host: the built
 * renderer at `/` (serveAppRequest, with RENDERER_CSP as a header) and gallery files at
 * `/gallery/` (serveGalleryRequest). Each request is handed to the same code the Electron
 * protocol handlers call, with its raw path unchanged, so the same path rules apply.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { serveAppRequest } from '../../../electron/core/protocol/app-request';
import { RENDERER_CSP } from '../../../electron/core/protocol/csp';
import { serveGalleryRequest } from '../../../electron/core/protocol/gallery-request';
import { APP_HOST, APP_SCHEME, GALLERY_HOST } from '../../../electron/core/protocol/schemes';
import { GALLERY_SCHEME } from '../../../shared/ipc/api';

const GALLERY_PREFIX = '/gallery';

export interface AppServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Where the page loads gallery files from (`window.pictor.galleryBase`). */
  readonly galleryBase: string;
  close(): Promise<void>;
}

export interface AppServerOptions {
  /** The built renderer: the test build's dist/renderer (tests/support/test-build.ts). */
  readonly rendererRoot: string;
  /** The gallery folder now: read per request, as the user may move it. */
  readonly galleryDir: () => string;
}

function toRequest(incoming: IncomingMessage, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(url, { method: incoming.method ?? 'GET', headers });
}

async function answer(options: AppServerOptions, incoming: IncomingMessage): Promise<Response> {
  const path = incoming.url ?? '/';
  if (path === GALLERY_PREFIX || path.startsWith(`${GALLERY_PREFIX}/`)) {
    const url = `${GALLERY_SCHEME}://${GALLERY_HOST}${path.slice(GALLERY_PREFIX.length)}`;
    return serveGalleryRequest(toRequest(incoming, url), options.galleryDir());
  }
  const url = `${APP_SCHEME}://${APP_HOST}${path}`;
  return serveAppRequest(toRequest(incoming, url), options.rendererRoot, RENDERER_CSP);
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    outgoing.end();
    return;
  }
  Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
    .on('error', () => outgoing.destroy())
    .pipe(outgoing);
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const server = createServer((incoming, outgoing) => {
    answer(options, incoming)
      .then((response) => send(response, outgoing))
      .catch(() => {
        if (!outgoing.headersSent) outgoing.writeHead(500);
        outgoing.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    galleryBase: `${origin}${GALLERY_PREFIX}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
