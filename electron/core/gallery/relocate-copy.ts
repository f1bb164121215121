/**
 * Copies one task folder for a gallery move, file by file, never through a link: each source
 * file is opened with O_NOFOLLOW and checked to be a regular file, each copy is created with
 * O_EXCL (which never follows a link either), written, flushed to disk and given the original's
 * modification time. `compareTaskFolder` tells a finished copy from a previous try apart from
 * one that differs.
 */
import { constants } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDir } from './atomic-file';
import type { TaskFolderPlan } from './relocate-plan';

const CHUNK = 1024 * 1024;
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

function nativePath(folder: string, path: string): string {
  return join(folder, ...path.split('/'));
}

async function openSource(path: string): Promise<FileHandle> {
  const handle = await open(path, constants.O_RDONLY | NO_FOLLOW);
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw Object.assign(new Error(`${path} is no longer a regular file.`), { code: 'EINVAL' });
  }
  return handle;
}

async function copyOne(from: string, to: string): Promise<void> {
  const source = await openSource(from);
  try {
    const info = await source.stat();
    const target = await open(
      to,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW,
      0o644,
    );
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
}

/**
 * Copies the planned folders and files of `task` from `sourceFolder` into `copyFolder` (a fresh
 * folder in the target's `.pictor-tmp`), then checks every copy's size against its original.
 * @throws file-system errors (a full disk: ENOSPC), or when a copy's size differs; the signal's
 *   reason when the move was cancelled.
 */
export async function copyTaskFolder(
  task: TaskFolderPlan,
  sourceFolder: string,
  copyFolder: string,
  hooks: CopyHooks = {},
): Promise<void> {
  await mkdir(copyFolder);
  for (const folder of task.folders) await mkdir(nativePath(copyFolder, folder));
  for (const file of task.files) {
    hooks.signal?.throwIfAborted();
    await copyOne(nativePath(sourceFolder, file.path), nativePath(copyFolder, file.path));
    hooks.onFile?.(file.size);
  }
  for (const folder of [...task.folders].reverse()) await fsyncDir(nativePath(copyFolder, folder));
  await fsyncDir(copyFolder);
  const comparison = await compareTaskFolder(task, sourceFolder, copyFolder);
  if (comparison !== 'same') {
    throw Object.assign(new Error('A copied file does not match its original.'), { code: 'EIO' });
  }
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([openSource(a), openSource(b)]);
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
 * `'same'` when every planned file of `task` is in `otherFolder` with the same bytes (a copy a
 * previous try finished), else `'different'`. Reads both sides through O_NOFOLLOW.
 */
export async function compareTaskFolder(
  task: TaskFolderPlan,
  sourceFolder: string,
  otherFolder: string,
): Promise<'same' | 'different'> {
  for (const file of task.files) {
    const same = await sameBytes(
      nativePath(sourceFolder, file.path),
      nativePath(otherFolder, file.path),
    ).catch(() => false);
    if (!same) return 'different';
  }
  return 'same';
}
