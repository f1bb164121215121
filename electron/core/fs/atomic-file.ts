/**
 * Small file-system helpers for writing gallery files so that a crash never leaves a
 * half-written file under its final name.
 */
import { TEMP_DIR, ownTempName } from './temp-names';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { checkContained, removeFile } from './contained-fs';
import { GALLERY_FILE_MODE } from './private-files';

/**
 * A fresh, unguessable path inside `<root>/.pictor-tmp`, named as this process's (temp-names.ts),
 * so no other process sharing the library takes it for a leftover while it is in use.
 */
export function tempPath(root: string, suffix = '.part'): string {
  return join(root, TEMP_DIR, ownTempName(suffix));
}

/**
 * Removes a file, ignoring one that is already gone (and any other failure). With `root`, the
 * removal is refused when a folder between `root` and the file is a link (core/fs/contained-fs);
 * without it, only a link at `path` itself is safe (it is removed as a link).
 */
export async function removeQuietly(path: string, root?: string): Promise<void> {
  if (root === undefined) await rm(path, { force: true }).catch(() => undefined);
  else await removeFile(root, path).catch(() => undefined);
}

/**
 * Creates `path` (it must not exist) with `mode` (before the umask; default
 * {@link GALLERY_FILE_MODE}, never Node's 0666, which a umask of 000 leaves writable by all),
 * writes `data` and flushes it to disk.
 */
export async function writeNewFileSynced(
  path: string,
  data: string | Uint8Array,
  mode: number = GALLERY_FILE_MODE,
): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a rename durable. Best effort: some systems (Windows) cannot open a folder for
 * syncing, and the data itself is already on disk.
 */
export async function fsyncDir(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // Not supported here; the rename is still atomic, only its durability is weaker.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Writes `data` to a temp file (created with `mode`, see {@link writeNewFileSynced}), syncs it and
 * renames it over `target`. Neither the temp folder nor a folder between `root` and `target` may
 * be a link (the write would land elsewhere).
 * @throws UnsafePathError (core/fs/contained-fs); file-system errors.
 */
export async function writeFileAtomic(
  root: string,
  target: string,
  data: string | Uint8Array,
  mode: number = GALLERY_FILE_MODE,
): Promise<void> {
  await checkContained(root, join(root, TEMP_DIR));
  await checkContained(root, dirname(target));
  const temp = tempPath(root, '.tmp');
  try {
    await writeNewFileSynced(temp, data, mode);
    await rename(temp, target);
  } catch (error) {
    await removeQuietly(temp);
    throw error;
  }
}
