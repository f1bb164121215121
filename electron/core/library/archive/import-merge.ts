/**
 * Adds an incoming task's images to the task the library already has: each image whose bytes
 * (SHA-256) are already one of the task's images is a duplicate; a different one is added under
 * the next free `image-<n>` name, its file published with a hard link (which fails rather than
 * replace a file). A file already at that name with the same bytes is that image, left by an
 * import whose record was never written: it is taken as it is, not copied a second time.
 *
 * When the sidecar or the history cannot take the new images (a full disk), the files published
 * here are removed again and the sidecar put back, so no image stays without its record.
 */
import { link, lstat, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { MAX_IMAGES_PER_TASK } from '../../../../shared/domain/limits';
import { sentence } from '../../../../shared/i18n/sentence';
import { systemErrorCode } from '../../errors';
import {
  ensureFolder,
  readRegularFile,
  removeFile,
  removeQuietly,
  resolveInside,
  tempPath,
  writeFileAtomic,
} from '../../fs';
import {
  imageNames,
  MAX_XMP_SIDECAR_BYTES,
  SIDECAR_NAME,
  sidecarText,
  syncXmpSidecars,
  taskFolderName,
} from '../../gallery';
import { isAbort, refusal, throwIfAborted, type Refusal } from './archive-errors';
import {
  pickImage,
  stageOptions,
  xmpSyncOptions,
  type ImportContext,
  type TaskOutcome,
} from './import-context';
import { stageImage, type StagedImage } from './import-image';
import { stageXmp } from './import-xmp';
import type { PlannedImage, PlannedTask } from './import-plan';
import { savedImage } from './import-records';
import { sha256Of } from './stream-copy';
import { recordWithCleanTriage, withMergedTriage } from '../../../../shared/domain/triage-edits';
import { addDropped, type TriageDropped } from '../../history';
import { cleanedRecord, droppedOf } from './import-triage';
import { carriesKeptKey } from './import-kept-id';
import { MergedPacket, type PacketMerge } from './import-merge-packet';

/**
 * The SHA-256 of each saved image file of `record`, with the image's position; a file that
 * cannot be read is left out.
 */
async function savedHashes(
  root: string,
  record: TaskRecord,
  maxBytes: number,
): Promise<Map<string, number>> {
  const hashes = new Map<string, number>();
  for (const [position, image] of record.images.entries()) {
    if (image.state !== 'saved' || !image.file) continue;
    const hash = await fileHash(root, resolveInside(root, image.file), maxBytes);
    if (hash !== null) hashes.set(hash, position);
  }
  return hashes;
}

/**
 * The SHA-256 of the regular file at `path` inside `root`; null when it is missing or unsafe to
 * read.
 */
async function fileHash(root: string, path: string, maxBytes: number): Promise<string | null> {
  try {
    return sha256Of(await readRegularFile(root, path, maxBytes));
  } catch {
    return null;
  }
}

/**
 * Publishes `temp` as `target` only if nothing is there (a hard link never replaces a file):
 * `published`; `same` when a file with the bytes `sha256` is there already; else `taken`.
 */
async function publishNew(
  root: string,
  temp: string,
  target: string,
  sha256: string,
  maxBytes: number,
): Promise<'published' | 'same' | 'taken'> {
  const there = async () =>
    (await fileHash(root, target, maxBytes)) === sha256 ? ('same' as const) : ('taken' as const);
  try {
    await link(temp, target);
    await removeQuietly(temp);
    return 'published';
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'EEXIST') return there();
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  }
  // A file system without hard links (FAT): look, then rename; a race here needs a local writer.
  const taken = await lstat(target).then(
    () => true,
    () => false,
  );
  if (taken) return there();
  await rename(temp, target);
  return 'published';
}

interface Merge extends PacketMerge {
  readonly xmps: PlannedTask['xmps'];
  readonly folder: string;
  /** The task's images' SHA-256, with their positions (-1: added by this merge). */
  readonly hashes: Map<string, number>;
  /** Incoming images the task has already, by the position of the library's: their triage. */
  readonly triage: Map<number, ImageRecord>;
  readonly added: ImageRecord[];
  /** Absolute paths of the files this merge published (what an undo removes). */
  readonly published: string[];
  readonly refused: Refusal[];
  duplicates: number;
}

