/**
 * Imports one task of a source into the gallery and the history, never overwriting a file:
 *
 * - A task the library does not have is assembled in a fresh folder under `.pictor-tmp` (its
 *   images copied and checked, its sidecar written) and renamed into place in one step, to a
 *   folder of Pictor's own naming that does not exist yet; then its record goes into the history.
 *   Stopped half-way, the staging folder is removed: nothing half-written stays. Should the
 *   history not take the record (a full disk), the folder is removed again (batched-history.ts).
 * - A task the library has (same local id, or same service and task id) keeps its record and
 *   files, and gains the incoming images it lacks (import-merge.ts). A task still running is left
 *   alone.
 * - A folder at the task's own name whose sidecar is this task, but which the history does not
 *   know (an earlier import stopped before its record was written), is taken into the history as
 *   the rebuild would take it, and then merged with like any task the library has: importing again
 *   never makes a second folder for it.
 */
import { lstat, mkdir, rmdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  isUnfinished,
  type ImageRecord,
  type TaskRecord,
} from '../../../../shared/domain/task-record';
import { sentence } from '../../../../shared/i18n/sentence';
import { systemErrorCode } from '../../errors';
import {
  checkContained,
  ensureFolder,
  fsyncDir,
  isWithin,
  PRIVATE_FOLDER_MODE,
  removeTree,
  renameContained,
  resolveInside,
  tempPath,
  writeNewFileSynced,
} from '../../fs';
import {
  imageNames,
  parseSidecar,
  SIDECAR_NAME,
  sidecarText,
  syncXmpSidecars,
  taskFolderName,
  withKept,
} from '../../gallery';
import { readTaskFolder } from '../rebuild';
import { skipOf } from '../rebuild-rules';
import { xmpSyncOptions } from './import-context';
import { isAbort, refusal, throwIfAborted, type Refusal } from './archive-errors';
import {
  REFUSED,
  pickImage,
  stageOptions,
  type ImportContext,
  type TaskOutcome,
} from './import-context';
import { stageImage } from './import-image';
import { carriedOf, type CarriedFields } from './import-carried';
import { mergeTask } from './import-merge';
import { stageXmp, unusedXmps } from './import-xmp';
import { withSourceXmpTriage } from './import-xmp-triage';
import type { PlannedTask } from './import-plan';
import { importedRecord, missingImage, refusedImage, savedImage } from './import-records';
import { redactKeptFolder, remakeStagedImages, withKeptIdRedacted } from './import-kept-id';
import { cleanedRecord } from './import-triage';
import { readBounded, sha256Of } from './stream-copy';

export type { ImportContext, TaskOutcome } from './import-context';

/** A task's record as its sidecar holds it, and the newer Pictor's fields it carries. */
interface ReadRecord {
  readonly record: TaskRecord;
  readonly carried: CarriedFields | null;
}

async function readRecord(
  task: PlannedTask,
  context: ImportContext,
): Promise<ReadRecord | Refusal> {
  const refused = (said: Parameters<typeof sentence>[0]): Refusal =>
    refusal(task.sidecar.path, sentence(said));
  let bytes: Buffer;
  try {
    bytes = await readBounded(
      await task.sidecar.open(),
      context.limits.maxSidecarBytes,
      context.signal,
    );
  } catch (error) {
    if (isAbort(error)) throw error;
    return refused('error.library.sidecarUnreadable');
  }
  context.onBytes(bytes.length);
  if (task.listedSidecar && task.listedSidecar.sha256 !== sha256Of(bytes)) {
    return refused('error.library.sidecarShaMismatch');
  }
  const text = bytes.toString('utf8');
  const parsed = parseSidecar(text);
  // The gallery's words for a sidecar it cannot use.
  if (!parsed.ok) return skipOf(task.sidecar.path, parsed);
  const record = await withSourceXmpTriage(parsed.record, task.xmps, context.signal);
  return { record, carried: carriedOf(text, context.scrubKeys) };
}

function sameTask(a: TaskRecord, b: TaskRecord): boolean {
  return (
    a.localId === b.localId || (!!a.taskId && a.taskId === b.taskId && a.endpoint === b.endpoint)
  );
}

