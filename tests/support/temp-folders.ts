/**
 * The one home of the tests' temporary folders. Every folder a test makes for itself is made here,
 * under the OS's temporary folder unless the test names another parent (a memory folder,
 * tests/support/memory-temp.ts), and named `pictor-<name>-` and six random characters, so a folder
 * a run leaves behind says which test made it (`npm test` fails a run that leaves one:
 * tests/support/run-temp.ts). And removed here: recursively, a missing folder
 * being no error, with retries while something still makes a file in it (a background write the
 * code under test finishes as the test ends: a removal that found `.pictor-tmp` made meanwhile
 * failed ENOTEMPTY), as Node's own retries do, 10 of them 50 ms apart at most.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * How every test's temporary folder's name begins: what a run left behind is told by it
 * (tests/support/run-temp.ts).
 */
export const TEMP_PREFIX = 'pictor-';

/** A removal's options: the whole tree, nothing there is no error, retried while busy. */
const REMOVE = { recursive: true, force: true, maxRetries: 10, retryDelay: 50 } as const;

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
