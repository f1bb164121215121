/**
 * Which processes have the library open, across processes. The app and any number of `pictor`
 * commands share one data folder and the library it names; a move (or an open elsewhere) of the
 * library runs one at a time within its own core (core/library/library.ts), but a command in
 * another process went on writing task folders, images and sidecars into the old folder: after
 * the switch they were outside the library (its records pointing at files the new folder lacks),
 * and a sidecar or rating written into a file already copied was lost with the old copy.
 *
 * Each process that opens the library leaves a file in the data folder's `library-holds` (0700)
 * for as long as it has it open: `<host tag>-<pid>-<time>.<count>.use`, named as temporary files
 * are (temp-names.ts `ownUniqueName`: the folder is private, so the name needs to be unique, not
 * unguessable), so a process killed or crashed leaves nothing that counts; where the system tells
 * a process's start (Linux) the name carries it too, so neither does it once the system gives its
 * pid to another process (process-owner.ts). A change of folder
 * leaves a `.move` file first and then looks: another process's `.use` or `.move` refuses it. A
 * process opening the library leaves its `.use` first and then looks: another's `.move` refuses
 * it. Each side writes before it looks, so of two that start together at least one sees the
 * other (both may, and both are refused: nothing half done, try again). A file past the age of a
 * leftover (a day since its last change, temp-names.ts) no longer counts, whoever left it, so a
 * live hold is touched every hour: an agent's `pictor mcp` server may keep the library open for
 * days, and its hold must keep refusing a move for as long as it runs.
 */
import { lstat, open, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { messageOf, UserFacingError } from '../errors';
import { removeQuietly } from './atomic-file';
import { ensurePrivateFolderBelow } from './contained-fs';
import { errorCode } from './error-codes';
import { ensurePrivateFolder, PRIVATE_FILE_MODE } from './private-files';
import { isLeftoverTemp, isOwnTempName, ownUniqueName, STALE_TEMP_MS } from './temp-names';

/** The folder in the data folder that holds the processes' holds. */
export const HOLDS_DIR = 'library-holds';

const USE = '.use';
const MOVE = '.move';

/**
 * A hold refused: another process moves the library, or uses it while this one would move it;
 * or the disk refused the hold's file (full, read-only).
 */
export class LibraryHeldError extends UserFacingError {
  override readonly name = 'LibraryHeldError';
}

/** Ends a hold (removes its file); never throws. */
export type LibraryHold = () => Promise<void>;

/**
 * What the other live processes hold: their `.use` and `.move` files in `dataDir`'s holds folder;
 * leftovers are removed, each as itself, never through a link (contained-fs.ts).
 */
async function othersHold(dataDir: string, nowMs: number): Promise<{ use: number; move: number }> {
  const held = { use: 0, move: 0 };
  const dir = join(dataDir, HOLDS_DIR);
  for (const name of await readdir(dir)) {
    if (isOwnTempName(name)) continue;
    const path = join(dir, name);
    const info = await lstat(path).catch(() => null);
    if (info === null) continue; // its process let go meanwhile
    if (isLeftoverTemp(name, info.mtimeMs, nowMs)) {
      await removeQuietly(path, dataDir);
      continue;
    }
    if (name.endsWith(USE)) held.use += 1;
    else if (name.endsWith(MOVE)) held.move += 1;
  }
  return held;
}

/** What the disk says when it refuses a hold's file: full, over quota, read-only, failing. */
const DISK_REFUSALS = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

/**
 * Leaves this process's file of `suffix` in `dataDir`'s holds folder; its path. The data folder is
 * made private first, then the holds folder a real one in it (a link or a file there is refused,
 * never followed: one made while the data folder was open to others pointed this process's look,
 * which removes what is not a live hold, at a folder of the user's), private too.
 * @throws LibraryHeldError when the disk refuses it (a sentence, not a bare EROFS); UnsafePathError
 * for a link; else what the file system threw.
 */
async function leave(dataDir: string, suffix: string): Promise<string> {
  const dir = join(dataDir, HOLDS_DIR);
  // The holds folder is private (below): a name unique to this process is enough.
  const path = join(dir, ownUniqueName(suffix));
  try {
    await ensurePrivateFolder(dataDir);
    await ensurePrivateFolderBelow(dataDir, dir);
    await (await open(path, 'wx', PRIVATE_FILE_MODE)).close();
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined || !DISK_REFUSALS.has(code)) throw error;
    throw new LibraryHeldError(sentence('error.library.holdDiskRefused', { folder: dataDir }), {
      detail: messageOf(error),
      cause: error,
    });
  }
  return path;
}

