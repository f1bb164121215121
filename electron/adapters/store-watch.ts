/**
 * Notice of a store's JSON file being written, for the app to read again what a `pictor` command
 * changed while it runs (Settings showing what the file holds, a send following "never upload
 * inputs" set from a terminal). The file's state is looked at every second (a stat, off the main
 * thread) rather than watched by the system: a write replaces the file by a rename, which a
 * system watch of the file loses after the first, and a watch of its folder would wake main at
 * every write of the history beside it (history.sqlite and its journal). A change within the
 * second is also seen at once where it matters: the app reads the file again when its window
 * comes forward.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { toDisposable, type Disposable } from '../ports/disposable';

/** How often the file's state is looked at. */
const STORE_WATCH_INTERVAL_MS = 1_000;

/** Calls `listener` after each change of `file` (written, replaced, made, removed), until disposed. */
export function watchStoreFile(file: string, listener: () => void): Disposable {
  const changed = (now: Stats, before: Stats) => {
    if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) {
      listener();
    }
  };
  watchFile(file, { persistent: false, interval: STORE_WATCH_INTERVAL_MS }, changed);
  return toDisposable(() => unwatchFile(file, changed));
}
