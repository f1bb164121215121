/**
 * Names in a gallery's `.pictor-tmp`, and which of them are leftovers.
 *
 * The app and any number of CLI commands share one library, so `.pictor-tmp` holds the files
 * other live processes are writing or checking right now. Every name says who made it: a tag of
 * the machine's name, the process id and, where the system tells one (Linux), the process's start
 * (`<host tag>-<pid>-<made>.s<start><suffix>`; names Pictor made before the start was named lack
 * `.s<start>`, and are read as before). A leftover is what no live process will finish: a name of
 * this machine whose process is gone (killed, crashed, or its pid given since to a process that
 * started at another time), anything older than {@link STALE_TEMP_MS} (a process of another
 * machine sharing the folder, a pid reused since where no start is named), and anything Pictor did
 * not name so (an older Pictor's, or a crafted folder's). Removing every file there at start-up, as before, removed the files of the other
 * processes' downloads under them: their images ended invalid ('damaged or incomplete').
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { removeEmptyFolder, removeTree, UnsafePathError } from './contained-fs';
import { ownStart, processIsGone, THIS_HOST } from './process-owner';

/** The folder inside the gallery root that holds files being written. */
export const TEMP_DIR = '.pictor-tmp';

/** Past this age (since its last change) a temporary file is nobody's, whoever named it. */
export const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

/**
 * The tag of this machine's name: its 32-bit FNV-1a hash in 8 hex digits, made when a name is
 * first made or read. It only tells this machine's names from another's sharing the folder (as
 * many bits as the SHA-256 prefix it was, which hid no more: a host name is short and guessable
 * either way), and needs no node:crypto, whose load (about 10 ms of CPU) a command that holds the
 * library (`pictor rate`, library-holds.ts) paid for this tag alone.
 */
let hostTag: string | null = null;
function ownHostTag(): string {
  if (hostTag === null) {
    let hash = 0x811c9dc5;
    for (let at = 0; at < THIS_HOST.length; at += 1) {
      hash = Math.imul(hash ^ THIS_HOST.charCodeAt(at), 0x01000193);
    }
    hostTag = (hash >>> 0).toString(16).padStart(8, '0');
  }
  return hostTag;
}

const ownPrefix = (): string => `${ownHostTag()}-${process.pid}-`;
const OWNED = /^([0-9a-f]{8})-([1-9][0-9]{0,9})-/;

/** This process's start as its kernel counts it (process-owner.ts ownStart), `.s` before it. */
function ownStartMark(): string {
  const start = ownStart();
  return start === null ? '' : `.s${start}`;
}

/**
 * A fresh, unguessable name for this process's temporary file or folder in `.pictor-tmp` (or
 * another folder others may see): 12 random bytes, node:crypto loaded on the first. Where the
 * system tells a process's start, the name carries it (`.s<start>`): once this process is gone, a
 * later process given its pid neither takes the file for its own nor keeps it waiting a day.
 */
export function ownTempName(suffix: string): string {
  const random = process.getBuiltinModule('node:crypto').randomBytes(12).toString('hex');
  return `${ownPrefix()}${random}${ownStartMark()}${suffix}`;
}

/** How many {@link ownUniqueName}s this process has made. */
let uniqueNames = 0;

/**
 * A name of this process's, as {@link ownTempName} makes them, that no other name this process
 * made has, nor one a process before it left (the time and a count), but guessable: only for a
 * private folder (0700) no one else can write in, such as the library's holds (library-holds.ts),
 * where an unguessable one cost every command that holds the library node:crypto's load. It
 * carries the start as {@link ownTempName}'s do.
 */
export function ownUniqueName(suffix: string): string {
  uniqueNames += 1;
  const made = `${Date.now().toString(16)}.${uniqueNames.toString(16)}${ownStartMark()}`;
  return `${ownPrefix()}${made}${suffix}`;
}

/**
 * The one reading of both names' shape: the host tag, the pid, what made the name unique (an
 * {@link ownTempName}'s 24 random hex digits, captured, or an {@link ownUniqueName}'s time and
 * count), and the start where the name carries one. No suffix begins with a digit, so the start
 * ends where its digits do.
 */
const NAMED =
  /^([0-9a-f]{8})-([1-9][0-9]{0,9})-(?:([0-9a-f]{24})|[0-9a-f]{1,16}\.[0-9a-f]{1,16})(?:\.s([0-9]{1,20})(?![0-9]))?/;

/**
 * Whether `name` is an {@link ownTempName} of any process (with its start or, made by an earlier
 * version, without) ending in `suffix` and nothing else: how a folder that holds no other names of
 * Pictor's own (a store's temporary files, store-temps.ts) tells its writers' files.
 */
export function isTempNameOf(name: string, suffix: string): boolean {
  const named = NAMED.exec(name);
  return named?.[3] !== undefined && name.slice(named[0].length) === suffix;
}

/** Whether this process named `name` (see {@link ownTempName}): its pid, and its start if named. */
export function isOwnTempName(name: string): boolean {
  if (!name.startsWith(ownPrefix())) return false;
  const start = NAMED.exec(name)?.[4];
  return start === undefined || start === ownStart();
}

/** Whether `name`, last changed at `changedMs`, is a leftover at `nowMs` (see the file's comment). */
export function isLeftoverTemp(name: string, changedMs: number, nowMs: number): boolean {
  const owner = OWNED.exec(name);
  if (owner === null) return true;
  if (nowMs - changedMs > STALE_TEMP_MS) return true;
  const start = NAMED.exec(name)?.[4];
  return owner[1] === ownHostTag() && processIsGone(THIS_HOST, Number(owner[2]), start);
}

export interface SweepResult {
  readonly removed: number;
  /** Sentences naming what could not be removed. */
  readonly warnings: readonly string[];
}

/**
 * Removes the leftovers in `temp` (a real folder in `root`), never through a link; `alsoRemove`
 * names more of them (this process's own earlier tries). A leftover that cannot go is a warning:
 * it is harmless and must not stop anything.
 */
export async function sweepLeftoverTemps(
  root: string,
  temp: string,
  options: { readonly nowMs: number; readonly alsoRemove?: (name: string) => boolean },
): Promise<SweepResult> {
  let removed = 0;
  const warnings: string[] = [];
  for (const name of await readdir(temp)) {
    const path = join(temp, name);
    try {
      const info = await lstat(path).catch(() => null);
      if (info === null) continue; // its process finished with it meanwhile
      const leftover =
        options.alsoRemove?.(name) === true || isLeftoverTemp(name, info.mtimeMs, options.nowMs);
      if (!leftover) continue;
      await removeTree(root, path, { onLink: 'unlink' });
      removed += 1;
    } catch (error) {
      warnings.push(
        error instanceof UnsafePathError
          ? error.message
          : `Pictor could not remove the leftover temporary file ${path}.`,
      );
    }
  }
  return { removed, warnings };
}

/**
 * The leftovers in `root`'s `.pictor-tmp` (and what `alsoRemove` names) go, then the folder if
 * it is empty: another process sharing the library may still be writing there. Never throws.
 */
export async function clearTempFolder(
  root: string,
  nowMs: number,
  alsoRemove?: (name: string) => boolean,
): Promise<void> {
  const temp = join(root, TEMP_DIR);
  await sweepLeftoverTemps(root, temp, { nowMs, ...(alsoRemove ? { alsoRemove } : {}) }).catch(
    () => undefined,
  );
  await removeEmptyFolder(root, temp).catch(() => undefined);
}
