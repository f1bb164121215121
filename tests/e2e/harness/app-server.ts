/**
 * The two custom protocols of the app, over loopback HTTP for the chromium host: the built
 * renderer at `/` (serveAppRequest, with RENDERER_CSP as a header) and gallery files at
 * `/gallery/` (serveGalleryRequest). Each request is handed to the same code the Electron
 * protocol handlers call, with its raw path unchanged, so the same path rules apply.
 *
 * `http2`: served over HTTP/2 (TLS with a throwaway self-signed certificate, made by openssl
 * for this server only). Chromium opens at most 6 HTTP/1.1 connections to one host, so a grid
 * of 40 thumbnails waits in that queue; Electron's protocol handlers, which the app uses, have no
 * such limit. HTTP/2 carries every request on one connection, as they do: the gallery benchmark
 * uses it to time the app, not the harness's queue.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2Session } from 'node:http2';
import { join } from 'node:path';
import type { AddressInfo, Server } from 'node:net';
import { serveAppRequest } from '../../../electron/app/protocol/app-request';
import { RENDERER_CSP } from '../../../electron/app/protocol/csp';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { APP_HOST, APP_SCHEME, GALLERY_HOST } from '../../../electron/app/protocol/schemes';
import { GALLERY_SCHEME } from '../../../shared/ipc/api';
import { sendResponse, type Outgoing } from '../../support/response-bridge';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

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
  /** The keys the app holds, once known: what the Electron adapter hands the gallery protocol. */
  readonly heldKeys?: () => readonly string[] | Promise<readonly string[]>;
  /** Serve over HTTP/2 with TLS (see the file's comment); the page must accept its certificate. */
  readonly http2?: boolean;
}

type Incoming = IncomingMessage | Http2ServerRequest;

function toRequest(incoming: Incoming, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    // HTTP/2's pseudo-headers (:method, :path…) are not headers a Request can hold.
    if (typeof value === 'string' && !name.startsWith(':')) headers.set(name, value);
  }
  return new Request(url, { method: incoming.method ?? 'GET', headers });
}

async function answer(options: AppServerOptions, incoming: Incoming): Promise<Response> {
  const path = incoming.url ?? '/';
  if (path === GALLERY_PREFIX || path.startsWith(`${GALLERY_PREFIX}/`)) {
    const url = `${GALLERY_SCHEME}://${GALLERY_HOST}${path.slice(GALLERY_PREFIX.length)}`;
    return serveGalleryRequest(toRequest(incoming, url), options.galleryDir(), {
      ...(options.heldKeys ? { heldKeys: options.heldKeys } : {}),
    });
  }
  const url = `${APP_SCHEME}://${APP_HOST}${path}`;
  return serveAppRequest(toRequest(incoming, url), options.rendererRoot, RENDERER_CSP);
}

function handler(options: AppServerOptions) {
  return (incoming: Incoming, outgoing: Outgoing): void => {
    answer(options, incoming)
      .then((response) => sendResponse(response, outgoing))
      .catch(() => {
        if (!outgoing.headersSent) (outgoing as ServerResponse).writeHead(500);
        outgoing.end();
      });
  };
}

/** A key and a certificate for 127.0.0.1, valid two days, made afresh and never written to the repository. */
function throwawayCertificate(): { key: Buffer; cert: Buffer } {
  const dir = tempFolderSync('harness-tls');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    removeFolderSync(dir);
  }
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  if (options.http2) {
    const sessions = new Set<Http2Session>();
    const server = createSecureServer(throwawayCertificate(), handler(options));
    server.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    const origin = `https://127.0.0.1:${await listen(server)}`;
    return {
      origin,
      galleryBase: `${origin}${GALLERY_PREFIX}/`,
      close: () =>
        new Promise<void>((resolve) => {
          for (const session of sessions) session.destroy();
          server.close(() => resolve());
        }),
    };
  }
  const server = createServer(handler(options));
  const origin = `http://127.0.0.1:${await listen(server)}`;
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
