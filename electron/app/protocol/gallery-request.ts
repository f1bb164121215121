/**
 * `pictor-gallery://gallery/<root-relative path>`: images and thumbnails from the gallery folder
 * and nothing else; in the input store's folder (`inputs/`), only a stored input by its name
 * (`inputs/<sha256>.<png|jpg|webp>`), read-only like the rest. The decision (`resolveGalleryRequest`) and the response (`serveGalleryRequest`)
 * are plain Node; the Electron adapter only hands requests over. While the app holds a key, what
 * is served is judged on its bytes first (held-key-file.ts): the page never receives a held key
 * from an image's metadata.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import type { FileHandle } from 'node:fs/promises';
import { bytesBody, fileBody, StreamSlots, TEMP_DIR } from '../../core/fs';
import { INPUTS_DIR } from '../../core/inputs';
import { GALLERY_HOST } from './schemes';
import { GALLERY_SCHEME } from '../../../shared/ipc/api';
import { parseRequestPath, refuse, type ProtocolRefusal } from './request-path';
import {
  READ_METHODS,
  busyResponse,
  etagMatches,
  fileEtag,
  galleryHeaders,
  methodNotAllowed,
  notModified,
  refusalResponse,
} from './responses';
import {
  askServedFile,
  openServedFile,
  readExactly,
  type AskedFile,
  type ServeRules,
} from './served-file';
import { ReadBudget } from './read-budget';
import { RealRoots } from './real-roots';
import { heldKeyFile } from './held-key-file';
import { scrubKey } from '../../core/secrets';

/** Only the image kinds the gallery writes (and its WebP thumbnails). */
const GALLERY_CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.png', 'image/png'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.webp', 'image/webp'],
]);

/** A stored input's name in `inputs/` (core/inputs/input-store.ts). */
const STORED_INPUT = /^[0-9a-f]{64}\.(?:png|jpg|webp)$/;

/**
 * The temp folder, anywhere (half-written downloads live there; they are not images yet), and in
 * the input store's folder only a stored input by its name, one level deep. Folder names in any
 * case: a case-insensitive disk opens `.PICTOR-TMP` as the temp folder. Judged on the request
 * and on the real file's path (served-file.ts), so no link or short name leads around them.
 */
function refuseGalleryPath(segments: readonly string[]): ProtocolRefusal | null {
  if (segments.some((segment) => segment.toLowerCase() === TEMP_DIR)) {
    return refuse(403, 'The path names a folder that is not served.');
  }
  const [first, name, ...deeper] = segments;
  if (
    first?.toLowerCase() === INPUTS_DIR &&
    (deeper.length > 0 || !STORED_INPUT.test(name ?? ''))
  ) {
    return refuse(403, 'The path names no stored input.');
  }
  return null;
}

const GALLERY_RULES: ServeRules = {
  contentTypes: GALLERY_CONTENT_TYPES,
  refusePath: refuseGalleryPath,
};

/**
 * Files up to this size are read in one call and sent from memory (a thumbnail, most images):
 * one trip through the thread pool instead of a stream's several. Larger ones are streamed.
 */
export const READ_WHOLE_BYTES = 1024 * 1024;

/**
 * The process's one bound on files read whole and not yet taken by the page (read-budget.ts):
 * 32 MiB in at most 64 reads. A page's grid of thumbnails (tens of KiB each) fits many times;
 * past it, requests are streamed.
 */
export const GALLERY_READS = new ReadBudget(32 * 1024 * 1024, 64);

/**
 * The process's one bound on open gallery files (core/fs/stream-slots.ts): 16 at once. A request
 * takes a slot before it opens its file; a file read whole gives it back once closed (behind its
 * response), a streamed one when its body ends, or after 30 s in which the page asked nothing of
 * it (a response left unread).
 * Past 16, requests wait holding no file; past 4,096 waiting (a grid shows a few hundred images at
 * most), they are answered 503.
 */
export const GALLERY_STREAMS = new StreamSlots(16, { maxWaiting: 4096, idleMs: 30_000 });

/** The gallery folder's real path, one lookup for a screen's burst of requests (real-roots.ts). */
const GALLERY_ROOTS = new RealRoots();

/**
 * Which file a gallery request asks for, or why it is refused as asked: 400 for a malformed or
 * foreign address, 403 for a path that would leave the folder or is not an image's, 404 when there
 * is no gallery folder. Where the file really is (a link, a folder link), and whether it is a
 * regular file, is judged on what `serveGalleryRequest` opens (served-file.ts `openServedFile`).
 */
export async function resolveGalleryRequest(
  root: string,
  requestUrl: string,
  roots: RealRoots = GALLERY_ROOTS,
): Promise<AskedFile | ProtocolRefusal> {
  const parsed = parseRequestPath(requestUrl, GALLERY_SCHEME, GALLERY_HOST);
  if (!parsed.ok) return parsed;
  return askServedFile(root, parsed.segments, GALLERY_RULES, (at) => roots.of(at));
}

