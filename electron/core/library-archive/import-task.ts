/**
 * Imports one task of a source into the gallery and the history, never overwriting a file:
 *
 * - A task the library does not have is assembled in a fresh folder under `.pictor-tmp` (its
 *   images copied and checked, its sidecar written) and renamed into place in one step, to a
 *   folder of Pictor's own naming that does not exist yet; then its record goes into the history.
 *   Stopped half-way, the staging folder is removed: nothing half-written stays.
 * - A task the library has (same local id, or same service and task id) keeps its record and
 *   files. Each incoming image whose bytes (SHA-256) are already one of the task's images is a
 *   duplicate; a different one is added under the next free `image-<n>` name, its file published
 *   with a hard link (which fails rather than replace a file). A task still running is left alone.
 */
import { link, lstat, mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  isUnfinished,
  type ImageRecord,
  type TaskRecord,
} from '../../../shared/domain/task-record';
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import type { HistoryStore } from '../history/history-store';
import { systemErrorCode } from '../errors/thrown-value';
import { ensureFolder, removeTree, renameContained } from '../fs/contained-fs';
import {
  fsyncDir,
  removeQuietly,
  tempPath,
  writeFileAtomic,
  writeNewFileSynced,
} from '../gallery/atomic-file';
import { SIDECAR_NAME, imageNames, taskFolderName } from '../gallery/gallery-layout';
import { resolveInside } from '../gallery/gallery-path';
import { readRegularFile } from '../gallery/regular-file';
import { parseSidecar, sidecarText } from '../gallery/sidecar';
import type { ArchiveLimits } from './archive-limits';
import { sentence } from '../../../shared/i18n/sentence';
import { isAbort, refusal, throwIfAborted, type Refusal } from './archive-errors';
import { stageImage } from './import-image';
import { stageXmp, unusedXmps } from './import-xmp';
import type { PlannedImage, PlannedTask } from './import-plan';
import { importedRecord, missingImage, savedImage } from './import-records';
import { readBounded, sha256Of } from './stream-copy';

export interface ImportContext {
  readonly root: string;
  readonly history: Pick<HistoryStore, 'get' | 'getByTaskId' | 'put'>;
  readonly limits: ArchiveLimits;
  readonly signal?: AbortSignal;
  /** Called with the bytes of each file read. */
  readonly onBytes: (bytes: number) => void;
  /** Folders chosen by tasks being imported right now (see freeFolder). */
  readonly reservedFolders: Set<string>;
  /** Runs `work` when no other task holding one of `keys` is being imported (keyed-lock.ts). */
  readonly oneAtATime: <T>(keys: readonly string[], work: () => Promise<T>) => Promise<T>;
}

export interface TaskOutcome {
  readonly addedTask: boolean;
  readonly addedImages: number;
  readonly duplicateTask: boolean;
  readonly duplicateImages: number;
  readonly refused: Refusal[];
  /** Cancelled after some images were added to an existing task (they stay, and are counted). */
  readonly stopped?: boolean;
}

const REFUSED = (refused: Refusal[]): TaskOutcome => ({
  addedTask: false,
  addedImages: 0,
  duplicateTask: false,
  duplicateImages: 0,
  refused,
});

async function readRecord(
  task: PlannedTask,
  context: ImportContext,
): Promise<TaskRecord | Refusal> {
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
  const parsed = parseSidecar(bytes.toString('utf8'));
  // The gallery's words for a sidecar it cannot use.
  return parsed.ok ? parsed.record : { path: task.sidecar.path, reason: parsed.reason };
}

/** A folder for the new task that nothing occupies: Pictor's name for it, then `-2`, `-3`, … */
async function freeFolder(
  root: string,
  record: TaskRecord,
  reserved: Set<string>,
): Promise<string> {
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
    // Checked and taken in one step (no await between): two tasks imported at once never
    // choose the same folder.
    if (!taken && !reserved.has(relative)) {
      reserved.add(relative);
      return relative;
    }
  }
  throw new Error('No free folder name for the task.');
}

function pickImage(
  images: readonly PlannedImage[],
  index: number,
  record?: ImageRecord,
): PlannedImage | undefined {
  const candidates = images.filter((image) => image.index === index);
  return candidates.find((image) => record?.mime?.endsWith(image.kind)) ?? candidates[0];
}

