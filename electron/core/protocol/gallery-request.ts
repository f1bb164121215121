/**
 * `pictor-gallery://gallery/<root-relative path>`: images and thumbnails from the gallery folder
 * and nothing else. The decision (`resolveGalleryRequest`) and the response (`serveGalleryRequest`)
 * are plain Node; the Electron adapter only hands requests over.
 */
import { constants, promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { TEMP_DIR } from '../gallery/atomic-file';
import { GALLERY_HOST, GALLERY_SCHEME } from './schemes';
import { parseRequestPath, refuse, type ProtocolRefusal } from './request-path';
import {
  READ_METHODS,
  etagMatches,
  fileEtag,
  galleryHeaders,
  methodNotAllowed,
  refusalResponse,
} from './responses';
import { resolveServedFile, type ServeRules, type ServedFile } from './served-file';

/** Only the image kinds the gallery writes (and its WebP thumbnails). */
export const GALLERY_CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.png', 'image/png'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.webp', 'image/webp'],
]);

const GALLERY_RULES: ServeRules = {
  contentTypes: GALLERY_CONTENT_TYPES,
  // Half-written downloads live there; they are not images yet.
  forbiddenSegments: [TEMP_DIR],
};

/**
 * Decides which file a gallery request names, or why it is refused: 400 for a malformed or
 * foreign address, 403 for anything that would leave the folder or is not an image, 404 when
 * there is no such image (or no gallery folder).
 */
export async function resolveGalleryRequest(
  root: string,
  requestUrl: string,
): Promise<ServedFile | ProtocolRefusal> {
  const parsed = parseRequestPath(requestUrl, GALLERY_SCHEME, GALLERY_HOST);
  if (!parsed.ok) return parsed;
  return resolveServedFile(root, parsed.segments, GALLERY_RULES);
}

/** Opens without following a symlink swapped in after the check (where the OS can). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

async function streamFile(request: Request, served: ServedFile): Promise<Response> {
  const handle = await fs.open(served.file, OPEN_FLAGS).catch(() => null);
  if (!handle) return refusalResponse(refuse(404, 'No such file.'));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error('not a file');
    const etag = fileEtag(stats);
    const headers = galleryHeaders(served.contentType, etag, stats.size);
    if (etagMatches(request.headers.get('if-none-match'), etag)) {
      await handle.close();
      return new Response(null, {
        status: 304,
        headers: { ETag: etag, 'Cache-Control': 'no-cache' },
      });
    }
    if (request.method === 'HEAD') {
      await handle.close();
      return new Response(null, { status: 200, headers });
    }
    // Streamed: a large image is never held in memory. The stream closes the handle when done.
    const body = Readable.toWeb(handle.createReadStream()) as WebReadableStream<Uint8Array>;
    return new Response(body as ReadableStream<Uint8Array>, { status: 200, headers });
  } catch {
    await handle.close().catch(() => undefined);
    return refusalResponse(refuse(404, 'No such file.'));
  }
}

/**
 * Answers one gallery request. `root` is read per request: the user may move the gallery.
 * Never falls back to file://, never serves anything `resolveGalleryRequest` refuses.
 */
export async function serveGalleryRequest(request: Request, root: string): Promise<Response> {
  if (!READ_METHODS.has(request.method)) return methodNotAllowed();
  const served = await resolveGalleryRequest(root, request.url);
  if (!served.ok) return refusalResponse(served);
  return streamFile(request, served);
}