export interface GalleryServeOptions {
  /**
   * The keys the app holds, once they are known (the page's guard: app/kept-id-page.ts
   * `heldKeys`): a request waits for them, holding nothing. Absent: none (tests of the serving
   * alone; the app's adapter always gives them).
   */
  readonly heldKeys?: () => readonly string[] | Promise<readonly string[]>;
  /** Test seam: runs between the decision and the open (where a swapped folder would strike). */
  readonly beforeOpen?: () => Promise<void>;
  /** Default {@link GALLERY_READS}. */
  readonly reads?: ReadBudget;
  /** Default {@link GALLERY_STREAMS}. */
  readonly streams?: StreamSlots;
  /** Default: the process's one cache of the gallery folder's real path. */
  readonly roots?: RealRoots;
}

/**
 * The file whole from one read, if its bytes fit in the budget (else null: it is streamed). The
 * bytes are given back to the budget when the page has taken the last piece and asked for more.
 */
async function wholeFile(
  handle: FileHandle,
  size: number,
  headers: HeadersInit,
  reads: ReadBudget,
): Promise<Response | null> {
  // size + 1: readExactly reads one byte more, to see a file that grew.
  const giveBack = reads.tryTake(size + 1);
  if (!giveBack) return null;
  let bytes: Buffer | null;
  try {
    bytes = await readExactly(handle, size);
  } catch (error) {
    giveBack();
    throw error;
  }
  // Sent as fstat saw it: a file that grew or shrank since is refused, never cut or padded.
  if (bytes === null) {
    giveBack();
    return refusalResponse(refuse(404, 'No such file.'));
  }
  return new Response(bytesBody(bytes, giveBack), { status: 200, headers });
}

async function streamFile(
  request: Request,
  root: string,
  asked: AskedFile,
  options: GalleryServeOptions & { readonly keys: readonly string[] },
): Promise<Response> {
  // A slot before the open: a request waiting for one holds no file.
  const slot = await (options.streams ?? GALLERY_STREAMS).take();
  if (!slot) return busyResponse();
  // Opened first, then checked: what is served is what was verified, not what was resolved.
  const served = await openServedFile(root, asked, GALLERY_RULES);
  if (!served.ok) {
    slot.release();
    return refusalResponse(served);
  }
  const { opened, contentType } = served;
  const { handle, size } = opened;
  let handOver = false;
  try {
    const { keys } = options;
    if (keys.length > 0) {
      const scrub = (text: string) => scrubKey(text, keys);
      const reads = options.reads ?? GALLERY_READS;
      return await heldKeyFile(request, opened, { contentType, scrub, reads });
    }
    const etag = fileEtag(opened);
    const headers = galleryHeaders(contentType, etag, size);
    if (etagMatches(request.headers.get('if-none-match'), etag)) {
      return notModified(etag);
    }
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    if (size <= READ_WHOLE_BYTES) {
      const whole = await wholeFile(handle, size, headers, options.reads ?? GALLERY_READS);
      if (whole) return whole;
    }
    // Streamed: read a piece at a time. The body closes the handle and gives the slot back.
    handOver = true;
    return new Response(fileBody(handle, size, slot), { status: 200, headers });
  } catch {
    return refusalResponse(refuse(404, 'No such file.'));
  } finally {
    // Closed behind the response (it is sent from memory): the page need not wait for the
    // close's trip through the thread pool. The slot, a bound on open files, waits for it.
    if (!handOver) {
      void handle
        .close()
        .catch(() => undefined)
        .finally(() => slot.release());
    }
  }
}

/**
 * The tracing channel each gallery request's answer is traced on (node:diagnostics_channel):
 * `start` as it comes in, `asyncEnd` as its response is given. Nothing in the app listens (a
 * channel no one listens to costs a check); the gallery bench does, to tell main's own time per
 * thumbnail from the machine's.
 */
export const GALLERY_REQUEST_TRACE = 'pictor:gallery-request';

const trace = tracingChannel<object, { readonly url: string }>(GALLERY_REQUEST_TRACE);

/**
 * Answers one gallery request. `root` is read per request: the user may move the gallery.
 * Never falls back to file://, never serves anything `resolveGalleryRequest` refuses.
 */
export function serveGalleryRequest(
  request: Request,
  root: string,
  options: GalleryServeOptions = {},
): Promise<Response> {
  // Without a listener, tracePromise only calls the function.
  return trace.tracePromise(() => answerGalleryRequest(request, root, options), {
    url: request.url,
  });
}

async function answerGalleryRequest(
  request: Request,
  root: string,
  options: GalleryServeOptions,
): Promise<Response> {
  if (!READ_METHODS.has(request.method)) return methodNotAllowed();
  const asked = await resolveGalleryRequest(root, request.url, options.roots);
  if (!asked.ok) return refusalResponse(asked);
  // Known before a slot is taken: a request waiting for the vault's first answer holds no file.
  const keys = (await options.heldKeys?.()) ?? [];
  await options.beforeOpen?.();
  return streamFile(request, root, asked, { ...options, keys });
}
