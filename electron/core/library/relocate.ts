/**
 * Moves the gallery to another folder (Settings › Gallery folder › Change). Records keep paths
 * relative to the gallery root, so carrying the task folders is all a move needs, with the input
 * store the tasks' edits name their images in (relocate-inputs.ts).
 *
 * Copy, then switch, then remove: every task folder is copied into the target's `.pictor-tmp`,
 * checked, and renamed into place one at a time; only when all of them are there does the
 * caller switch to the new folder (`switchTo`); only then are the old copies removed, file by
 * file, exactly what was copied, never through a link. If anything stops the move half-way
 * (a full disk, an unplugged drive, a kill), the old library is complete and still in use, and
 * a retry finishes the job: task folders a previous try finished are recognised and kept.
 * Names the target's disk cannot hold (case twins on exFAT, `:` on NTFS…) are looked for before
 * anything is copied, and a refusal the copy meets names its file (relocate-names.ts).
 */
import { lstat, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkContained, clearTempFolder, ensureFolder, fsyncDir } from '../fs';
import { isWithin, ownTempName } from '../fs';
import { PRIVATE_FOLDER_MODE, removeTree, renameContained } from '../fs';
import { MOVE_SUFFIX, prepareTargetTemp } from './relocate-temp';
import { InputsMove } from './relocate-inputs';
import { removeOld, undoCopies } from './relocate-remove';
import { sentence } from '../../../shared/i18n/sentence';
import { compareTaskFolder, copyTaskFolder, type CopyHooks } from './relocate-copy';
import { creatingName } from './relocate-names';
import { planSource, sidecarTaskId, type TaskFolderPlan } from './relocate-plan';
import { refusedMoveTarget } from './relocate-target';
import { realOf } from './same-folder';
import type { DiskNames } from './relocate-names';
import { GalleryMoveCancelled, GalleryMoveError, refuseNames, stopOf } from './relocate-stop';
import { switchOrStop } from './relocate-stop';

export { GalleryMoveCancelled, GalleryMoveError } from './relocate-stop';

/** Injected faults for tests (a port). */
export interface RelocateFaults {
  /** Called before each task folder is copied. */
  beforeCopy?(index: number, relative: string): void | Promise<void>;
  /** Called before each name (root-relative) is made in the target: a disk refusing it. */
  beforeCreate?(path: string): void | Promise<void>;
  /** What the target's disk does with names, in place of asking it (a disk this machine lacks). */
  diskNames?(): DiskNames;
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
  /**
   * Cancels the move until the switch: checked before each task folder and each file. A
   * cancelled move removes what it copied into the target and throws {@link GalleryMoveCancelled};
   * the old library was never touched. Once the switch is made the move completes.
   */
  readonly signal?: AbortSignal;
  /** Called as the copy goes (once at the start, then after each file and task folder). */
  readonly onProgress?: (progress: MoveProgress) => void;
  /** The time, for the age of leftovers in the target's `.pictor-tmp`; default `Date.now`. */
  readonly now?: () => number;
}

/** How far a move is: task folders, files and bytes copied of the totals. */
export interface MoveProgress {
  readonly tasks: number;
  readonly tasksDone: number;
  readonly files: number;
  readonly filesDone: number;
  readonly bytes: number;
  readonly bytesDone: number;
}

/** What the app passes into a move: its cancel signal, its progress, and its result. */
export interface GalleryMoveHooks {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: MoveProgress) => void;
  /** Called with the move's result once it is complete. */
  readonly onMoved?: (result: RelocateResult) => void;
}

export interface RelocateResult {
  /** Task folders now in the new gallery. */
  readonly moved: number;
  /** Old-gallery paths (absolute) still there: not carried (links, FIFOs) or not removable. */
  readonly leftBehind: readonly string[];
}

function nativePath(root: string, relative: string): string {
  return join(root, ...relative.split('/'));
}

/**
 * Refuses a gallery folder inside or around the current one, the home folder or one containing
 * it, system folders and the data folder (each as chosen and as its real path).
 * @throws GalleryMoveError saying why.
 */
export async function refuseTarget(
  source: string,
  target: string,
  options: Pick<RelocateOptions, 'home' | 'dataDir' | 'platform'>,
) {
  const [realSource, realTarget] = await Promise.all([realOf(source), realOf(target)]);
  const overlap = (a: string, b: string) => isWithin(a, b) || isWithin(b, a);
  if (overlap(source, target) || overlap(realSource, realTarget)) {
    throw new GalleryMoveError(sentence('error.gallery.moveOverlaps'), 0, 0);
  }
  const around = {
    home: options.home ?? homedir(),
    platform: options.platform ?? process.platform,
    ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
  };
  const refusal = refusedMoveTarget(target, around) ?? refusedMoveTarget(realTarget, around);
  if (refusal !== null) throw new GalleryMoveError(refusal, 0, 0);
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
  if (!info.isDirectory() || (await sidecarTaskId(target, dest)) !== task.localId) return 'clash';
  const same = await compareTaskFolder(
    task,
    { root: source, folder: nativePath(source, task.relative) },
    { root: target, folder: dest },
  );
  return same === 'same' ? 'done' : 'stale';
}

/**
 * What is at each task's place in the target.
 * @throws GalleryMoveError naming the folders that clash (something else is at their place).
 */
