/** The file operations of "Install Command Line Tool…" (app/os/command-line-tool.ts) on node:fs. */
import { lstat, readlink, symlink, unlink } from 'node:fs/promises';
import type { CommandLineToolFs, PathEntry } from '../app/os/command-line-tool';
import { systemErrorCode } from '../core/errors';

export const nodeCommandLineToolFs: CommandLineToolFs = {
  async inspect(path): Promise<PathEntry> {
    try {
      const stats = await lstat(path);
      if (!stats.isSymbolicLink()) return { kind: 'other' };
      return { kind: 'link', target: await readlink(path) };
    } catch (error) {
      if (systemErrorCode(error) === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
  },
  symlink: (target, path) => symlink(target, path),
  unlink: (path) => unlink(path),
};
