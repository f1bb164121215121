/**
 * A KeyValueStore in one JSON file, as electron-store keeps one in the app (one small file per
 * store, read back after a restart), in plain Node: the CLI reads and changes the app's
 * settings through it, and the end-to-end harness's Chromium host keeps its stores in it. Writes
 * go to a private temporary file that is synced and then renamed, so a crash or a power loss
 * never leaves half a file, and a write that fails leaves no temporary file behind. Each write
 * (read, change, rename) holds the file's lock across processes (store-lock.ts), as the app's
 * electron-store writes do; a temporary file a killed write left is removed by a later start
 * (store-temps.ts).
 */
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, copyBeside, readKeptFileSync } from '../core/fs';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Disposable } from '../ports/disposable';
import { withStoreLock, withStoreLockAsync } from './store-lock';
import { watchStoreFile } from './store-watch';
import { removeStoreTemps, storeTempPath } from './store-temps';

/**
 * The values in the store's file at `path`, `{}` when there is none: read as a kept file
 * (core/fs readKeptFileSync: the file itself, never a link's target, never a FIFO), by this
 * store and by the app's (electron-store-kv.ts) alike.
 * @throws SyntaxError when the file is not a JSON object, like electron-store; the system's
 * error (ELOOP: a link), or an error for a file that is not a regular one.
 */
export function readStoreFile(path: string): Record<string, unknown> {
  const text = readKeptFileSync(path);
  if (text === null) return {};
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SyntaxError(`${path} does not hold a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

export class JsonFileKv implements KeyValueStore {
  readonly path: string;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    /**
     * How long a change waits for another process's change before it gives up with
     * StoreBusyError (store-lock.ts's wait when not given, as every command opens its stores).
     */
    private readonly lockWaitMs?: number,
  ) {
    this.path = join(dir, `${name}.json`);
  }

  get(key: string): unknown {
    return this.read()[key];
  }

  set(key: string, value: unknown): void {
    // Through JSON, as a file would: what comes back is what was written.
    const written = JSON.parse(JSON.stringify(value)) as unknown;
    this.exclusively(() => this.write({ ...this.read(), [key]: written }));
  }

  delete(key: string): void {
    this.exclusively(() =>
      this.write(Object.fromEntries(Object.entries(this.read()).filter(([name]) => name !== key))),
    );
  }

  moveAside(suffix: string): string | null {
    return this.exclusively(() => {
      // A link is moved aside as itself, whatever it points at (or if it points nowhere).
      if (lstatSync(this.path, { throwIfNoEntry: false }) === undefined) return null;
      const target = join(this.dir, `${this.name}.${suffix}.json`);
      renameSync(this.path, target);
      return target;
    });
  }

  exclusively<T>(work: () => T): T {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return withStoreLock(this.path, work, this.lockWaitMs);
  }

  exclusivelySoon<T>(work: () => T): Promise<T> {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return withStoreLockAsync(this.path, work, this.lockWaitMs);
  }

  watch(listener: () => void): Disposable {
    return watchStoreFile(this.path, listener);
  }

  removeLeftovers(nowMs: number, ownerless: boolean): number {
    return removeStoreTemps(this.path, nowMs, ownerless);
  }

  copyAside(suffix: string): string | null {
    return copyBeside(this.path, join(this.dir, `${this.name}.${suffix}.json`));
  }

  /** @throws like {@link readStoreFile}. */
  private read(): Record<string, unknown> {
    return readStoreFile(this.path);
  }

  /**
   * A fresh temporary file, synced before the rename (a power loss then leaves the old file or
   * the new one, never an empty one), and removed when the write fails (a full disk keeps no half
   * file).
   */
  private write(values: Record<string, unknown>): void {
    const temporary = storeTempPath(this.path);
    try {
      const fd = openSync(temporary, 'wx', PRIVATE_FILE_MODE);
      try {
        // The mode is the descriptor's own (openSync above); said again for the created-modes rule.
        writeFileSync(fd, `${JSON.stringify(values, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}
