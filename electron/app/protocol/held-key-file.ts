/**
 * A gallery file served while the app holds a key. The page may be compromised, and a file in the
 * gallery may carry a held key in its own metadata: a task kept under an id that carries one
 * (Pictor's packet names the id) until the sweep (app/kept-key-sweep.ts) rewrites its images, an
 * image saved before downloads were searched, an image whose echo of a key was saved before that
 * key was entered, a file put in the folder by hand. The protocol serves by path, with no task to
 * judge, so it judges the bytes: each file is read whole and handed out as Save as and a drag do
 * (core/gallery/outgoing-file.ts `outgoingBytes`, the one decision): as it is when it carries no
 * key, else without the metadata that carries one (the pixels the same); a key where nothing can
 * go is a refusal. With no key held, nothing of this runs (gallery-request.ts streams as before).
 *
 * The bytes served are what the page receives whole: a Range is answered with all of them as a
 * 200, as every gallery file is; the validator is the file's when it is served as it is and one
 * of the bytes served when it is not, so a copy the page kept of the file as it was is never
 * confirmed by a 304. Held whole like a small file, within the protocol's read budget, or within
 * {@link HELD_KEY_READS} (two of the largest image at once) when the budget is full or the file
 * larger than it; past both, 503 (the page may ask again).
 */
import { createHash } from 'node:crypto';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { bytesBody, type OpenedRegularFile } from '../../core/fs';
import { outgoingBytes } from '../../core/gallery';
import type { MetadataKeyScrubber } from '../../core/images';
import { ReadBudget } from './read-budget';
import { refuse } from './request-path';
import {
  busyResponse,
  etagMatches,
  fileEtag,
  galleryHeaders,
  notModified,
  refusalResponse,
} from './responses';
import { readExactly } from './served-file';

/** Reads of files too large for the protocol's budget while a key is held (see the file's comment). */
const HELD_KEY_READS = new ReadBudget(2 * (GALLERY_MAX_IMAGE_BYTES + 1), 2);

/** The validator of bytes that are not the file's: its own and a digest of what is served. */
function servedEtag(opened: OpenedRegularFile, served: Buffer): string {
  const digest = createHash('sha256').update(served).digest('hex').slice(0, 16);
  return `${fileEtag(opened).slice(0, -1)}-${digest}"`;
}

interface Served {
  readonly bytes: Buffer;
  readonly etag: string;
}

/** What to answer of the file's `bytes`: a response without them, or the bytes to send. */
function decide(
  request: Request,
  opened: OpenedRegularFile,
  bytes: Buffer,
  { contentType, scrub }: HeldKeyServing,
): Response | Served {
  let out: Buffer;
  try {
    out = outgoingBytes(bytes, scrub);
  } catch {
    return refusalResponse(refuse(403, 'The image carries a key that cannot be removed.'));
  }
  const etag = out === bytes ? fileEtag(opened) : servedEtag(opened, out);
  if (etagMatches(request.headers.get('if-none-match'), etag)) return notModified(etag);
  if (request.method !== 'HEAD') return { bytes: out, etag };
  return new Response(null, {
    status: 200,
    headers: galleryHeaders(contentType, etag, out.length),
  });
}

interface HeldKeyServing {
  readonly contentType: string;
  /** Takes out the keys held. */
  readonly scrub: MetadataKeyScrubber;
  /** The protocol's budget of files read whole. */
  readonly reads: ReadBudget;
}

/** The response to a gallery request for `opened` (its open handle) while a key is held. */
export async function heldKeyFile(
  request: Request,
  opened: OpenedRegularFile,
  serving: HeldKeyServing,
): Promise<Response> {
  const { contentType, reads } = serving;
  const { handle, size } = opened;
  // size + 1: readExactly reads one byte more, to see a file that grew.
  const giveBack = reads.tryTake(size + 1) ?? HELD_KEY_READS.tryTake(size + 1);
  if (!giveBack) return busyResponse();
  let answer: Response | Served;
  try {
    const bytes = await readExactly(handle, size);
    // Sent as fstat saw it: a file that grew or shrank since is refused, never cut or padded.
    answer =
      bytes === null
        ? refusalResponse(refuse(404, 'No such file.'))
        : decide(request, opened, bytes, serving);
  } catch (error) {
    giveBack();
    throw error;
  }
  if (answer instanceof Response) {
    giveBack();
    return answer;
  }
  return new Response(bytesBody(answer.bytes, giveBack), {
    status: 200,
    headers: galleryHeaders(contentType, answer.etag, answer.bytes.length),
  });
}
