/**
 * Writing the records table without copying it (renderer/store/records-layers.ts) and knowing
 * what a write changed (records-table.ts `changedSince`): a write to a large table reads none of
 * its other records, every table reads as the Map the same writes would give, and a table says
 * which ids changed since one it was written from.
 */
import { describe, expect, it } from 'vitest';
import type { TaskItem } from '../../../../shared/ipc/contract';
import {
  changedSince,
  recordsHeld,
  recordsWith,
  recordsWithout,
  type RecordsTable,
} from '../../../../renderer/store/records-table';
import { makeTask } from '../../../support/task-records';
import { seededRandom } from '../../../support/seeded-random';

const itemOf = (localId: string, updatedAt = 1): TaskItem => ({
  record: makeTask({ localId, updatedAt }),
  live: null,
});

/** A read-only table that counts whole reads of it (a copy reads it whole). */
class CountingTable implements ReadonlyMap<string, TaskItem> {
  wholeReads = 0;
  constructor(private readonly map: Map<string, TaskItem>) {}
  get size(): number {
    return this.map.size;
  }
  get(localId: string): TaskItem | undefined {
    return this.map.get(localId);
  }
  has(localId: string): boolean {
    return this.map.has(localId);
  }
  forEach(each: (item: TaskItem, localId: string, table: ReadonlyMap<string, TaskItem>) => void) {
    this.wholeReads += 1;
    this.map.forEach((item, localId) => each(item, localId, this));
  }
  entries(): MapIterator<[string, TaskItem]> {
    this.wholeReads += 1;
    return this.map.entries();
  }
  keys(): MapIterator<string> {
    this.wholeReads += 1;
    return this.map.keys();
  }
  values(): MapIterator<TaskItem> {
    this.wholeReads += 1;
    return this.map.values();
  }
  [Symbol.iterator](): MapIterator<[string, TaskItem]> {
    return this.entries();
  }
}

const ids = (count: number): string[] => Array.from({ length: count }, (_, n) => `t${String(n)}`);
const large = (): CountingTable =>
  new CountingTable(new Map(ids(5000).map((id) => [id, itemOf(id)])));

/** The table's contents as sorted entries (its order is not part of what it says). */
const contents = (table: ReadonlyMap<string, TaskItem>) =>
  [...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('a write to the records table', () => {
  it('reads none of a large table’s other records, write after write', () => {
    const base = large();
    let table: RecordsTable = base;
    for (let n = 0; n < 100; n += 1) {
      table = recordsWith(table, [itemOf(`t${String(n * 2)}`, 2 + n)]);
      table = recordsWithout(table, [`t${String(n * 2 + 1)}`]);
    }
    expect(base.wholeReads).toBe(0);
    expect(table.get('t2')?.record.updatedAt).toBe(3);
    expect(table.has('t1')).toBe(false);
    expect(table.size).toBe(5000 - 100);
  });

  it('reads as the Map the same writes give, over random writes, removals and evictions', () => {
    for (let seed = 1; seed <= 8; seed += 1) {
      const random = seededRandom(seed);
      const expected = new Map(ids(3000).map((id) => [id, itemOf(id)]));
      let table: RecordsTable = new Map(expected);
      for (let round = 0; round < 300; round += 1) {
        const id = `t${String(random(3500))}`;
        const kind = random(20);
        if (kind === 0) {
          const held = new Set([...expected.keys()].filter(() => random(50) > 0));
          table = recordsHeld(table, held);
          for (const key of [...expected.keys()]) if (!held.has(key)) expected.delete(key);
        } else if (kind < 6) {
          table = recordsWithout(table, [id]);
          expected.delete(id);
        } else {
          const item = itemOf(id, 2 + round);
          table = recordsWith(table, [item]);
          expected.set(id, item);
        }
        expect(table.size).toBe(expected.size);
        expect(table.get(id)).toBe(expected.get(id));
        expect(table.has(id)).toBe(expected.has(id));
      }
      expect(contents(table)).toEqual(contents(expected));
    }
  });
});

describe('changedSince', () => {
  it('names the ids written or dropped since a table this one was written from', () => {
    const first: RecordsTable = large();
    const second = recordsWith(first, [itemOf('t1', 5), itemOf('new', 5)]);
    const third = recordsWithout(second, ['t2']);
    expect(changedSince(third, first)).toEqual(new Set(['t1', 'new', 't2']));
    expect(changedSince(third, second)).toEqual(new Set(['t2']));
    expect(changedSince(third, third)).toEqual(new Set());
  });

  it('is null for a table not written from the other (a whole read is needed)', () => {
    const first: RecordsTable = large();
    const branch = recordsWith(first, [itemOf('t1', 5)]);
    const other = recordsWith(first, [itemOf('t3', 5)]);
    expect(changedSince(other, branch)).toBeNull();
    expect(changedSince(first, branch)).toBeNull();
    expect(changedSince(branch, new Map())).toBeNull();
  });
});
