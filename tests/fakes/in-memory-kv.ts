import type { KeyValueStore } from '../../electron/ports/key-value-store';
import { toDisposable, type Disposable } from '../../electron/ports/disposable';

/**
 * A KeyValueStore in a Map, with the failures of a real file: `damage()` makes every access throw
 * as electron-store does on a file that is not JSON, until `moveAside`; `failWrites` makes set
 * and delete throw as on a read-only folder. Values are copied through JSON like a file.
 */
export class InMemoryKv implements KeyValueStore {
  readonly path: string;
  private values = new Map<string, string>();
  private damaged = false;
  /** A system error code every access fails with (a file this user may not read), or null. */
  private refusedWith: string | null = null;
  failWrites = false;
  failMoveAside = false;
  /** Files moved or copied aside: path → the values they held (`null` for a damaged file). */
  readonly movedAside = new Map<string, Record<string, unknown> | null>();
  writes = 0;

  constructor(
    private readonly folder = '/data',
    private readonly name = 'store',
  ) {
    this.path = `${folder}/${name}.json`;
  }

  /** The file now holds text that is not JSON. */
  damage(): void {
    this.damaged = true;
  }

  /**
   * The file is there but every access fails in the system with `code`, as fs fails (EACCES: a
   * file another user owns; EIO: a failing disk), until {@link readable}.
   */
  unreadable(code: string): void {
    this.refusedWith = code;
  }

  /** The file can be read again. */
  readable(): void {
    this.refusedWith = null;
  }

  /** Everything stored, as the file would hold it. */
  snapshot(): Record<string, unknown> {
    return Object.fromEntries([...this.values].map(([key, value]) => [key, JSON.parse(value)]));
  }

  get(key: string): unknown {
    this.checkReadable();
    const value = this.values.get(key);
    return value === undefined ? undefined : JSON.parse(value);
  }

  set(key: string, value: unknown): void {
    this.checkWritable();
    this.values.set(key, JSON.stringify(value));
    this.writes += 1;
  }

  delete(key: string): void {
    this.checkWritable();
    this.values.delete(key);
    this.writes += 1;
  }

  moveAside(suffix: string): string | null {
    if (this.failMoveAside) throw new Error(`EACCES: permission denied, rename '${this.path}'`);
    if (!this.damaged && this.refusedWith === null && this.values.size === 0) return null;
    const target = `${this.folder}/${this.name}.${suffix}.json`;
    this.movedAside.set(target, this.damaged || this.refusedWith !== null ? null : this.snapshot());
    this.values.clear();
    this.damaged = false;
    this.refusedWith = null;
    return target;
  }

  copyAside(suffix: string): string | null {
    if (this.failMoveAside)
      throw new Error(`ENOSPC: no space left on device, copyfile '${this.path}'`);
    if (!this.damaged && this.values.size === 0) return null;
    const target = `${this.folder}/${this.name}.${suffix}.json`;
    this.movedAside.set(target, this.damaged ? null : this.snapshot());
    return target;
  }

  /** One process's store: nothing else writes the map between `work`'s reads and writes. */
  exclusively<T>(work: () => T): T {
    return work();
  }

  /** Run at once, as the real store's first try takes a lock no one holds. */
  exclusivelySoon<T>(work: () => T): Promise<T> {
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /** No other process writes a map: nothing to notice. */
  watch(): Disposable {
    return toDisposable(() => undefined);
  }

  /** A map leaves no temporary files. */
  removeLeftovers(): number {
    return 0;
  }

  private checkReadable(): void {
    if (this.refusedWith !== null) {
      const code = this.refusedWith;
      throw Object.assign(new Error(`${code}: refused, open '${this.path}'`), {
        code,
        syscall: 'open',
        path: this.path,
      });
    }
    if (this.damaged) throw new SyntaxError('Unexpected token } in JSON at position 12');
  }

  private checkWritable(): void {
    this.checkReadable();
    if (this.failWrites) throw new Error(`EACCES: permission denied, open '${this.path}'`);
  }
}
