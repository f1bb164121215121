/**
 * Single-process locks: a file created with O_EXCL that names its owner's pid. A lock whose
 * owner is gone (killed, crashed) is stale and taken over, so a crash never locks the user out.
 */
import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { HistoryError, reasonOf } from './history-error';

/** A lock this process holds. `release()` is idempotent. */
export interface HeldLock {
  release(): void;
  /** A stale lock was taken over: the previous owner stopped without releasing it (a crash). */
  readonly tookOverStale: boolean;
}

const lockContentSchema = z.object({ pid: z.number().int().positive(), startedAt: z.number() });
type LockContent = z.infer<typeof lockContentSchema>;

/** Lock paths this process holds: a lock naming our own pid that is not here was left by an
 * earlier run that happened to have the same pid (common in containers), so it is stale. */
const heldPaths = new Set<string>();

/** The name of the data folder's lock file. */
export const DATA_DIR_LOCK_FILE = 'pictor.lock';

/**
 * One process at a time per data folder: creates `<dir>/pictor.lock` holding `{pid, startedAt}`.
 * A lock whose pid is not alive is stale and taken over; otherwise throws a {@link HistoryError}.
 */
export function acquireDataDirLock(dir: string): HeldLock {
  return acquireLockFile(
    join(dir, DATA_DIR_LOCK_FILE),
    (pid) =>
      `Another Pictor process (pid ${pid}) is using ${dir}. Close that Pictor window or command, then try again.`,
  );
}

/**
 * Takes the lock at `lockPath`, or throws a {@link HistoryError} with `refusal(ownerPid)` when a
 * live process holds it.
 */
export function acquireLockFile(lockPath: string, refusal: (pid: number) => string): HeldLock {
  const path = resolve(lockPath);
  if (heldPaths.has(path)) throw new HistoryError(refusal(process.pid));
  const mine: LockContent = { pid: process.pid, startedAt: Date.now() };
  // More than one attempt: a stale lock is removed and the create tried again.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (tryCreate(path, mine)) {
      heldPaths.add(path);
      return { release: () => release(path, mine), tookOverStale: attempt > 0 };
    }
    const owner = readOwner(path);
    if (owner !== null && owner.pid !== process.pid && isAlive(owner.pid)) {
      throw new HistoryError(refusal(owner.pid));
    }
    // Stale: the owner is gone, or the file is unreadable (a crash between create and write).
    // Two processes taking over the same stale lock at the same instant could both succeed;
    // the app's single-instance guard makes that window practically unreachable.
    removeIfPresent(path);
  }
  throw new HistoryError(
    `Pictor could not take over the lock file ${path}. Delete it and try again.`,
  );
}

function tryCreate(path: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600); // owner-only: it names a pid and a start time
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw new HistoryError(
      `Pictor could not create its lock file ${path}. Check that the folder is writable.`,
      {
        detail: reasonOf(error),
        cause: error,
      },
    );
  }
  try {
    writeSync(fd, JSON.stringify(content));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(path: string): LockContent | null {
  try {
    const parsed = lockContentSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `process.kill(pid, 0)` sends nothing; ESRCH means no such process, EPERM means it exists. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) !== 'ESRCH';
  }
}

function release(path: string, mine: LockContent): void {
  if (!heldPaths.delete(path)) return;
  const owner = readOwner(path);
  // Never delete a lock someone else took over (for example after this process was suspended).
  if (owner?.pid === mine.pid && owner.startedAt === mine.startedAt) removeIfPresent(path);
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}