async function addNewTask(
  task: PlannedTask,
  record: TaskRecord,
  context: ImportContext,
): Promise<TaskOutcome> {
  const { root } = context;
  const refused: Refusal[] = [];
  const stage = tempPath(root, '.import');
  await mkdir(stage);
  let reserved: string | null = null;
  try {
    const relative = await freeFolder(root, record, context.reservedFolders);
    reserved = relative;
    const images: ImageRecord[] = [];
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
      const staged = await stageImage(planned, image, join(stage, names.image), {
        maxBytes: context.limits.maxImageBytes,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      if (!staged.ok) {
        refused.push(refusal(planned.file.path, staged.reason));
        images.push(missingImage(image));
        continue;
      }
      context.onBytes(staged.image.size);
      const xmp = await stageXmp(task.xmps, image, join(stage, names.xmp), context.signal);
      if (xmp) withXmp.add(image.index);
      if (xmp && 'reason' in xmp) refused.push(xmp);
      const xmpFile = xmp && 'ok' in xmp ? `${relative}/${names.xmp}` : undefined;
      images.push(
        savedImage(
          image,
          planned.kind,
          staged.image,
          `${relative}/${names.image}`,
          image.index,
          xmpFile,
        ),
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
    const imported = importedRecord(record, relative, images);
    await writeNewFileSynced(join(stage, SIDECAR_NAME), sidecarText(imported));
    throwIfAborted(context.signal);
    const target = resolveInside(root, relative);
    await ensureFolder(root, dirname(target));
    await renameContained(root, stage, target);
    await fsyncDir(dirname(target));
    context.history.put(imported);
    const added = images.filter((image) => image.state === 'saved').length;
    return {
      addedTask: true,
      addedImages: added,
      duplicateTask: false,
      duplicateImages: 0,
      refused,
    };
  } finally {
    if (reserved !== null) context.reservedFolders.delete(reserved);
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
  const record = await readRecord(task, context);
  if ('reason' in record) return REFUSED([record]);
  // One task met twice in a source (or under two ids of one service task) is imported in turn.
  const keys = [
    `id:${record.localId}`,
    ...(record.taskId ? [`task:${record.endpoint}\n${record.taskId}`] : []),
  ];
  return context.oneAtATime(keys, () => importRecord(task, record, context));
}

async function importRecord(
  task: PlannedTask,
  record: TaskRecord,
  context: ImportContext,
): Promise<TaskOutcome> {
  const existing = existingRecord(record, context);
  if (!existing) return addNewTask(task, record, context);
  if (isUnfinished(existing)) {
    return REFUSED([refusal(task.sidecar.path, sentence('error.library.taskInProgress'))]);
  }
  return mergeTask(task, record, existing, context);
}

/** The SHA-256 of each saved image file of `record`; a file that cannot be read is left out. */
async function savedHashes(
  root: string,
  record: TaskRecord,
  maxBytes: number,
): Promise<Set<string>> {
  const hashes = new Set<string>();
  for (const image of record.images) {
    if (image.state !== 'saved' || !image.file) continue;
    try {
      hashes.add(sha256Of(await readRegularFile(resolveInside(root, image.file), maxBytes)));
    } catch {
      // A missing or unsafe file is not this image's twin.
    }
  }
  return hashes;
}

/** Publishes `temp` as `target` only if nothing is there (a hard link never replaces a file). */
async function publishNew(temp: string, target: string): Promise<boolean> {
  try {
    await link(temp, target);
    await removeQuietly(temp);
    return true;
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
  }
  // A file system without hard links (FAT): look, then rename; a race here needs a local writer.
  const there = await lstat(target).then(
    () => true,
    () => false,
  );
  if (there) return false;
  await rename(temp, target);
  return true;
}

interface Merge {
  readonly xmps: PlannedTask['xmps'];
  readonly folder: string;
  readonly hashes: Set<string>;
  readonly added: ImageRecord[];
  readonly refused: Refusal[];
  duplicates: number;
}

/** The incoming image's XMP sidecar beside its new name, never over a file; whether it came. */
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
    return xmp !== null && 'ok' in xmp && (await publishNew(temp, target));
  } finally {
    await removeQuietly(temp);
  }
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
    merge.duplicates += 1;
    return;
  }
  const temp = tempPath(context.root, '.import');
  const staged = await stageImage(planned, image, temp, {
    maxBytes: context.limits.maxImageBytes,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (!staged.ok) return void merge.refused.push(refusal(planned.file.path, staged.reason));
  context.onBytes(staged.image.size);
  if (merge.hashes.has(staged.image.sha256)) {
    merge.duplicates += 1;
    return removeQuietly(temp);
  }
  const used = new Set([...existing.images, ...merge.added].map((known) => known.index));
  for (let index = 0; index < MAX_IMAGES_PER_TASK; index += 1) {
    if (used.has(index)) continue;
    const names = imageNames(index, planned.kind);
    const folder = resolveInside(context.root, merge.folder);
    if (!(await publishNew(temp, join(folder, names.image)))) continue;
    merge.hashes.add(staged.image.sha256);
    const xmpFile = await mergeXmp(merge, image, join(folder, names.xmp), context);
    merge.added.push(
      savedImage(
        image,
        planned.kind,
        staged.image,
        `${merge.folder}/${names.image}`,
        index,
        xmpFile ? `${merge.folder}/${names.xmp}` : undefined,
      ),
    );
    return;
  }
  await removeQuietly(temp);
  merge.refused.push(refusal(planned.file.path, sentence('error.library.taskNoRoom')));
}

async function mergeTask(
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
    added: [],
    refused: [],
    duplicates: 0,
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
  if (merge.added.length > 0) {
    const updated: TaskRecord = {
      ...existing,
      folder,
      images: [...existing.images, ...merge.added],
    };
    await writeFileAtomic(
      context.root,
      join(resolveInside(context.root, folder), SIDECAR_NAME),
      sidecarText(updated),
    );
    context.history.put(updated);
  }
  if (stopped !== null && !isAbort(stopped)) throw stopped;
  return {
    ...(stopped === null ? {} : { stopped: true }),
    addedTask: false,
    addedImages: merge.added.length,
    duplicateTask: merge.added.length === 0,
    duplicateImages: merge.duplicates,
    refused: merge.refused,
  };
}
