/**
 * The lock of a store's JSON file (settings.json, a key vault's) across processes. The app
 * writes its settings through electron-store and every `pictor` command through JsonFileKv, and
 * each write reads the file, changes it and writes it whole: two writers at once, or a writer that
 * kept an old copy, would each write over the other's change. A change runs holding this lock, so
 * no other process's write comes between its read and its write.
 *
 * The lock is SQLite's (`<file>.lock`, an empty database, 0600, never written): the kernel's lock on a file descriptor, so a process killed while holding it holds
 * nothing, and no leftover can lock the user out (a lock file named by an owner's pid would need
 * a rule for a dead owner, and two processes breaking a stale lock at once break each other's).
 * The same process may take it again inside a change (reentrant, per file).
 *
 * Waiting for it is SQLite's busy wait, which blocks the thread: right for a `pictor` command,
 * which has nothing else to do meanwhile, wrong for the app's main process, whose window would
 * freeze for as long as another process holds the lock (a command suspended with Ctrl+Z in the
 * middle of a write holds it until it is resumed). The app takes it with
 * {@link withStoreLockAsync}: one try that never waits, and the next after a pause in which the
 * event loop runs on; the change itself still runs whole, holding the lock.
 */
import { closeSync, constants, lstatSync, openSync, truncateSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { PRIVATE_FILE_MODE, tightenFileSync } from '../core/fs';
import { systemErrorCode } from '../core/errors';
import { StoreBusyError } from '../ports/key-value-store';

/** How long a change waits for another process's change to end before it gives up. */
const STORE_LOCK_WAIT_MS = 5_000;

/** The pauses between the tries of {@link withStoreLockAsync}: doubling from the first. */
const RETRY_FIRST_MS = 5;
const RETRY_MOST_MS = 100;

/** The lock file beside the store's file. */
export const storeLockPath = (file: string): string => `${file}.lock`;

/** Files whose lock this process holds now, and how deep. */
const held = new Map<string, number>();

/** SQLite's answer for a file that is not a database (a lock file overwritten by hand). */
const SQLITE_NOTADB = 26;

/**
 * Creates the lock file owner-only when missing. Only a regular file is one: a FIFO would block
 * the open, a folder or a link is no lock of ours.
 */
function ensureLockFile(path: string): void {
  try {
    if (!lstatSync(path).isFile()) throw new Error(`${path} is not a regular file.`);
    tightenFileSync(path);
    return;
  } catch (error) {
    if (systemErrorCode(error) !== 'ENOENT') throw error;
  }
  const flags = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0);
  closeSync(openSync(path, flags, PRIVATE_FILE_MODE));
}

function openLock(path: string, waitMs: number): DatabaseSync {
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  const db = new DatabaseSync(path, { timeout: waitMs });
  try {
    // Nothing is ever written: no journal beside it, so a full disk takes no lock away.
    db.exec('PRAGMA journal_mode = MEMORY');
    db.exec('BEGIN IMMEDIATE');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

const errcodeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null ? (error as { errcode?: unknown }).errcode : null;

/**
 * Takes the lock of `file`: the open database holding it. A lock file that is not an empty
 * database (text written over it) holds no one's lock: it is emptied and taken.
 * @throws StoreBusyError after `waitMs` while another process holds it.
 */
function take(file: string, waitMs: number): DatabaseSync {
  const path = storeLockPath(file);
  ensureLockFile(path);
  try {
    return openLock(path, waitMs);
  } catch (error) {
    if (errcodeOf(error) === SQLITE_NOTADB) {
      truncateSync(path, 0);
      return openLock(path, waitMs);
    }
    if (/locked|busy/i.test(String((error as Error).message))) {
      throw new StoreBusyError(`Another Pictor process kept ${file} locked.`, { cause: error });
    }
    throw error;
  }
}

/**
 * Runs `work` holding the lock of `file` (see the file's comment), released when it returns or
 * throws. Inside, the same process takes it again at no cost.
 * @throws StoreBusyError when another process held it for `waitMs`; what `work` threw.
 */
export function withStoreLock<T>(file: string, work: () => T, waitMs = STORE_LOCK_WAIT_MS): T {
  const depth = held.get(file) ?? 0;
  if (depth > 0) return holdingAgain(file, depth, work);
  return holding(file, take(file, waitMs), work);
}

/**
 * {@link withStoreLock} for a thread that must not block (the app's main process): while another
 * process holds the lock, it is tried again after a pause (5 ms, doubling up to 100 ms) until
 * `waitMs` have passed, the event loop running on meanwhile. `work` runs whole holding it, as
 * there; the first try is made at once, so a lock no one holds is taken before this returns.
 * @throws StoreBusyError when another process held it for `waitMs`; what `work` threw.
 */
export async function withStoreLockAsync<T>(
  file: string,
  work: () => T,
  waitMs = STORE_LOCK_WAIT_MS,
): Promise<T> {
  const until = performance.now() + waitMs;
  for (let pause = RETRY_FIRST_MS; ; pause = Math.min(pause * 2, RETRY_MOST_MS)) {
    const depth = held.get(file) ?? 0;
    if (depth > 0) return holdingAgain(file, depth, work);
    let db: DatabaseSync;
    try {
      db = take(file, 0);
    } catch (error) {
      const left = until - performance.now();
      if (!(error instanceof StoreBusyError) || left <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      continue;
    }
    return holding(file, db, work);
  }
}

/** Runs `work` inside a change this process already holds the lock for. */
function holdingAgain<T>(file: string, depth: number, work: () => T): T {
  held.set(file, depth + 1);
  try {
    return work();
  } finally {
    held.set(file, depth);
  }
}

/** Runs `work` holding the lock `db` has just taken, and lets it go. */
function holding<T>(file: string, db: DatabaseSync, work: () => T): T {
  held.set(file, 1);
  try {
    return work();
  } finally {
    held.delete(file);
    // Closing rolls the empty transaction back and lets the lock go.
    db.close();
  }
}