async function targetStates(
  tasks: readonly TaskFolderPlan[],
  source: string,
  target: string,
): Promise<Map<TaskFolderPlan, TargetState>> {
  const states = new Map<TaskFolderPlan, TargetState>();
  const clashes: string[] = [];
  for (const task of tasks) {
    const state = await targetState(task, source, target);
    if (state === 'clash') clashes.push(task.relative);
    else states.set(task, state);
  }
  if (clashes.length > 0) {
    throw new GalleryMoveError(
      sentence('error.gallery.moveClash', { target, folders: clashes.slice(0, 3).join(', ') }),
      0,
      tasks.length,
    );
  }
  return states;
}

async function placeCopy(
  target: string,
  temp: string,
  task: TaskFolderPlan,
  source: string,
  stale: boolean,
  hooks: CopyHooks = {},
) {
  const dest = nativePath(target, task.relative);
  const copy = join(temp, ownTempName(MOVE_SUFFIX));
  const from = nativePath(source, task.relative);
  const named = (path: string, create: () => Promise<void>) =>
    creatingName(path, dirname(nativePath(source, path)), async () => {
      await hooks.beforeCreate?.(path);
      await create();
    });
  try {
    await copyTaskFolder(
      task,
      { root: source, folder: from },
      { root: target, folder: copy },
      hooks,
    );
    const parent = task.relative.split('/').slice(0, -1).join('/');
    if (parent !== '') await named(parent, () => ensureFolder(target, dirname(dest)));
    if (stale) {
      // An older copy of the same task from a previous try: swapped for the fresh one.
      const old = join(temp, ownTempName(MOVE_SUFFIX));
      await renameContained(target, dest, old);
      await renameContained(target, copy, dest);
      await removeTree(target, old, { onLink: 'unlink' });
    } else await named(task.relative, () => renameContained(target, copy, dest));
    await fsyncDir(dirname(dest));
  } catch (error) {
    await removeTree(target, copy, { onLink: 'unlink' }).catch(() => undefined);
    throw error;
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
  const createdTarget = (await lstat(target).catch(() => null)) === null;
  // A library folder Pictor makes is the user's alone (gallery.ts); one that exists keeps its mode.
  await mkdir(target, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const temp = await prepareTargetTemp(target, options);
  const plan = await planSource(source);
  const inputs = new InputsMove(source, target);
  const total = plan.tasks.length;
  await refuseNames(plan.tasks, temp, { source, target, diskNames: options.faults?.diskNames });
  const states = await targetStates(plan.tasks, source, target);
  const progress = new ProgressCount(plan.tasks, options.onProgress);
  const placed: TaskFolderPlan[] = [];
  const undo = async () => {
    await inputs.undo();
    await undoCopies(target, placed, createdTarget, options);
  };
  let copied = 0;
  for (const [index, task] of plan.tasks.entries()) {
    try {
      options.signal?.throwIfAborted();
      await options.faults?.beforeCopy?.(index, task.relative);
      const state = states.get(task);
      if (state !== 'done') {
        placed.push(task);
        await placeCopy(target, temp, task, source, state === 'stale', {
          signal: options.signal,
          onFile: (bytes) => progress.file(bytes),
          beforeCreate: options.faults?.beforeCreate?.bind(options.faults),
        });
      }
      copied += 1;
      progress.task(task, state === 'done');
    } catch (error) {
      throw await stopOf(error, { copied, total, source, target, signal: options.signal, undo });
    }
  }
  await inputs.carry(options.signal).catch(async (error: unknown) => {
    throw await stopOf(error, { copied, total, source, target, signal: options.signal, undo });
  });
  if (options.signal?.aborted) {
    await undo();
    throw new GalleryMoveCancelled(source);
  }
  await switchOrStop(options.switchTo, { copied, total, source, target });
  const leftBehind = plan.notCarried.map((path) => nativePath(source, path));
  for (const task of plan.tasks) await removeOld(source, task, leftBehind);
  await inputs.removeOld(leftBehind);
  await clearTempFolder(source, (options.now ?? Date.now)());
  return { moved: copied, leftBehind };
}

/** Counts a move's progress and reports it (files and bytes as they are copied). */
class ProgressCount {
  private readonly totals: Pick<MoveProgress, 'tasks' | 'files' | 'bytes'>;
  private done = { tasksDone: 0, filesDone: 0, bytesDone: 0 };
  /** Files and bytes of the task folder being copied, counted so far. */
  private current = { files: 0, bytes: 0 };

  constructor(
    tasks: readonly TaskFolderPlan[],
    private readonly report: ((progress: MoveProgress) => void) | undefined,
  ) {
    const files = tasks.flatMap((task) => task.files);
    this.totals = {
      tasks: tasks.length,
      files: files.length,
      bytes: files.reduce((sum, file) => sum + file.size, 0),
    };
    this.emit();
  }

  file(bytes: number): void {
    this.current.files += 1;
    this.current.bytes += bytes;
    this.emit();
  }

  /** A task folder is in place (`already`: a previous try had copied it). */
  task(task: TaskFolderPlan, already: boolean): void {
    const files = already ? task.files.length : this.current.files;
    const bytes = already ? task.files.reduce((sum, f) => sum + f.size, 0) : this.current.bytes;
    this.done = {
      tasksDone: this.done.tasksDone + 1,
      filesDone: this.done.filesDone + files,
      bytesDone: this.done.bytesDone + bytes,
    };
    this.current = { files: 0, bytes: 0 };
    this.emit();
  }

  private emit(): void {
    this.report?.({
      ...this.totals,
      tasksDone: this.done.tasksDone,
      filesDone: this.done.filesDone + this.current.files,
      bytesDone: this.done.bytesDone + this.current.bytes,
    });
  }
}