/** The record of the folder `relative` when it is a real folder holding `record`'s task. */
async function leftover(root: string, relative: string, record: TaskRecord) {
  const folder = resolveInside(root, relative);
  const info = await checkContained(root, folder).catch(() => null);
  if (!info?.isDirectory()) return null;
  const found = await readTaskFolder(root, folder).catch(() => null);
  return found && sameTask(found, record) ? found : null;
}

type Place = { readonly free: string } | { readonly leftover: TaskRecord };

/**
 * Where the new task goes: Pictor's name for its folder, then `-2`, `-3`, … up to the first that
 * nothing occupies (reserved for it); or a folder on the way that already holds this task.
 */
async function placeFor(root: string, record: TaskRecord, reserved: Set<string>): Promise<Place> {
  const base = taskFolderName(record);
  for (let n = 1; n <= 100; n += 1) {
    const relative = n === 1 ? base : `${base}-${n}`;
    const taken = await lstat(resolveInside(root, relative)).then(
      () => true,
      (error: unknown) => {
        if (systemErrorCode(error) === 'ENOENT') return false;
        throw error;
      },
    );
    if (taken) {
      const found = await leftover(root, relative, record);
      if (found) return { leftover: found };
      continue;
    }
    // Checked and taken in one step (no await between): two tasks imported at once never
    // choose the same folder.
    if (!reserved.has(relative)) {
      reserved.add(relative);
      return { free: relative };
    }
  }
  throw new Error('No free folder name for the task.');
}

/** Removes a task folder this import added, and the date folders above it it leaves empty. */
async function removeAdded(root: string, target: string): Promise<void> {
  await removeTree(root, target, { onLink: 'unlink' });
  // `rmdir` removes only an empty folder: one holding another task stays, and so does the root.
  for (let folder = dirname(target); folder !== resolve(root); folder = dirname(folder)) {
    if (!isWithin(root, folder)) break;
    const removed = await rmdir(folder).then(
      () => true,
      () => false,
    );
    if (!removed) break;
  }
}

/**
 * Writes the thumbnail the image's check made beside it in `stage` (`name` is task-relative);
 * false when there is none (no decoder here: it stays pending).
 */
