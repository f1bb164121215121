/**
 * Faults a real folder cannot be made to give on this machine (the tests run as root, where chmod
 * binds nothing; no disk here fills on demand), injected on the `.part` file a chosen file is
 * written to before it is renamed into place (electron/core/fs/chosen-file.ts), and only on it:
 * its creation refused, its writes failing once some bytes are in (a disk that fills mid-write,
 * those bytes really written), its sync or its rename refused. A test file installs them with
 *
 *   vi.mock('node:fs/promises', async (original) =>
 *     (await import('../support/part-file-faults')).withPartFaults(await original()));
 *
 * and sets {@link partFaults} before the step it fails; {@link clearPartFaults} after each test.
 */
import type * as FsPromises from 'node:fs/promises';

export interface PartFaults {
  /** Its creation fails with this code (nothing is created). */
  create: string | null;
  /** Its writes fail with `code` once `after` bytes are in (those bytes are written). */
  write: { code: string; after: number } | null;
  /** Its sync fails with this code. */
  sync: string | null;
  /** Its rename onto the target fails with this code. */
  rename: string | null;
  /** Bytes the `.part` files took before a write failed (to see a failure came mid-write). */
  written: number;
}

/** The faults now, shared by the test file and its mocked `node:fs/promises`. */
export const partFaults: PartFaults = {
  create: null,
  write: null,
  sync: null,
  rename: null,
  written: 0,
};

export function clearPartFaults(): void {
  Object.assign(partFaults, { create: null, write: null, sync: null, rename: null, written: 0 });
}

const systemError = (code: string) =>
  Object.assign(new Error(`${code}: injected`), { code, syscall: 'write' });

const isPart = (path: unknown) => String(path).endsWith('.part');

/** `handle` (a `.part` file's) with the write and sync faults in place. */
function faulty(handle: FsPromises.FileHandle): FsPromises.FileHandle {
  const writeAll = handle.writeFile.bind(handle);
  const sync = handle.sync.bind(handle);
  return Object.assign(handle, {
    writeFile: async (data: string | Uint8Array) => {
      const bytes = Buffer.from(data);
      const failing = partFaults.write;
      if (failing === null || partFaults.written + bytes.length <= failing.after) {
        partFaults.written += bytes.length;
        return writeAll(bytes);
      }
      const room = Math.max(0, failing.after - partFaults.written);
      await writeAll(bytes.subarray(0, room));
      partFaults.written += room;
      throw systemError(failing.code);
    },
    sync: () => (partFaults.sync === null ? sync() : Promise.reject(systemError(partFaults.sync))),
  });
}

/** `fs` (the real `node:fs/promises`) with {@link partFaults} injected on `.part` files. */
export function withPartFaults(fs: typeof FsPromises): typeof FsPromises {
  const patched = {
    ...fs,
    open: async (path: string, flags?: string, mode?: number) => {
      if (partFaults.create !== null && isPart(path)) throw systemError(partFaults.create);
      const handle = await fs.open(path, flags, mode);
      return isPart(path) ? faulty(handle) : handle;
    },
    rename: (from: string, to: string) =>
      partFaults.rename !== null && isPart(from)
        ? Promise.reject(systemError(partFaults.rename))
        : fs.rename(from, to),
  } as typeof FsPromises;
  return { ...patched, default: patched } as typeof FsPromises;
}
