/**
 * What a gallery move removes (relocate.ts): after a cancel, what it placed in the target; after
 * the switch, exactly what it copied from the old folder. Never through a link (contained-fs.ts).
 */
import { rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { clearTempFolder, isWithin, removeEmptyFolder, removeFile, removeTree } from '../fs';
import { isOwnMove } from './relocate-temp';
import type { TaskFolderPlan } from './relocate-plan';

function nativePath(root: string, relative: string): string {
  return join(root, ...relative.split('/'));
}

/**
 * After a cancel: the task folders this try placed in the target go again (never anything that
 * was there before it), then the folders they leave empty, the move's temp folder, and the
 * target itself when this try created it and it is empty.
 */
export async function undoCopies(
  target: string,
  placed: readonly TaskFolderPlan[],
  createdTarget: boolean,
  options: { readonly now?: (() => number) | undefined },
): Promise<void> {
  for (const task of placed) {
    let dir = nativePath(target, task.relative);
    await removeTree(target, dir, { onLink: 'unlink' }).catch(() => undefined);
    dir = dirname(dir);
    while (isWithin(target, dir) && dir !== target) {
      if (!(await removeEmptyFolder(target, dir).catch(() => false))) break;
      dir = dirname(dir);
    }
  }
  await clearTempFolder(target, (options.now ?? Date.now)(), isOwnMove);
  if (createdTarget) await rmdir(target).catch(() => undefined);
}

/** Removes exactly what was copied of one task folder, and the folders it leaves empty. */
export async function removeOld(
  source: string,
  task: TaskFolderPlan,
  left: string[],
): Promise<void> {
  const folder = nativePath(source, task.relative);
  for (const file of task.files) {
    const path = nativePath(folder, file.path);
    await removeFile(source, path).catch(() => left.push(path));
  }
  for (const sub of [...task.folders].reverse()) {
    await removeEmptyFolder(source, nativePath(folder, sub)).catch(() => false);
  }
  let dir = folder;
  while (isWithin(source, dir) && dir !== source) {
    if (!(await removeEmptyFolder(source, dir).catch(() => false))) break;
    dir = dirname(dir);
  }
}
