/**
 * `pictor-app://app/<path>`: the built renderer bundle (dist/renderer) and nothing else, every
 * response with the renderer's CSP. The same path rules as the gallery apply. Files are read
 * whole: they are small, and `readFile` is the call Electron serves from inside app.asar
 * (with its integrity check) without extracting to a temp file.
 */
import { promises as fs } from 'node:fs';
import { RENDERER_CSP } from './csp';
import { APP_HOST, APP_SCHEME } from './schemes';
import { parseRequestPath, refuse, type ProtocolRefusal } from './request-path';
import { READ_METHODS, appHeaders, methodNotAllowed, refusalResponse } from './responses';
import { resolveServedFile, type ServeRules, type ServedFile } from './served-file';

/** What a Vite build emits; anything else in the folder is not served. */
const APP_CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.json', 'application/json'],
  ['.map', 'application/json'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.webp', 'image/webp'],
  ['.gif', 'image/gif'],
  ['.ico', 'image/x-icon'],
  ['.woff', 'font/woff'],
  ['.woff2', 'font/woff2'],
  ['.ttf', 'font/ttf'],
  ['.txt', 'text/plain; charset=utf-8'],
  // The image page's Content Credentials module (electron/image-renderer/c2pa-worker.ts).
  ['.wasm', 'application/wasm'],
]);

const APP_RULES: ServeRules = { contentTypes: APP_CONTENT_TYPES };

/** The page an empty path means. */
const APP_INDEX = 'index.html';

/**
 * Decides which bundle file a request names (an empty path means index.html), or why not.
 * `host`: the app's (default) or the image renderer page's.
 */
export async function resolveAppRequest(
  root: string,
  requestUrl: string,
  host: string = APP_HOST,
): Promise<ServedFile | ProtocolRefusal> {
  const parsed = parseRequestPath(requestUrl, APP_SCHEME, host, APP_INDEX);
  if (!parsed.ok) return parsed;
  return resolveServedFile(root, parsed.segments, APP_RULES);
}

/**
 * Answers one request for the renderer bundle under `root` (the dist/renderer folder), or, with
 * the image page's host and policy, for the image renderer's page.
 */
export async function serveAppRequest(
  request: Request,
  root: string,
  csp: string = RENDERER_CSP,
  host: string = APP_HOST,
): Promise<Response> {
  if (!READ_METHODS.has(request.method)) return methodNotAllowed();
  const served = await resolveAppRequest(root, request.url, host);
  if (!served.ok) return refusalResponse(served);
  const body = await fs.readFile(served.file).catch(() => null);
  if (body === null) return refusalResponse(refuse(404, 'No such file.'));
  const headers = appHeaders(served.contentType, csp);
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}
