/**
 * A rebuild's (or an opened folder's: relocate-open.ts) task kept under a key-carrying id has its
 * folder made again from the redacted record before it joins the history (archive/
 * import-kept-id.ts). A copy of that folder elsewhere in the gallery (a user's backup copy, a
 * sync tool's "conflicted copy") is skipped as another sidecar or folder of the same task
 * (rebuild.ts), so it was never redacted: its `pictor.json`, its images' metadata and a signed
 * image's XMP file kept the key, and no sweep would find them afterwards (the history's id no
 * longer carries it). Each such copy is made again from its own record, the id redacted, in
 * place: a copy with its sidecar as a task folder is (its images matched with the files beside
 * it, rebuild.ts `readTaskFolder`), a copy without one only its images' packets (it keeps having
 * no sidecar, as it was found).
 *
 * A folder whose files cannot be written (read-only, a full disk) keeps them as they are, and the
 * rebuild says so in its notes, once per folder, naming the folder and the error's code (the app
 * logs its notes; `pictor rebuild` prints them), never the id or the key.
 */
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { errorCode, resolveInside } from '../fs';
import { limiter } from '../base';
import { IMAGE_MIME, type ImageKind } from '../images';
import {
  imageFileCandidates,
  kindOfImage,
  readFileProvenance,
  readPacketProvenance,
  readSidecarIfAny,
  recoverFromImages,
} from '../gallery';
import {
  type KeptIdScrubber,
  redactKeptFolder,
  remakeStagedImages,
  withKeptIdRedacted,
} from './archive/import-kept-id';
import { readTaskFolder, type Skipped } from './rebuild';
import { IMAGE_READS, MAX_IMAGE_FILE_BYTES } from './rebuild-rules';
import { SAME_TASK_FOLDER, SAME_TASK_SIDECAR, skippedFor } from './rebuild-rules';

const KINDS: readonly ImageKind[] = ['png', 'jpeg', 'webp'];

/** The note of a kept task's folder whose files could not be made again. */
function unwrittenNote(folder: string, error: unknown): Skipped {
  const code = errorCode(error);
  return {
    path: folder,
    reason: `This task's service id carried an API key Pictor holds. The history has it redacted, but the files in this folder could not be written${code === undefined ? '' : ` (${code})`} and still hold the key.`,
  };
}

/** A file of the task's folder could not be made again: it still says its old id. */
class KeptIdLeftError extends Error {}

/** The task id a saved image's own metadata (or its signed file's XMP beside it) says, if any. */
async function idSaid(root: string, file: string, xmpFile: string | undefined, kind: string) {
  const read = xmpFile
    ? readPacketProvenance(await readSidecarIfAny(root, resolveInside(root, xmpFile)))
    : await readFileProvenance(
        root,
        resolveInside(root, file),
        kind as 'png',
        MAX_IMAGE_FILE_BYTES,
      );
  return read.ok ? read.provenance.taskId : undefined;
}

/**
 * Throws when a saved image of `record` (its folder made again from the redacted record) still
 * says a task id that carries a key: the embedder leaves a file it cannot write as it was.
 */
async function checkRedacted(record: TaskRecord, scrub: KeptIdScrubber, root: string) {
  for (const image of record.images) {
    const kind = kindOfImage(image);
    if (image.state !== 'saved' || image.file === undefined || kind === undefined) continue;
    const said = await idSaid(root, image.file, image.xmpFile, kind).catch(() => undefined);
    if (said !== undefined && scrub(said) !== said) throw new KeptIdLeftError();
  }
}

/**
 * `found`'s folder made again from its redacted record (archive/import-kept-id.ts
 * `redactKeptFolder`) and checked; the redacted record, with the folder's note when its files
 * could not all be written; `null` when its id carries no key.
 */
export async function redactedInPlace(
  found: TaskRecord,
  scrub: KeptIdScrubber,
  root: string,
): Promise<{ readonly record: TaskRecord; readonly note?: Skipped } | null> {
  const clean = withKeptIdRedacted(found, scrub);
  if (clean === null) return null;
  try {
    const record = (await redactKeptFolder(found, scrub, root)) ?? clean;
    await checkRedacted(record, scrub, root);
    return { record };
  } catch (error) {
    return { record: clean, note: unwrittenNote(folderOf(found), error) };
  }
}

const folderOf = (record: TaskRecord) => record.folder ?? '.';

/** The copy of a task's folder that a skipped entry names, read by the rebuild's rules. */
async function copyOf(root: string, skip: Skipped): Promise<TaskRecord | null> {
  if (skippedFor(skip, SAME_TASK_SIDECAR)) {
    return readTaskFolder(root, resolveInside(root, dirname(skip.path)));
  }
  if (!skippedFor(skip, SAME_TASK_FOLDER)) return null;
  const read = await recoverFromImages(root, skip.path, {
    maxBytes: MAX_IMAGE_FILE_BYTES,
    reads: limiter(IMAGE_READS),
  });
  return read.ok ? withFilesIn(read.record, root, skip.path) : null;
}

/** `record`'s images (read from their own metadata) matched with their files in `folder`. */
async function withFilesIn(record: TaskRecord, root: string, folder: string): Promise<TaskRecord> {
  const present = new Set(await readdir(resolveInside(root, folder)));
  const images = record.images.map((image) => {
    const [found] = imageFileCandidates(image.index, KINDS, present);
    if (!found) return image;
    return { ...image, file: `${folder}/${found.name}`, mime: IMAGE_MIME[found.kind] };
  });
  return { ...record, images };
}

/**
 * Makes every copy among the rebuild's `skipped` entries whose task id carries a key `scrub`
 * takes out again from its redacted record (see the module comment); the notes of the folders
 * that could not be written.
 */
export async function redactKeptCopies(
  skipped: readonly Skipped[],
  scrub: KeptIdScrubber,
  root: string,
): Promise<Skipped[]> {
  const notes: Skipped[] = [];
  for (const skip of skipped) {
    const copy = await copyOf(root, skip).catch(() => null);
    if (copy === null || withKeptIdRedacted(copy, scrub) === null) continue;
    const folder = skippedFor(skip, SAME_TASK_SIDECAR) ? dirname(skip.path) : skip.path;
    try {
      const clean = withKeptIdRedacted(copy, scrub) ?? copy;
      if (skippedFor(skip, SAME_TASK_SIDECAR)) await redactKeptFolder(copy, scrub, root);
      else await remakeStagedImages(clean, root, resolveInside(root, folder), folder);
      await checkRedacted(clean, scrub, root);
    } catch (error) {
      notes.push(unwrittenNote(folder, error));
    }
  }
  return notes;
}
