/**
 * Moves the gallery to another folder (Settings › Gallery folder › Change). Records keep paths
 * relative to the gallery root, so carrying the task folders is all a move needs.
 *
 * Copy, then switch, then remove: every task folder is copied into the target's `.pictor-tmp`,
 * checked, and renamed into place one at a time; only when all of them are there does the
 * caller switch to the new folder (`switchTo`); only then are the old copies removed, file by
 * file, exactly what was copied, never through a link. If anything stops the move half-way
 * (a full disk, an unplugged drive, a kill), the old library is complete and still in use, and
 * a retry finishes the job: task folders a previous try finished are recognised and kept.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  checkContained,
  ensureFolder,
  isWithin,
  linkRefusal,
  removeEmptyFolder,
  removeFile,
  removeTree,
  renameContained,
} from '../fs/contained-fs';
import { fsyncDir } from './atomic-file';
import { TEMP_DIR } from './gallery-layout';
import { diskReason } from './download-outcome';
import { GalleryPathError } from './gallery-path';
import { compareTaskFolder, copyTaskFolder } from './relocate-copy';
import { planSource, sidecarTaskId, type TaskFolderPlan } from './relocate-plan';
import { refusedMoveTarget } from './relocate-target';
import { messageOf } from '../errors/thrown-value';

/** Injected faults for tests (a port): called before each task folder is copied. */
export interface RelocateFaults {
  beforeCopy?(index: number, relative: string): void | Promise<void>;
}

export interface RelocateOptions {
  /** The user's home folder; default `os.homedir()`. */
  readonly home?: string;
  /** The app's data folder: never a target, nor inside or around one. */
  readonly dataDir?: string;
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /**
   * Called once every task folder is in the target and checked, before anything old is
   * removed: switch the gallery setting here. When it throws, nothing is removed.
   */
  readonly switchTo?: (target: string) => void | Promise<void>;
  readonly faults?: RelocateFaults;
}

export interface RelocateResult {
  /** Task folders now in the new gallery. */
  readonly moved: number;
  /** Old-gallery paths (absolute) still there: not carried (links, FIFOs) or not removable. */
  readonly leftBehind: readonly string[];
}

/** A move that stopped or was refused; `copied` of `total` task folders are in the target. */
export class GalleryMoveError extends GalleryPathError {
  override readonly name: string = 'GalleryMoveError';

  constructor(
    message: string,
    readonly copied: number,
    readonly total: number,
  ) {
    super(message);
  }
}

const MOVE_PREFIX = 'move-';

function nativePath(root: string, relative: string): string {
  return join(root, ...relative.split('/'));
}

/** The real path of `path`, through its nearest existing ancestor. */
async function realOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realOf(parent), basename(path));
  }
}

async function refuseTarget(source: string, target: string, options: RelocateOptions) {
  const [realSource, realTarget] = await Promise.all([realOf(source), realOf(target)]);
  const overlap = (a: string, b: string) => isWithin(a, b) || isWithin(b, a);
  if (overlap(source, target) || overlap(realSource, realTarget)) {
    throw new GalleryMoveError(
      'The new gallery folder cannot be inside the current one, or contain it. Choose a separate folder.',
      0,
      0,
    );
  }
  const around = {
    home: options.home ?? homedir(),
    platform: options.platform ?? process.platform,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  };
  const refusal = refusedMoveTarget(target, around) ?? refusedMoveTarget(realTarget, around);
  if (refusal !== null) throw new GalleryMoveError(refusal, 0, 0);
}

/** The target's `.pictor-tmp`, a real folder (a link there is refused), emptied of old tries. */
async function prepareTargetTemp(target: string): Promise<string> {
  const temp = join(target, TEMP_DIR);
  const info = await lstat(temp).catch(() => null);
  if (info?.isSymbolicLink()) throw linkRefusal(temp);
  await ensureFolder(target, temp);
  for (const name of await readdir(temp)) {
    if (name.startsWith(MOVE_PREFIX))
      await removeTree(target, join(temp, name), { onLink: 'unlink' });
  }
  return temp;
}

type TargetState = 'absent' | 'done' | 'stale';

/** What is at a task's place in the target: nothing, a finished copy, an older copy, or a clash. */
async function targetState(
  task: TaskFolderPlan,
  source: string,
  target: string,
): Promise<TargetState | 'clash'> {
  const dest = nativePath(target, task.relative);
  const info = await checkContained(target, dest); // a link on the way is refused here
  if (info === null) return 'absent';
  if (!info.isDirectory() || (await sidecarTaskId(dest)) !== task.localId) return 'clash';
  const same = await compareTaskFolder(task, nativePath(source, task.relative), dest);
  return same === 'same' ? 'done' : 'stale';
}