/** Ends the hold at `path` (in `dataDir`'s holds folder): its file removed, never through a link. */
function letGo(dataDir: string, path: string): LibraryHold {
  return () => removeQuietly(path, dataDir);
}

/** How often a live hold's file is touched: well inside the age at which a hold is a leftover. */
export const HOLD_REFRESH_MS = 60 * 60 * 1000;
if (HOLD_REFRESH_MS * 4 > STALE_TEMP_MS) throw new Error('a hold would age out between touches');

/**
 * Keeps the hold at `path` younger than a leftover until it ends: its file is touched every
 * {@link HOLD_REFRESH_MS} (the timer holds no process open), and ending it stops the touches
 * first. A touch that fails (the file removed meanwhile) is left: the next look counts no hold.
 */
function keptUntilLetGo(dataDir: string, path: string): LibraryHold {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, HOLD_REFRESH_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return letGo(dataDir, path)();
  };
}

/**
 * Leaves this process's `suffix` hold, then looks at the others': the hold, or (its file gone
 * again) the refusal `refusal` names for what they hold.
 */
async function hold(
  dataDir: string,
  suffix: string,
  nowMs: number,
  refusal: (held: { use: number; move: number }) => Sentence | null,
): Promise<LibraryHold> {
  const path = await leave(dataDir, suffix);
  let refused: Sentence | null;
  try {
    refused = refusal(await othersHold(dataDir, nowMs));
  } catch (error) {
    await letGo(dataDir, path)();
    throw error;
  }
  if (refused === null) return keptUntilLetGo(dataDir, path);
  await letGo(dataDir, path)();
  throw new LibraryHeldError(refused);
}

/**
 * Holds the library of `dataDir` open for this process until the returned hold ends.
 * @throws LibraryHeldError while another process moves it; file-system errors.
 */
export function holdLibraryOpen(dataDir: string, nowMs = Date.now()): Promise<LibraryHold> {
  return hold(dataDir, USE, nowMs, (held) =>
    held.move > 0 ? sentence('error.gallery.moveRunning') : null,
  );
}

/**
 * Holds the library of `dataDir` for a change of its folder by this process, until the hold ends.
 * @throws LibraryHeldError while another process has it open or moves it; file-system errors.
 */
function holdLibraryMove(dataDir: string, nowMs = Date.now()): Promise<LibraryHold> {
  return hold(dataDir, MOVE, nowMs, (held) => {
    if (held.move > 0) return sentence('error.gallery.moveRunning');
    return held.use > 0 ? sentence('error.gallery.moveInUse') : null;
  });
}

/**
 * Runs each change of folder (core/library's `aroundChanges`) inside {@link holdLibraryMove}'s
 * hold on `dataDir`'s library.
 */
export function heldForChanges(dataDir: string): <T>(change: () => Promise<T>) => Promise<T> {
  return async (change) => {
    const hold = await holdLibraryMove(dataDir);
    try {
      return await change();
    } finally {
      await hold();
    }
  };
}

/** `owner` (a core) whose `close` ends `hold` once it has closed. */
export function heldUntilClosed<T extends { close(): Promise<void> }>(
  owner: T,
  hold: LibraryHold,
): T {
  const close = owner.close.bind(owner);
  return Object.assign(owner, {
    async close() {
      try {
        await close();
      } finally {
        await hold();
      }
    },
  });
}
