/**
 * Copies one task folder for a gallery move, file by file, never through a link: each source
 * file is opened as a regular file that lies inside its gallery once opened (regular-file.ts),
 * each copy is created with O_EXCL (which never follows a link either), written, flushed to disk
 * and given the original's modification time. A name the target's disk refuses is reported by
 * its path in the library (relocate-names.ts). `compareTaskFolder` tells a finished copy from a
 * previous try apart from one that differs.
 */
import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncDir, openRegularFile, PRIVATE_FOLDER_MODE, UnsafeFileError } from '../fs';
import { creatingName } from './relocate-names';
import type { TaskFolderPlan } from './relocate-plan';

const CHUNK = 1024 * 1024;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** A folder and the gallery root every file read from it must lie in. */
export interface RootedFolder {
  readonly root: string;
  readonly folder: string;
}

function nativePath(folder: string, path: string): string {
  return join(folder, ...path.split('/'));
}

async function openSource(from: RootedFolder, path: string): Promise<FileHandle> {
  const file = nativePath(from.folder, path);
  try {
    return (await openRegularFile(from.root, file, Number.MAX_SAFE_INTEGER)).handle;
  } catch (error) {
    if (!(error instanceof UnsafeFileError)) throw error;
    throw Object.assign(new Error(`${file} is no longer a regular file in the gallery.`), {
      code: 'EINVAL',
    });
  }
}

/** Makes the name `path` (task-folder-relative) in the target, a refusal reported by name. */
type NamedCreate = <T>(path: string, create: () => Promise<T>) => Promise<T>;

async function copyOne(
  from: RootedFolder,
  path: string,
  to: string,
  named: NamedCreate,
): Promise<void> {
  const source = await openSource(from, path);
  try {
    const info = await source.stat();
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
    const target = await named(path, () => open(to, flags, 0o644));
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, CHUNK, null);
        if (bytesRead === 0) break;
        let written = 0;
        while (written < bytesRead) {
          written += (await target.write(buffer, written, bytesRead - written)).bytesWritten;
        }
      }
      await target.sync();
      await target.utimes(info.atime, info.mtime);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** A move's cancel signal (checked before each file) and its per-file progress. */
export interface CopyHooks {
  readonly signal?: AbortSignal | undefined;
  /** Called after each file is copied, with its size in bytes. */
  readonly onFile?: ((bytes: number) => void) | undefined;
  /** Injected faults (tests): called before each name is made in the target, root-relative. */
  readonly beforeCreate?: ((path: string) => void | Promise<void>) | undefined;
}

/**
 * Copies the planned folders and files of `task` from `source` into `copy` (a fresh folder in
 * the target's `.pictor-tmp`), then checks every copy's bytes against its original.
 * @throws NameRefusedError naming a file or folder the target's disk cannot hold; file-system
 *   errors (a full disk: ENOSPC), or when a copy differs; the signal's reason when the move was
 *   cancelled.
 */
export async function copyTaskFolder(
  task: TaskFolderPlan,
  source: RootedFolder,
  copy: RootedFolder,
  hooks: CopyHooks = {},
): Promise<void> {
  const copyFolder = copy.folder;
  // Task folders are the user's alone, as ensureFolder makes them.
  await mkdir(copyFolder, { mode: PRIVATE_FOLDER_MODE });
  const named: NamedCreate = (path, create) =>
    creatingName(`${task.relative}/${path}`, dirname(nativePath(source.folder, path)), async () => {
      await hooks.beforeCreate?.(`${task.relative}/${path}`);
      return create();
    });
  for (const folder of task.folders) {
    await named(folder, () => mkdir(nativePath(copyFolder, folder), { mode: PRIVATE_FOLDER_MODE }));
  }
  for (const file of task.files) {
    hooks.signal?.throwIfAborted();
    await copyOne(source, file.path, nativePath(copyFolder, file.path), named);
    hooks.onFile?.(file.size);
  }
  for (const folder of [...task.folders].reverse()) await fsyncDir(nativePath(copyFolder, folder));
  await fsyncDir(copyFolder);
  const comparison = await compareTaskFolder(task, source, copy);
  if (comparison !== 'same') {
    throw Object.assign(new Error('A copied file does not match its original.'), { code: 'EIO' });
  }
}

async function sameBytes(a: RootedFolder, b: RootedFolder, path: string): Promise<boolean> {
  const [left, right] = await Promise.all([openSource(a, path), openSource(b, path)]);
  try {
    const [infoA, infoB] = await Promise.all([left.stat(), right.stat()]);
    if (infoA.size !== infoB.size) return false;
    const bufferA = Buffer.allocUnsafe(CHUNK);
    const bufferB = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const [readA, readB] = await Promise.all([
        left.read(bufferA, 0, CHUNK, null),
        right.read(bufferB, 0, CHUNK, null),
      ]);
      if (readA.bytesRead !== readB.bytesRead) return false;
      if (readA.bytesRead === 0) return true;
      if (!bufferA.subarray(0, readA.bytesRead).equals(bufferB.subarray(0, readB.bytesRead)))
        return false;
    }
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

/**
 * `'same'` when every planned file of `task` is in `other` with the same bytes (a copy a
 * previous try finished), else `'different'`. Reads both sides as regular files inside their roots.
 */
export async function compareTaskFolder(
  task: TaskFolderPlan,
  source: RootedFolder,
  other: RootedFolder,
): Promise<'same' | 'different'> {
  for (const file of task.files) {
    const same = await sameBytes(source, other, file.path).catch(() => false);
    if (!same) return 'different';
  }
  return 'same';
}
