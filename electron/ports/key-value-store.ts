/**
 * A small JSON file of named values (electron-store in the app, a map in tests). Settings and the
 * key vault each get their own, so a damaged settings file never touches the key.
 */
import type { Disposable } from './disposable';

/**
 * Another process (a `pictor` command; one stopped with Ctrl+Z mid-write) held the file for
 * longer than a change may wait: nothing was done. Told apart from a file that cannot be written,
 * so that the user is told to let the command finish rather than to check the folder.
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
}

export interface KeyValueStore {
  /** The file behind the store, for messages ("a copy was kept at …"). */
  readonly path: string;
  /**
   * The value stored under `key`, or `undefined`. Not yet parsed: callers run it through a schema.
   * @throws when the file exists but cannot be read as JSON (see {@link moveAside}).
   */
  get(key: string): unknown;
  /** @throws when the file cannot be written, or cannot be read as JSON. */
  set(key: string, value: unknown): void;
  /** @throws like {@link set}. */
  delete(key: string): void;
  /**
   * Renames the file to `<name>.<suffix>.json` beside it (a damaged file kept for the user);
   * the store is empty afterwards. Returns the new path, or `null` when there was no file.
   * @throws when the rename fails.
   */
  moveAside(suffix: string): string | null;
  /**
   * Copies the file to `<name>.<suffix>.json` beside it (the old file kept before a repair
   * rewrites it); the file and the store are unchanged. Returns the copy's path, or `null` when
   * there was no file.
   * @throws when the copy fails (none is left then).
   */
  copyAside(suffix: string): string | null;
  /**
   * Runs `work` as one change of the file: another process (the app, a `pictor` command) writes
   * it before or after, never between the reads and writes `work` makes. Each write takes the
   * same lock on its own; a read needs none (a write replaces the file whole).
   * @throws StoreBusyError when another process held the file for longer than a change may wait
   * (nothing done); what `work` threw.
   */
  exclusively<T>(work: () => T): T;
  /**
   * {@link exclusively} without blocking the thread while another process holds the file (the
   * app's main process: its window must not freeze): the wait is made in pauses the event loop
   * runs in, and `work` runs whole holding the file, as there.
   * @throws like {@link exclusively}.
   */
  exclusivelySoon<T>(work: () => T): Promise<T>;
  /**
   * Calls `listener` when the file may have been written (by this process or another: a `pictor`
   * command's change), until the result is disposed; nothing where the system gives no such
   * notice. The listener reads the file again to learn what changed.
   */
  watch(listener: () => void): Disposable;
  /**
   * Removes the temporary files writers killed mid-write left beside the file, never one a live
   * writer is still writing; with `ownerless`, also those whose names say no writer (the app's
   * own, at its start: see adapters/store-temps.ts). Returns how many went; never throws.
   */
  removeLeftovers(nowMs: number, ownerless: boolean): number;
}

/** The `moveAside` suffix for a damaged file: `settings.corrupt-2024-05-01T10-20-30-000Z.json`. */
export function damagedFileSuffix(now: number): string {
  return `corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
}
