/**
 * Where a test's temporary folder goes when what it tests is not the disk: a folder in memory
 * (Linux's /dev/shm, a tmpfs) where the machine has one with room, else the OS's temporary folder.
 * The app syncs every history write to disk (`PRAGMA synchronous = FULL`, each transaction its
 * own sync): the renderer's wired tests, which seed a main's history with hundreds of tasks and
 * empty it one task at a time before the next test (shared-wired-main.ts), waited on a disk sync
 * per task (300 tasks removed: 1.8 s of wall time for 80 ms of CPU on this machine's disk). On a
 * tmpfs a sync returns at once; the files, the folder's modes and the app's code are the same.
 * What a sync and a full disk do is the history's and the hardening tests' to prove, on a real disk.
 * Only the history's folder goes there: the app refuses to move or open a gallery under /dev (a
 * system folder: electron/core/library/relocate-target.ts), so the gallery stays where it was.
 *
 * The hardening suites keep their whole worlds there too (a kill, fault or race suite's history,
 * gallery and journals): what they show does not depend on the disk. The fault suites judge fault
 * handling (a slow disk's backlog would time requests out, which is no fault the service
 * injected; disk trouble is section 2's subject), and the kill suites a process killed by SIGKILL,
 * whose writes the kernel keeps whatever the filesystem (the page cache outlives the process; a
 * power cut, which it does not, is no case of theirs). PICTOR_FAULTS_ON_DISK=1 keeps every such
 * folder in the OS's temporary folder instead.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';

/** statfs's type of a tmpfs (Linux's TMPFS_MAGIC). */
const TMPFS = 0x01021994;

/** Room a memory folder must have free to be used: the run's large histories and their copies. */
const ROOM_BYTES = 2 * 1024 ** 3;

/** The memory folders looked for, in order. */
const MEMORY_FOLDERS = ['/dev/shm'];

/** `folder` when it is a tmpfs this process may write in with `room` bytes free, else null. */
function memoryFolder(folder: string, room: number): string | null {
  try {
    const info = statfsSync(folder);
    if (info.type !== TMPFS || info.bavail * info.bsize < room) return null;
    accessSync(folder, constants.W_OK | constants.X_OK);
    return folder;
  } catch {
    return null;
  }
}

/**
 * The parent for a test's temporary folder: the first of `folders` that is a writable tmpfs with
 * `room` bytes free, else `tmpdir()` (always, when `env` has PICTOR_FAULTS_ON_DISK=1).
 */
export function memoryTempParent(
  folders: readonly string[] = MEMORY_FOLDERS,
  room: number = ROOM_BYTES,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (env['PICTOR_FAULTS_ON_DISK'] === '1') return tmpdir();
  for (const folder of folders) {
    const found = memoryFolder(folder, room);
    if (found !== null) return found;
  }
  return tmpdir();
}