async function placeCopy(
  target: string,
  temp: string,
  task: TaskFolderPlan,
  source: string,
  stale: boolean,
) {
  const dest = nativePath(target, task.relative);
  const copy = join(temp, `${MOVE_PREFIX}${randomBytes(8).toString('hex')}`);
  try {
    await copyTaskFolder(task, nativePath(source, task.relative), copy);
    await ensureFolder(target, dirname(dest));
    if (stale) {
      // An older copy of the same task from a previous try: swapped for the fresh one.
      const old = join(temp, `${MOVE_PREFIX}old-${randomBytes(8).toString('hex')}`);
      await renameContained(target, dest, old);
      await renameContained(target, copy, dest);
      await removeTree(target, old, { onLink: 'unlink' });
    } else await renameContained(target, copy, dest);
    await fsyncDir(dirname(dest));
  } catch (error) {
    await removeTree(target, copy, { onLink: 'unlink' }).catch(() => undefined);
    throw error;
  }
}

function stopped(copied: number, total: number, source: string, target: string, why: string) {
  return new GalleryMoveError(
    `Pictor stopped moving the gallery: ${copied} of ${total} task folders were copied to ${target} (${why}). Your library is still at ${source} and still in use; nothing was removed from it. Fix the cause and try again: the move continues where it stopped.`,
    copied,
    total,
  );
}

/** Removes exactly what was copied of one task folder, and the folders it leaves empty. */
async function removeOld(source: string, task: TaskFolderPlan, left: string[]): Promise<void> {
  const folder = nativePath(source, task.relative);
  for (const file of task.files) {
    const path = nativePath(folder, file.path);
    await removeFile(source, path).catch(() => left.push(path));
  }
  for (const sub of [...task.folders].reverse()) {
    await removeEmptyFolder(source, nativePath(folder, sub)).catch(() => false);
  }
  let dir = folder;
  while (isWithin(source, dir) && dir !== source) {
    if (!(await removeEmptyFolder(source, dir).catch(() => false))) break;
    dir = dirname(dir);
  }
}

/**
 * Moves the gallery's task folders from `from` to `to` (created if missing). Refuses a target
 * inside or around the gallery, the home folder or a folder containing it, system folders, the
 * data folder, and links where it would write. See the file comment for the order of work.
 * @throws GalleryMoveError (refused, or stopped half-way: its message says how far it got and
 *   that the library is still at `from`); UnsafePathError for a link in the way.
 */
export async function relocateGallery(
  from: string,
  to: string,
  options: RelocateOptions = {},
): Promise<RelocateResult> {
  const source = resolve(from);
  const target = resolve(to);
  if (source === target) return { moved: 0, leftBehind: [] };
  await refuseTarget(source, target, options);
  await mkdir(target, { recursive: true });
  const temp = await prepareTargetTemp(target);
  const plan = await planSource(source);
  const total = plan.tasks.length;
  const states = new Map<TaskFolderPlan, TargetState>();
  const clashes: string[] = [];
  for (const task of plan.tasks) {
    const state = await targetState(task, source, target);
    if (state === 'clash') clashes.push(task.relative);
    else states.set(task, state);
  }
  if (clashes.length > 0) {
    throw new GalleryMoveError(
      `The folder ${target} already has folders where the gallery’s task folders would go (${clashes.slice(0, 3).join(', ')}). Choose an empty folder. Nothing was copied or removed.`,
      0,
      total,
    );
  }
  let copied = 0;
  for (const [index, task] of plan.tasks.entries()) {
    try {
      await options.faults?.beforeCopy?.(index, task.relative);
      const state = states.get(task);
      if (state !== 'done') await placeCopy(target, temp, task, source, state === 'stale');
      copied += 1;
    } catch (error) {
      const why =
        error instanceof GalleryPathError
          ? error.message
          : diskReason('a file could not be copied', error);
      throw stopped(copied, total, source, target, why);
    }
  }
  try {
    await options.switchTo?.(target);
  } catch (error) {
    const why = `Pictor could not switch to the new folder: ${messageOf(error)}`;
    throw stopped(copied, total, source, target, why);
  }
  const leftBehind = plan.notCarried.map((path) => nativePath(source, path));
  for (const task of plan.tasks) await removeOld(source, task, leftBehind);
  await removeTree(source, join(source, TEMP_DIR), { onLink: 'unlink' }).catch(() => undefined);
  return { moved: copied, leftBehind };
}
