/**
 * A copy of a small file kept beside it before it is rewritten (the settings file's old values,
 * kept when a repair rewrites it): whole or not at all, never over another file.
 */
import { constants, copyFileSync, rmSync } from 'node:fs';
import { systemErrorCode } from '../errors';

/**
 * Copies `path` to `target` (which must not exist; the mode comes along): the copy's path, or
 * null when there is no file. A copy cut short (a full disk) is removed.
 * @throws what the copy threw.
 */
export function copyBeside(path: string, target: string): string | null {
  try {
    copyFileSync(path, target, constants.COPYFILE_EXCL);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'ENOENT') return null;
    if (code !== 'EEXIST') rmSync(target, { force: true });
    throw error;
  }
  return target;
}
