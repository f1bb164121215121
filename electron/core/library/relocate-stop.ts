/**
 * How a gallery move (relocate.ts) ends before its switch: cancelled by the user, or stopped or
 * refused with a sentence saying how far it got, why, and that the old library is whole and in use.
 */
import { diskParams, GalleryPathError } from '../fs';
import { messageOf } from '../errors';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { NameCheck, NameRefusedError, probeDiskNames, type DiskNames } from './relocate-names';
import type { RefusedName } from './relocate-names';
import type { TaskFolderPlan } from './relocate-plan';

/** The user cancelled the move before the switch: the library is where it was, complete. */
export class GalleryMoveCancelled extends GalleryPathError {
  override readonly name: string = 'GalleryMoveCancelled';

  constructor(readonly source: string) {
    super(
      `The move was cancelled. Your library is still at ${source}, complete and in use; what had been copied to the new folder was removed.`,
    );
  }
}

/** A move that stopped or was refused; `copied` of `total` task folders are in the target. */
export class GalleryMoveError extends GalleryPathError {
  override readonly name: string = 'GalleryMoveError';

  constructor(
    message: Sentence,
    readonly copied: number,
    readonly total: number,
  ) {
    super(message);
  }
}

/**
 * Why a move stopped: a refused path (its sentence's English text), a disk error, a switch, a
 * name the target's disk cannot hold.
 */
type StopReason =
  | { readonly kind: 'path' | 'switch'; readonly reason: string }
  | { readonly kind: 'disk'; readonly error: unknown }
  | { readonly kind: 'name'; readonly refused: RefusedName };

const STOP_KEYS = {
  path: 'error.gallery.moveStoppedPath',
  switch: 'error.gallery.moveStoppedSwitch',
  disk: 'error.gallery.moveStoppedDisk',
  name: 'error.gallery.moveNameRefused',
} as const;

function reasonParams(why: StopReason): Readonly<Record<string, string>> {
  if (why.kind === 'disk') return diskParams(why.error);
  if (why.kind !== 'name') return { reason: why.reason };
  const { path, problem, other = '', detail = '' } = why.refused;
  return { file: path, why: problem, other, characters: detail, code: detail };
}

/** Where a move stopped: `copied` of `total` task folders from `source` are in `target`. */
export interface MoveAt {
  readonly copied: number;
  readonly total: number;
  readonly source: string;
  readonly target: string;
}

function stopped(at: MoveAt, why: StopReason): GalleryMoveError {
  const { copied, total, source, target } = at;
  const params = { copied, total, source, target, ...reasonParams(why) };
  return new GalleryMoveError(sentence(STOP_KEYS[why.kind], params), copied, total);
}

/**
 * Calls the move's switch to `at.target`.
 * @throws GalleryMoveError saying the switch failed, and that the old library is in use.
 */
export async function switchOrStop(
  switchTo: ((target: string) => void | Promise<void>) | undefined,
  at: MoveAt,
): Promise<void> {
  try {
    await switchTo?.(at.target);
  } catch (error) {
    throw stopped(at, { kind: 'switch', reason: messageOf(error) });
  }
}

/**
 * Why the copy stopped, once what it copied is undone when it was cancelled: the cancel, or the
 * move's error saying how far it got.
 */
export async function stopOf(
  error: unknown,
  at: {
    readonly copied: number;
    readonly total: number;
    readonly source: string;
    readonly target: string;
    readonly signal: AbortSignal | undefined;
    readonly undo: () => Promise<void>;
  },
): Promise<Error> {
  if (at.signal?.aborted) {
    await at.undo();
    return new GalleryMoveCancelled(at.source);
  }
  const why: StopReason =
    error instanceof NameRefusedError
      ? { kind: 'name', refused: error.refused }
      : error instanceof GalleryPathError
        ? { kind: 'path', reason: error.message }
        : { kind: 'disk', error };
  return stopped(at, why);
}

/** Task folders whose names are judged between two turns of the event loop. */
const NAMES_AT_ONCE = 2048;

/**
 * Refuses the move before anything is copied when the target's disk cannot hold a name of the
 * library, naming the first such name and why.
 * @throws GalleryMoveError (0 copied): a refused name, or the disk's error while asking it.
 */
export async function refuseNames(
  tasks: readonly TaskFolderPlan[],
  temp: string,
  at: {
    readonly source: string;
    readonly target: string;
    /** What the disk does with names, given (tests), in place of asking it. */
    readonly diskNames?: (() => DiskNames) | undefined;
  },
) {
  const { source, target } = at;
  const disk = at.diskNames
    ? at.diskNames()
    : await probeDiskNames(temp).catch((error: unknown) => {
        throw stopped({ copied: 0, total: tasks.length, source, target }, { kind: 'disk', error });
      });
  const check = new NameCheck(disk);
  for (const [index, task] of tasks.entries()) {
    // About 10 ms of names at a time: a window's main thread stays free for its events.
    if (index % NAMES_AT_ONCE === NAMES_AT_ONCE - 1) await new Promise(setImmediate);
    const refused = check.task(task);
    if (refused !== null) {
      throw stopped({ copied: 0, total: tasks.length, source, target }, { kind: 'name', refused });
    }
  }
}