/**
 * The incoming image's XMP sidecar beside its new name, never over a file (a file already there
 * with other bytes stays); whether it came.
 */
async function mergeXmp(
  merge: Merge,
  image: ImageRecord,
  target: string,
  context: ImportContext,
): Promise<boolean> {
  const temp = tempPath(context.root, '.import');
  try {
    const xmp = await stageXmp(merge.xmps, image, temp, context.signal);
    if (xmp && 'reason' in xmp) merge.refused.push(xmp);
    if (xmp === null || !('ok' in xmp)) return false;
    const placed = await publishNew(context.root, temp, target, xmp.sha256, MAX_XMP_SIDECAR_BYTES);
    if (placed === 'published') merge.published.push(target);
    return placed !== 'taken';
  } finally {
    await removeQuietly(temp);
  }
}

/**
 * Puts the thumbnail the image's check made at `path` (in the task's thumbnail folder), listed
 * with what the merge published so an undo takes it back; false when there is none (pending).
 */
async function mergeThumbnail(
  merge: Merge,
  path: string,
  staged: StagedImage,
  context: ImportContext,
): Promise<boolean> {
  if (!staged.thumbnail) return false;
  await ensureFolder(context.root, dirname(path));
  await writeFileAtomic(context.root, path, staged.thumbnail);
  merge.published.push(path);
  return true;
}

/** Adds one incoming image to an existing task under a free name, or counts it a duplicate. */
async function mergeImage(
  planned: PlannedImage,
  image: ImageRecord,
  existing: TaskRecord,
  merge: Merge,
  context: ImportContext,
): Promise<void> {
  if (planned.listed && merge.hashes.has(planned.listed.sha256)) {
    duplicateOf(merge, planned.listed.sha256, image);
    return;
  }
  const temp = tempPath(context.root, '.import');
  const staged = await stageImage(planned, temp, stageOptions(context));
  if (!staged.ok) return void merge.refused.push(refusal(planned.file.path, staged.reason));
  context.onBytes(staged.image.size);
  const incoming = { temp, planned, image, staged: staged.image };
  const packet = await MergedPacket.of(incoming, existing, merge, context.root);
  const duplicate = await packet.duplicate();
  if (duplicate !== null) {
    duplicateOf(merge, duplicate, image);
    return removeQuietly(temp);
  }
  const used = new Set([...existing.images, ...merge.added].map((known) => known.index));
  const folder = resolveInside(context.root, merge.folder);
  for (let index = 0; index < MAX_IMAGES_PER_TASK; index += 1) {
    if (used.has(index)) continue;
    const made = await packet.at(index);
    const { sha256 } = made;
    const names = imageNames(index, planned.kind);
    const placed = await publishNew(
      context.root,
      temp,
      join(folder, names.image),
      sha256,
      context.limits.maxImageBytes,
    );
    if (placed === 'taken') continue;
    if (placed === 'same') await removeQuietly(temp);
    else merge.published.push(join(folder, names.image));
    merge.hashes.set(sha256, -1);
    const xmpFile = await mergeXmp(merge, image, join(folder, names.xmp), context);
    const thumbnail = await mergeThumbnail(
      merge,
      join(folder, names.thumbnail),
      staged.image,
      context,
    );
    merge.added.push(
      savedImage(image, planned.kind, made, {
        file: `${merge.folder}/${names.image}`,
        index,
        xmpFile: xmpFile ? `${merge.folder}/${names.xmp}` : undefined,
        thumbnail: thumbnail ? `${merge.folder}/${names.thumbnail}` : undefined,
      }),
    );
    return;
  }
  await removeQuietly(temp);
  merge.refused.push(refusal(planned.file.path, sentence('error.library.taskNoRoom')));
}

