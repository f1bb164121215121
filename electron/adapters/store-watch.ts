/**
 * Notice of a store's JSON file being written, for the app to read again what a `pictor` command
 * changed while it runs (Settings showing what the file holds, a send following "never upload
 * inputs" set from a terminal). The file's state is looked at every second (a stat, off the main
 * thread) rather than watched by the system: a write replaces the file by a rename, which a
 * system watch of the file loses after the first, and a watch of its folder would wake main at
 * every write of the history beside it (history.sqlite and its journal). A change within the
 * second is also seen at once where it matters: the app reads the file again when its window
 * comes forward.
 *
 * Not `fs.watchFile`: its first look at the file is taken on a worker thread after it returns,
 * and is the state it compares with, so a write made as the watch began (a command's change
 * while the app starts) was its starting state and never reported. Here the starting state is
 * the caller's: looked at before the watch returns.
 */
import { stat, statSync, type Stats } from 'node:fs';
import { toDisposable, type Disposable } from '../ports/disposable';

/** How often the file's state is looked at. */
const STORE_WATCH_INTERVAL_MS = 1_000;

/** What tells one version of the file from another; `null` when it cannot be looked at. */
type FileState = Pick<Stats, 'mtimeMs' | 'ino' | 'size'> | null;

function stateOf(info: Stats | undefined): FileState {
  return info === undefined ? null : { mtimeMs: info.mtimeMs, ino: info.ino, size: info.size };
}

function sameState(a: FileState, b: FileState): boolean {
  if (a === null || b === null) return a === b;
  return a.mtimeMs === b.mtimeMs && a.ino === b.ino && a.size === b.size;
}

function stateNow(file: string): FileState {
  try {
    return stateOf(statSync(file, { throwIfNoEntry: false }));
  } catch {
    return null;
  }
}

/** Calls `listener` after each change of `file` (written, replaced, made, removed), until disposed. */
export function watchStoreFile(file: string, listener: () => void): Disposable {
  let before = stateNow(file);
  let looking = false;
  let disposed = false;
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    stat(file, (error, info) => {
      looking = false;
      const now = error ? null : stateOf(info);
      if (disposed || sameState(now, before)) return;
      before = now;
      listener();
    });
  }, STORE_WATCH_INTERVAL_MS);
  timer.unref();
  return toDisposable(() => {
    disposed = true;
    clearInterval(timer);
  });
}
