/**
 * Notice of a store's JSON file being written, for the app to read again what a `pictor` command
 * changed while it ran (Settings showing what the file holds, a send following "never upload
 * inputs" set from a terminal). A write replaces the file by a rename (json-file-kv.ts,
 * electron-store's own writes), which a watch of the file itself would lose after the first: the
 * folder is watched, and only events naming the file (or naming none, where a platform gives no
 * name) are passed on. Where the system gives no notice (no watch left, a network folder), none
 * comes: the app also reads the file again when its window comes forward.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { toDisposable, type Disposable } from '../ports/disposable';

/** Calls `listener` on every change the system reports to `file`, until disposed; never throws. */
export function watchStoreFile(file: string, listener: () => void): Disposable {
  const name = basename(file);
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed === null || changed === name) listener();
    });
  } catch {
    return toDisposable(() => undefined);
  }
  // A watch that fails later (its folder removed) ends; the window's focus still reads again.
  watcher.on('error', () => watcher.close());
  return toDisposable(() => watcher.close());
}
