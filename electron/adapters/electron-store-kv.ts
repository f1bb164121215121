/**
 * KeyValueStore over electron-store: one JSON file in a folder (the app's user-data folder).
 * Values are kept raw; the core parses them with its own zod schemas, so a bad value is repaired
 * field by field instead of electron-store refusing the whole file. Each write (the file read,
 * changed and written whole) holds the file's lock across processes (store-lock.ts), as a
 * `pictor` command's writes of the same file do; a temporary file a killed write left is removed
 * by a later start (store-temps.ts).
 *
 * The file is read as the commands read it (json-file-kv.ts readStoreFile), never through a link
 * nor from a FIFO, and each write reads it so first: electron-store reads through a link and
 * writes over its target (core/fs readKeptFileSync says why neither is done). electron-store
 * writes what was read, with the change.
 */
import { mkdirSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import Store from 'electron-store';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, copyBeside, tightenFileSync } from '../core/fs';
import type { KeyValueStore } from '../ports/key-value-store';
import { systemErrorCode } from '../core/errors';
import type { Disposable } from '../ports/disposable';
import { readStoreFile } from './json-file-kv';
import { withStoreLock, withStoreLockAsync } from './store-lock';
import { watchStoreFile } from './store-watch';
import { removeStoreTemps } from './store-temps';

export interface ElectronStoreKvOptions {
  /** Absolute folder of the file. */
  readonly cwd: string;
  /** File name without `.json`. */
  readonly name: string;
  /**
   * How long a change waits for another process's change before it gives up with
   * StoreBusyError (store-lock.ts's wait when not given, as the app opens its stores).
   */
  readonly lockWaitMs?: number;
}

export class ElectronStoreKv implements KeyValueStore {
  readonly path: string;
  private store: Store | undefined;

  constructor(private readonly options: ElectronStoreKvOptions) {
    this.path = resolve(options.cwd, `${options.name}.json`);
  }

  get(key: string): unknown {
    return this.read()[key];
  }

  set(key: string, value: unknown): void {
    if (value === undefined) this.delete(key);
    else this.exclusively(() => this.write({ ...this.read(), [key]: value }));
  }

  delete(key: string): void {
    this.exclusively(() =>
      this.write(Object.fromEntries(Object.entries(this.read()).filter(([name]) => name !== key))),
    );
  }

  moveAside(suffix: string): string | null {
    this.store = undefined;
    const target = resolve(this.options.cwd, `${this.options.name}.${suffix}.json`);
    return this.exclusively(() => {
      try {
        renameSync(this.path, target);
      } catch (error) {
        if (systemErrorCode(error) === 'ENOENT') return null;
        throw error;
      }
      return target;
    });
  }

  exclusively<T>(work: () => T): T {
    mkdirSync(this.options.cwd, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return withStoreLock(this.path, work, this.options.lockWaitMs);
  }

  exclusivelySoon<T>(work: () => T): Promise<T> {
    mkdirSync(this.options.cwd, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return withStoreLockAsync(this.path, work, this.options.lockWaitMs);
  }

  watch(listener: () => void): Disposable {
    return watchStoreFile(this.path, listener);
  }

  removeLeftovers(nowMs: number, ownerless: boolean): number {
    return removeStoreTemps(this.path, nowMs, ownerless);
  }

  copyAside(suffix: string): string | null {
    return copyBeside(this.path, resolve(this.options.cwd, `${this.options.name}.${suffix}.json`));
  }

  /**
   * The file's values ({@link readStoreFile}), the file tightened: one an older version (an app,
   * a command) left readable by others.
   */
  private read(): Record<string, unknown> {
    const values = readStoreFile(this.path);
    tightenFileSync(this.path);
    return values;
  }

  /** Writes `values` (read by {@link read} in this change) as the whole file. */
  private write(values: Record<string, unknown>): void {
    this.open().store = values;
  }

  /**
   * Opened on first write (and again after moveAside), after {@link read} found the file a
   * regular one with a JSON object: electron-store reads the file in its constructor.
   */
  private open(): Store {
    this.store ??= new Store({
      cwd: this.options.cwd,
      name: this.options.name,
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      watch: false,
      // Owner-only (the vault holds the encrypted key): the mode applies when the file is made,
      // and a file an older version left readable by others is tightened at each read.
      configFileMode: PRIVATE_FILE_MODE,
    });
    return this.store;
  }
}
