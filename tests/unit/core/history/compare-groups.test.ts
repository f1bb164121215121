/**
 * The history's compare groups (compare-groups.ts), as the gallery's Compare group filter lists
 * them, on a real SQLite file: newest group first (by its latest task), each with its first
 * task's prompt and time (its date, for a compare made while the clock stood behind), its targets
 * and tasks; at most the bound however many are asked; rows
 * edited by hand (a group that is no UUID, a prompt that would turn its line around or run on for
 * pages, a record that is not JSON) are left out or cleaned. And the gallery's `compared` filter:
 * the images of compare tasks, or of the others.
 */
import sqlite from 'node-sqlite3-wasm';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_COMPARE_GROUPS_LISTED } from '../../../../shared/domain/compare';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { makeImage, makeTaskRecord } from '../../../support/task-records';
import { historyFilePerTest } from './history-fixtures';

const START = Date.UTC(2026, 2, 1, 12, 0, 0);
const groupId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const history = historyFilePerTest();
let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

function open(): HistoryStore {
  store = HistoryStore.open(history.file);
  return store;
}

/** A task of compare `group` at `slot`, made `minutes` after the start. */
function task(localId: string, minutes: number, compare?: { group: number; slot: number }) {
  const at = START + minutes * 60_000;
  return makeTaskRecord(
    {
      localId,
      request: { prompt: `prompt of ${localId}` },
      images: [makeImage(0)],
      ...(compare
        ? { compare: { group: groupId(compare.group), slot: compare.slot, label: 'fal.ai' } }
        : {}),
    },
    at,
  );
}

/** Changes rows with plain SQL, as a hand edit would. */
function edit(sql: string, params: (string | number)[]): void {
  store?.close();
  store = null;
  const db = new sqlite.Database(history.file);
  db.get('PRAGMA locking_mode = EXCLUSIVE');
  try {
    db.run(sql, params);
  } finally {
    db.close();
  }
}

describe('the compare groups listed', () => {
  it('newest group first, each with its first prompt and time, its targets and tasks', () => {
    const history = open();
    const records: TaskRecord[] = [
      task('a1', 0, { group: 1, slot: 1 }),
      task('a2', 1, { group: 1, slot: 2 }),
      // Group 1's second prompt on slot 1: a task more, no target more.
      task('a3', 2, { group: 1, slot: 1 }),
      task('b1', 5, { group: 2, slot: 1 }),
      task('b2', 5, { group: 2, slot: 2 }),
      task('b3', 6, { group: 2, slot: 3 }),
      task('plain', 9),
      // Group 1 gains a task later than group 2's: it comes first.
      task('a4', 10, { group: 1, slot: 2 }),
    ];
    history.putMany(records);
    expect(history.compares.list(100)).toEqual([
      { group: groupId(1), prompt: 'prompt of a1', createdAt: START, targets: 2, tasks: 4 },
      {
        group: groupId(2),
        prompt: 'prompt of b1',
        createdAt: START + 5 * 60_000,
        targets: 3,
        tasks: 3,
      },
    ]);
    expect(history.compares.list(1).map((one) => one.group)).toEqual([groupId(1)]);
    // A bound out of range is brought back into it.
    expect(history.compares.list(0)).toHaveLength(1);
    expect(history.compares.list(Number.NaN)).toHaveLength(1);
  });

  it('a compare made while the clock stood behind lists first and began when it was made', () => {
    const history = open();
    // Made after group 1, its clock a day behind: listed above group 1 (listedAt), dated then.
    const day = 24 * 60 * 60_000;
    const behind = [1, 2].map((slot) => ({
      ...task(`b${slot}`, 0, { group: 2, slot }),
      createdAt: START - day,
      listedAt: START + 3 * 60_000,
    }));
    history.putMany([task('a1', 0, { group: 1, slot: 1 }), task('a2', 2, { group: 1, slot: 2 })]);
    history.putMany(behind);
    const listed = history.compares.list(100);
    expect(listed.map(({ group, createdAt }) => ({ group, createdAt }))).toEqual([
      { group: groupId(2), createdAt: START - day },
      { group: groupId(1), createdAt: START },
    ]);
  });

  it(`names at most ${MAX_COMPARE_GROUPS_LISTED} groups, however many are asked`, () => {
    const history = open();
    const many = Array.from({ length: MAX_COMPARE_GROUPS_LISTED + 5 }, (_, n) =>
      task(`g${n}`, n, { group: n, slot: 1 }),
    );
    history.putMany(many);
    const listed = history.compares.list(1_000_000);
    expect(listed).toHaveLength(MAX_COMPARE_GROUPS_LISTED);
    expect(listed[0]?.group).toBe(groupId(MAX_COMPARE_GROUPS_LISTED + 4));
  });

  it('leaves out a group that is no UUID and cleans a hostile prompt; a record not JSON counts no target', () => {
    open().putMany([
      task('a1', 0, { group: 1, slot: 1 }),
      task('b1', 1, { group: 2, slot: 1 }),
      task('b2', 2, { group: 2, slot: 2 }),
      task('c1', 3, { group: 3, slot: 1 }),
    ]);
    edit("UPDATE tasks SET compare_group = '../../etc' WHERE local_id = 'c1'", []);
    edit('UPDATE tasks SET prompt = ? WHERE local_id = ?', [
      `\u202Eevil\u0007 ${'x'.repeat(100_000)}`,
      'a1',
    ]);
    edit("UPDATE tasks SET record = 'not json' WHERE local_id = 'b2'", []);
    const listed = open().compares.list(100);
    expect(listed.map((one) => one.group)).toEqual([groupId(2), groupId(1)]);
    const [two, one] = listed;
    expect(two).toMatchObject({ targets: 1, tasks: 2 });
    expect(one?.prompt).toMatch(/^evil x+$/);
    expect(one?.prompt).toHaveLength(200);
  });
});

describe('the gallery’s compared filter', () => {
  it('lists the images of compare tasks, or of the others', () => {
    const history = open();
    history.putMany([
      task('a1', 0, { group: 1, slot: 1 }),
      task('plain', 1),
      task('b1', 2, { group: 2, slot: 1 }),
    ]);
    const ids = (compared: boolean) =>
      history.listImages({ compared }).items.map((item) => item.localId);
    expect(ids(true)).toEqual(['b1', 'a1']);
    expect(ids(false)).toEqual(['plain']);
    expect(history.countImages({ compared: true })).toBe(2);
    expect(history.imageKeys({ compared: true }, 10)).toHaveLength(2);
  });
});