async function stageThumbnail(
  stage: string,
  name: string,
  webp: Buffer | null | undefined,
): Promise<boolean> {
  if (!webp) return false;
  await mkdir(dirname(join(stage, name)), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  await writeNewFileSynced(join(stage, name), webp);
  return true;
}

/** The record's images, each copied and checked into `stage` (see the file's comment). */
async function stageImages(
  task: PlannedTask,
  record: TaskRecord,
  relative: string,
  stage: string,
  context: ImportContext,
): Promise<{ images: ImageRecord[]; refused: Refusal[] }> {
  const images: ImageRecord[] = [];
  const refused: Refusal[] = [];
  const withXmp = new Set<number>();
  for (const image of record.images) {
    const planned =
      image.state === 'deleted' ? undefined : pickImage(task.images, image.index, image);
    if (!planned) {
      images.push(missingImage(image));
      continue;
    }
    throwIfAborted(context.signal);
    const names = imageNames(image.index, planned.kind);
    const staged = await stageImage(planned, join(stage, names.image), stageOptions(context));
    if (!staged.ok) {
      refused.push(refusal(planned.file.path, staged.reason));
      images.push(refusedImage(image, staged.reason));
      continue;
    }
    context.onBytes(staged.image.size);
    const xmp = await stageXmp(task.xmps, image, join(stage, names.xmp), context.signal);
    if (xmp) withXmp.add(image.index);
    if (xmp && 'reason' in xmp) refused.push(xmp);
    const xmpFile = xmp && 'ok' in xmp ? `${relative}/${names.xmp}` : undefined;
    const thumbnail = await stageThumbnail(stage, names.thumbnail, staged.image.thumbnail);
    images.push(
      savedImage(image, planned.kind, staged.image, {
        file: `${relative}/${names.image}`,
        xmpFile,
        thumbnail: thumbnail ? `${relative}/${names.thumbnail}` : undefined,
      }),
    );
  }
  refused.push(...unusedXmps(task.xmps, withXmp));
  for (const planned of task.images) {
    if (
      !record.images.some((image) => image.index === planned.index && image.state !== 'deleted')
    ) {
      refused.push(refusal(planned.file.path, sentence('error.library.imageNotInRecord')));
    }
  }
  return { images, refused };
}

async function addNewTask(
  task: PlannedTask,
  record: TaskRecord,
  relative: string,
  context: ImportContext,
  came: { readonly redacted: boolean; readonly carried: CarriedFields | null },
): Promise<TaskOutcome> {
  const { root } = context;
  const stage = tempPath(root, '.import');
  try {
    // The stage becomes the task's folder: the user's alone, as ensureFolder makes them.
    await mkdir(stage, { mode: PRIVATE_FOLDER_MODE });
    const { images, refused } = await stageImages(task, record, relative, stage, context);
    const cleaned = cleanedRecord(importedRecord(record, relative, images));
    const { dropped } = cleaned;
    const imported = came.redacted
      ? await remakeStagedImages(cleaned.record, root, stage, relative)
      : cleaned.record;
    const own = sidecarText(imported);
    const sidecar = came.carried ? withKept(own, came.carried.sidecar) : own;
    await writeNewFileSynced(join(stage, SIDECAR_NAME), sidecar);
    // The triage's XMP beside each image, as the gallery writes it with every sidecar.
    await syncXmpSidecars(imported, stage, xmpSyncOptions(root));
    throwIfAborted(context.signal);
    const target = resolveInside(root, relative);
    await ensureFolder(root, dirname(target));
    await renameContained(root, stage, target);
    await fsyncDir(dirname(target));
    await context.history.put(imported, () => removeAdded(root, target), came.carried?.record);
    return {
      addedTask: true,
      addedImages: images.filter((image) => image.state === 'saved').length,
      duplicateTask: false,
      duplicateImages: 0,
      refused,
      dropped,
    };
  } finally {
    context.reservedFolders.delete(relative);
    await removeTree(root, stage, { onLink: 'unlink' }).catch(() => undefined);
  }
}

/** The task's record in this library: the same local id, or the same task on the same service. */
function existingRecord(record: TaskRecord, context: ImportContext): TaskRecord | undefined {
  return (
    context.history.get(record.localId) ??
    (record.taskId ? context.history.getByTaskId(record.endpoint, record.taskId) : undefined)
  );
}

/** Imports `task` (see the file's comment). @throws AbortError; file-system errors. */
export async function importTask(task: PlannedTask, context: ImportContext): Promise<TaskOutcome> {
  throwIfAborted(context.signal);
  const read = await readRecord(task, context);
  if ('reason' in read) return REFUSED([read]);
  const { record } = read;
  // One task met twice in a source (or under two ids of one service task) is imported in turn.
  const keys = [
    `id:${record.localId}`,
    ...(record.taskId ? [`task:${record.endpoint}\n${record.taskId}`] : []),
  ];
  return context.oneAtATime(keys, () => importRecord(task, read, context));
}

async function importRecord(
  task: PlannedTask,
  { record, carried }: ReadRecord,
  context: ImportContext,
): Promise<TaskOutcome> {
  const existing = existingRecord(record, context);
  if (existing) {
    if (isUnfinished(existing)) {
      return REFUSED([refusal(task.sidecar.path, sentence('error.library.taskInProgress'))]);
    }
    return mergeTask(task, record, existing, context);
  }
  const place = await placeFor(context.root, record, context.reservedFolders);
  // Looked up by the id it came with (above); kept with the key redacted from it.
  const clean = withKeptIdRedacted(record, context.scrubKeys);
  if ('free' in place) {
    return addNewTask(task, clean ?? record, place.free, context, { redacted: !!clean, carried });
  }
  // The folder was in the gallery before this import: an undo never removes it. Its task is
  // merged with as the history now has it (a redacted id, and images that say it).
  const found =
    (await redactKeptFolder(place.leftover, context.scrubKeys, context.root)) ?? place.leftover;
  await context.history.put(found);
  const merged = await mergeTask(task, record, found, context);
  const kept = found.images.filter((image) => image.state === 'saved').length;
  return {
    ...merged,
    addedTask: true,
    addedImages: kept + merged.addedImages,
    duplicateTask: false,
    duplicateImages: 0,
  };
}
