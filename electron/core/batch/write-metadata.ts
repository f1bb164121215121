/**
 * "Write metadata to files": the chosen images' rating and tags written into the gallery files
 * themselves (gallery/metadata/embed-triage.ts), for tools that read XMP only from inside an image.
 * Each file is rewritten atomically (a new file in Pictor's temp folder, synced, renamed over it)
 * and its record then says its new size. A file with Content Credentials is never edited: it is
 * counted, and its triage stays in its XMP sidecar (kept by every write of the task's sidecar).
 *
 * A write holds its file open, its walk's windows (a quarter MiB each, a packet of up to 1 MiB) and
 * its edited copy's temporary file, asked for by a request a few characters long: a compromised
 * page's 200 calls at once had main hold 400 files open, and a few thousand would take every
 * descriptor the process may have. So the images of every call in the process are written
 * {@link FILES_AT_ONCE} at a time, in the order asked, the others waiting their turn holding
 * nothing.
 */
import type { ImageRecord } from '../../../shared/domain/task-record';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import { type ClosingGate, inTurn, limiter, nextTurn } from '../base';
import { codeOrMessage } from '../errors';
import {
  distinctImages,
  editImage,
  embedTriageInFile,
  findImage,
  type ImageRecords,
  type ImageRef,
  kindOfImage,
  savedFile,
} from '../gallery';
import type { ExportGallery } from './export-copy';

export interface WriteMetadataDeps {
  /** The records the images live in (the engine: an edit writes the record and its sidecar). */
  readonly records: ImageRecords;
  readonly gallery: ExportGallery;
  readonly logger?: Logger;
  /** After each image, written or not: how many of `total` are done. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops before the next image; the files already written stay written. */
  readonly signal?: AbortSignal;
}

export interface WriteMetadataOutcome {
  /** Files rewritten with the triage in them. */
  readonly written: number;
  /** Files whose XMP already said it (or that never took a rating or a tag and have none). */
  readonly unchanged: number;
  /** Files with Content Credentials, left byte for byte as they are: their XMP sidecar has it. */
  readonly withCredentials: number;
  /** Images not in the gallery, not saved, or whose file could not take the edit. */
  readonly failed: number;
}

/** Images between two turns of the event loop. */
const TURN_EVERY = 64;

/** Images written into their files at once, whatever the calls. */
const FILES_AT_ONCE = 2;

/** Runs one image's write once fewer than FILES_AT_ONCE others run (every call's, this process). */
const writing = limiter(FILES_AT_ONCE);

type Counted = Exclude<keyof WriteMetadataOutcome, 'failed'> | { readonly failed: string };

async function writeOne(deps: WriteMetadataDeps, ref: ImageRef): Promise<Counted> {
  const { record, image } = findImage(deps.records, ref);
  const path = savedFile(deps.gallery, image);
  const kind = kindOfImage(image);
  // A sidecar named in the record is Pictor's packet beside a signed file.
  if (image.xmpFile !== undefined) return 'withCredentials';
  if (kind === undefined) return { failed: 'not an image kind that takes XMP' };
  const result = await embedTriageInFile(
    path,
    { record, image, kind },
    {
      root: deps.gallery.root,
      maxBytes: GALLERY_MAX_IMAGE_BYTES,
      appVersion: deps.gallery.appVersion ?? 'unknown',
    },
  );
  if ('credentials' in result) return 'withCredentials';
  if ('unchanged' in result) return 'unchanged';
  if ('refused' in result) return { failed: result.refused };
  const sameFile = (now: ImageRecord): ImageRecord =>
    now.file === image.file ? { ...now, bytes: result.written } : now;
  editImage(deps.records, ref, sameFile);
  return 'written';
}

/**
 * Writes each named image's rating and tags into its gallery file, one image after the other;
 * one image failing does not stop the rest. Failures are logged once per reason with their
 * number, not once per image: a selection of 100,000 refs naming nothing is one log line.
 */
export async function writeMetadataToFiles(
  deps: WriteMetadataDeps,
  refs: readonly ImageRef[],
): Promise<WriteMetadataOutcome> {
  const counts = { written: 0, unchanged: 0, withCredentials: 0, failed: 0 };
  const failures = new Map<string, number>();
  const distinct = distinctImages(refs);
  for (const [n, ref] of distinct.entries()) {
    if (deps.signal?.aborted) break;
    let outcome: Counted | 'stopped';
    try {
      // Stopped while it waited its turn: the image is not written, and the wait leaves the line
      // at once (the close does not wait for other calls' writes to end first).
      outcome = await inTurn(
        writing,
        async () => (deps.signal?.aborted ? 'stopped' : writeOne(deps, ref)),
        deps.signal,
        () => 'stopped' as const,
      );
    } catch (error) {
      outcome = { failed: codeOrMessage(error) };
    }
    if (outcome === 'stopped') break;
    if (typeof outcome === 'string') counts[outcome] += 1;
    else {
      counts.failed += 1;
      failures.set(outcome.failed, (failures.get(outcome.failed) ?? 0) + 1);
    }
    deps.onProgress?.(n + 1, distinct.length);
    // Refs that fail at once never reach the disk: the loop still lets the process answer.
    if (n % TURN_EVERY === TURN_EVERY - 1) await nextTurn();
  }
  for (const [reason, count] of failures) {
    (deps.logger ?? silentLogger).warn('Metadata not written into images.', { count, reason });
  }
  return counts;
}

/** "Write metadata to files" as the core gives it to every front (PictorCore.writeMetadata). */
export type MetadataWriter = (refs: readonly ImageRef[]) => Promise<WriteMetadataOutcome>;

/**
 * {@link writeMetadataToFiles} through the core's closing gate: refused with "Pictor is closing"
 * once the close has begun; one under way stops before its next image as the close begins (the
 * files written stay written, each rewritten whole), and the close waits for that stop.
 */
export function metadataWriter(
  deps: Omit<WriteMetadataDeps, 'signal' | 'onProgress'>,
  gate: Pick<ClosingGate, 'ask' | 'closing'>,
): MetadataWriter {
  return (refs) => gate.ask(() => writeMetadataToFiles({ ...deps, signal: gate.closing }, refs));
}
