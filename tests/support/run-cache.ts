/**
 * Files a run makes once for all its test files (a history of 50,000 tasks takes seconds of CPU
 * to write, and two files read it): kept in the run's folder (run-cache-setup.ts) by a name that
 * says what they hold. The first file to ask makes it; a file that asks meanwhile waits until it
 * is there. A file is made beside the cache and renamed into it whole, so none reads it half made.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { inject, vi } from 'vitest';

/** The path of the run's file `name` (its parameters in it), made by `make` if it is not there. */
export async function runCachedFile(
  name: string,
  make: (file: string) => Promise<void> | void,
  /** How long a file waits for another's making: as long as that file's hook may take. */
  timeout: number,
): Promise<string> {
  const dir = inject('pictorRunCache');
  const file = join(dir, name);
  if (existsSync(file)) return file;
  // mkdir is atomic: one file makes it, the others wait for its rename.
  const claimed = await mkdir(join(dir, `${name}.making`)).then(
    () => true,
    () => false,
  );
  if (!claimed) {
    await vi.waitFor(
      () => {
        if (!existsSync(file)) throw new Error(`${name} is still being made`);
      },
      { timeout, interval: 50 },
    );
    return file;
  }
  const work = await mkdtemp(join(dir, 'work-'));
  try {
    await make(join(work, name));
    await rename(join(work, name), file);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return file;
}
