/**
 * The one home of the tests' temporary folders. Every folder a test makes for itself is made here,
 * under the OS's temporary folder unless the test names another parent (a memory folder,
 * tests/support/memory-temp.ts), and named `pictor-<name>-` and six random characters, so a folder
 * a run leaves behind says which test made it (`npm test` fails a run that leaves one:
 * tests/support/run-temp.ts). And removed here: recursively, a missing folder being no error, and
 * once, without Node's retries, except on Windows. They retried a removal while something still
 * made files in the folder (a write the code under test finished after the test's end: a removal
 * that found `.pictor-tmp` made meanwhile failed ENOTEMPTY), which hid that late writer instead of
 * failing its test; session 46 found one (a rating written after the core's close) and closed it
 * at the mechanism (electron/core/base/closing-gate.ts). A writer still at work after its test
 * has ended is the code's or the test's defect, and now fails that test's teardown. Node's other
 * retried errors (EBUSY, EPERM) are Windows' files still held open for a moment by another
 * process (a virus scanner, the indexer, a child that has just exited: the packaged app's checks
 * run there, tests/e2e/packaged), which Linux and macOS do not have: on Windows the retries stay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * How every test's temporary folder's name begins: a folder a run left behind says which test
 * made it (tests/support/run-temp.ts names it).
 */
const TEMP_PREFIX = 'pictor-';

/** A removal's options: the whole tree, nothing there is no error, once (Windows: retried). */
const REMOVE = {
  recursive: true,
  force: true,
  ...(process.platform === 'win32' ? { maxRetries: 10, retryDelay: 50 } : {}),
} as const;

function template(name: string, parent: string): string {
  return join(parent, `${TEMP_PREFIX}${name}-`);
}

/** A new, empty folder `pictor-<name>-XXXXXX` in `parent` (the OS's temporary folder). */
export function tempFolder(name: string, parent: string = tmpdir()): Promise<string> {
  return mkdtemp(template(name, parent));
}

/** {@link tempFolder}, for a caller that cannot wait (a module's top level, a sync fixture). */
export function tempFolderSync(name: string, parent: string = tmpdir()): string {
  return mkdtempSync(template(name, parent));
}

/** Removes `path` and everything in it; a folder that is not there is no error. */
export function removeFolder(path: string): Promise<void> {
  return rm(path, REMOVE);
}

/** {@link removeFolder}, for a caller that cannot wait. */
export function removeFolderSync(path: string): void {
  rmSync(path, REMOVE);
}

/**
 * The folders a file's tests made, removed together when its tests end (`afterEach` or `afterAll`
 * calls {@link removeAll}): for fixtures that make folders as they need them.
 */
export class TempFolders {
  private readonly made: string[] = [];

  async make(name: string, parent?: string): Promise<string> {
    const dir = await tempFolder(name, parent);
    this.made.push(dir);
    return dir;
  }

  makeSync(name: string, parent?: string): string {
    const dir = tempFolderSync(name, parent);
    this.made.push(dir);
    return dir;
  }

  /** Removes every folder made so far, and forgets them. */
  async removeAll(): Promise<void> {
    await Promise.all(this.made.splice(0).map(removeFolder));
  }
}
