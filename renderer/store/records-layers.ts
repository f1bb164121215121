/**
 * How the records table (records-table.ts) is written without copying it: a new table is a few
 * changes laid over a larger table it shares, never written, and the layers are folded into one
 * Map once they grow. A star typed on one of 50,000 loaded images then costs that record, where a
 * copy of the whole Map per write cost the whole table (the Keypress-to-star row).
 */
import type { TaskItem } from '../../shared/ipc/contract';

/** Tables smaller than this are copied whole: a copy is as cheap as a layer there. */
const COPY_BELOW = 1024;
/** A layer holds at most this share of its base before it is folded in. */
const LAYER_SHARE = 16;

/**
 * A table read as `over` laid on `base` (null in `over`: the task is gone). Lookups read the
 * layer then the base; a whole read (iteration) folds both into one Map, once.
 */
class LayeredTable implements ReadonlyMap<string, TaskItem> {
  private folded: Map<string, TaskItem> | null = null;

  constructor(
    readonly base: ReadonlyMap<string, TaskItem>,
    readonly over: ReadonlyMap<string, TaskItem | null>,
    readonly size: number,
  ) {}

  get(localId: string): TaskItem | undefined {
    const item = this.over.get(localId);
    return item === undefined ? this.base.get(localId) : (item ?? undefined);
  }

  has(localId: string): boolean {
    const item = this.over.get(localId);
    return item === undefined ? this.base.has(localId) : item !== null;
  }

  /** The table as one Map (built on the first whole read). */
  private whole(): Map<string, TaskItem> {
    this.folded ??= fold(this.base, this.over);
    return this.folded;
  }

  forEach(
    each: (item: TaskItem, localId: string, table: ReadonlyMap<string, TaskItem>) => void,
  ): void {
    this.whole().forEach((item, localId) => each(item, localId, this));
  }

  entries(): MapIterator<[string, TaskItem]> {
    return this.whole().entries();
  }

  keys(): MapIterator<string> {
    return this.whole().keys();
  }

  values(): MapIterator<TaskItem> {
    return this.whole().values();
  }

  [Symbol.iterator](): MapIterator<[string, TaskItem]> {
    return this.whole().entries();
  }
}

function fold(
  base: ReadonlyMap<string, TaskItem>,
  over: ReadonlyMap<string, TaskItem | null>,
): Map<string, TaskItem> {
  const table = new Map(base);
  for (const [localId, item] of over) {
    if (item === null) table.delete(localId);
    else table.set(localId, item);
  }
  return table;
}

/**
 * The writes of one helper call over `table`: read through (`get`, `has`), then `done` answers
 * the new table (a layer over the old one's base, or a copy) and the ids it wrote.
 */
export class TableDraft {
  private readonly changes = new Map<string, TaskItem | null>();

  constructor(private readonly table: ReadonlyMap<string, TaskItem>) {}

  get(localId: string): TaskItem | undefined {
    const item = this.changes.get(localId);
    return item === undefined ? this.table.get(localId) : (item ?? undefined);
  }

  has(localId: string): boolean {
    return this.get(localId) !== undefined;
  }

  set(localId: string, item: TaskItem): void {
    this.changes.set(localId, item);
  }

  delete(localId: string): void {
    this.changes.set(localId, null);
  }

  /** The new table and the ids written, or null when nothing was. */
  done(): { table: ReadonlyMap<string, TaskItem>; ids: ReadonlySet<string> } | null {
    if (this.changes.size === 0) return null;
    const table = this.table;
    let size = table.size;
    for (const [localId, item] of this.changes) {
      size += Number(item !== null) - Number(table.has(localId));
    }
    const layered = table instanceof LayeredTable;
    const base = layered ? table.base : table;
    const over = new Map<string, TaskItem | null>(layered ? table.over : []);
    for (const [localId, item] of this.changes) over.set(localId, item);
    const ids = new Set(this.changes.keys());
    const small = base.size < COPY_BELOW || over.size * LAYER_SHARE > base.size;
    return { table: small ? fold(base, over) : new LayeredTable(base, over, size), ids };
  }
}