/**
 * An incoming image the task has already (the same bytes): counted, and its triage merged into
 * the library's image (withMergedTriage: the newer rating and flag, tags and boards unioned).
 */
function duplicateOf(merge: Merge, sha256: string, incoming: ImageRecord): void {
  merge.duplicates += 1;
  const position = merge.hashes.get(sha256) ?? -1;
  if (position >= 0) merge.triage.set(position, incoming);
}

/** Removes the files `merge` published and puts the task's sidecar back as `existing` says. */
async function undoMerge(root: string, merge: Merge, existing: TaskRecord): Promise<void> {
  for (const file of merge.published) await removeFile(root, file).catch(() => false);
  await writeFileAtomic(
    root,
    join(resolveInside(root, merge.folder), SIDECAR_NAME),
    sidecarText({ ...existing, folder: merge.folder }),
  );
}

/** Records the images `merge` added: in the sidecar, then in the history (or takes them back). */
async function recordMerge(merge: Merge, existing: TaskRecord, context: ImportContext) {
  const { root } = context;
  const triaged = existing.images.map((image, position) => {
    const incoming = merge.triage.get(position);
    return incoming ? withMergedTriage(image, incoming) : image;
  });
  // The added images' tags and boards as the history keeps them (import-triage.ts).
  const updated = recordWithCleanTriage({
    ...existing,
    folder: merge.folder,
    images: [...triaged, ...merge.added],
  });
  const undo = () => undoMerge(root, merge, existing);
  try {
    const folder = resolveInside(root, merge.folder);
    await writeFileAtomic(root, join(folder, SIDECAR_NAME), sidecarText(updated));
    await syncXmpSidecars(updated, folder, xmpSyncOptions(root));
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
  await context.history.put(updated, undo);
}

/** Adds `task`'s images to `existing` (see the file's comment). */
export async function mergeTask(
  task: PlannedTask,
  record: TaskRecord,
  existing: TaskRecord,
  context: ImportContext,
): Promise<TaskOutcome> {
  const folder = existing.folder ?? taskFolderName(existing);
  const merge: Merge = {
    xmps: task.xmps,
    folder,
    hashes: await savedHashes(context.root, existing, context.limits.maxImageBytes),
    triage: new Map(),
    added: [],
    published: [],
    refused: [],
    duplicates: 0,
    redact: carriesKeptKey(record, context.scrubKeys),
  };
  let stopped: unknown = null;
  try {
    await ensureFolder(context.root, resolveInside(context.root, folder));
    for (const image of record.images) {
      const planned =
        image.state === 'deleted' ? undefined : pickImage(task.images, image.index, image);
      if (!planned) continue;
      throwIfAborted(context.signal);
      await mergeImage(planned, image, existing, merge, context);
    }
  } catch (error) {
    // What was published stays, and is recorded below; then the stop goes on.
    stopped = error;
  }
  const retriaged = [...merge.triage].some(([position, incoming]) => {
    const image = existing.images[position];
    return image !== undefined && withMergedTriage(image, incoming) !== image;
  });
  if (merge.added.length > 0 || retriaged) await recordMerge(merge, existing, context);
  if (stopped !== null && !isAbort(stopped)) throw stopped;
  return {
    ...(stopped === null ? {} : { stopped: true }),
    addedTask: false,
    addedImages: merge.added.length,
    duplicateTask: merge.added.length === 0,
    duplicateImages: merge.duplicates,
    refused: merge.refused,
    dropped: droppedInMerge(existing, merge),
  };
}

/**
 * The incoming tags and boards the merge did not keep: of the images added, and of those the
 * task had already (even when the library's image was left as it was).
 */
function droppedInMerge(existing: TaskRecord, merge: Merge): TriageDropped {
  let dropped = cleanedRecord({ ...existing, images: merge.added }).dropped;
  for (const [position, incoming] of merge.triage) {
    const image = existing.images[position];
    if (image)
      dropped = addDropped(dropped, droppedOf(incoming, withMergedTriage(image, incoming)));
  }
  return dropped;
}
