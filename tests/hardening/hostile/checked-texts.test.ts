/**
 * The history reads a record text it wrote itself from a checked record without the schema
 * again (electron/core/history/checked-texts.ts). That is sound only if the schema's output is a
 * fixed point of its own JSON: the text of a checked record, read through the schema, gives the
 * record back. Checked here over generated records of every shape the schema takes (with
 * unknown fields, damaged late fields and triage that the schema drops or cleans), and on real
 * SQLite files: a row anyone else changed, or a checked text moved to another row, still goes
 * through the schema.
 */
import fc from 'fast-check';
import sqlite from 'node-sqlite3-wasm';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { isCheckedText } from '../../../electron/core/history/checked-texts';
import type { Logger } from '../../../electron/ports/logger';
import { silentLogger } from '../../../electron/ports/logger';
import { taskRecordSchema, type TaskRecord } from '../../../shared/domain/task-record';
import { withFavourites } from '../../../shared/domain/favourites';
import { recordWithCleanTriage } from '../../../shared/domain/triage-edits';
import { makeTaskRecord } from '../../support/task-records';
import { historyFilePerTest } from '../../unit/core/history/history-fixtures';
import { scaled } from '../support/scale';
import { validArbitrary, withUnknownFields } from './zod-arbitrary';

const RUNS = scaled(300, 3000);

/** Fields the schema drops on read (`.catch`), each given a value it refuses. */
const DAMAGED = [
  { cost: 'free' },
  { compare: { group: 'not-a-uuid', slot: 9, label: 7 } },
  { template: { id: 1 } },
  { handles: { poll: 42 } },
  { reportedModel: 'bad\u0007name' },
  { board: '' },
  {},
];

/** Records of every shape the schema takes, with fields it does not know and damaged ones. */
const records = fc
  .tuple(
    validArbitrary(taskRecordSchema()),
    fc.constantFrom(...DAMAGED),
    fc.string({ maxLength: 8 }),
  )
  .map(([value, damaged, extra]) => ({
    ...(withUnknownFields(taskRecordSchema(), value, (object) => ({
      ...object,
      [`later_${extra}`]: extra,
    })) as object),
    ...damaged,
  }));

describe('a checked record is a fixed point of its JSON', () => {
  it('reads back through the schema as the record it was written from', () => {
    fc.assert(
      fc.property(records, (raw) => {
        const parsed = taskRecordSchema().safeParse(raw);
        if (!parsed.success) return;
        // What the history writes: the schema's output, cleaned as its `validate` cleans it.
        const checked = withFavourites(recordWithCleanTriage(parsed.data));
        const text = JSON.stringify(checked);
        const again = taskRecordSchema().parse(JSON.parse(text));
        expect(again).toEqual(JSON.parse(text));
        // And cleaning it again changes nothing (keys may come in another order).
        expect(withFavourites(recordWithCleanTriage(again))).toEqual(JSON.parse(text));
      }),
      { numRuns: RUNS, seed: 47 },
    );
  });
});

describe('the history skips the schema only for its own texts', () => {
  const history = historyFilePerTest();

  const record = (localId: string): TaskRecord =>
    makeTaskRecord(
      {
        localId,
        taskId: `task-${localId}`,
        request: { prompt: `A prompt of ${localId}` },
        images: [{ index: 0, url: null, state: 'invalid', attempts: 0, favourite: false }],
      },
      Date.UTC(2025, 0, 1),
    );

  function setText(localId: string, text: string): void {
    const db = new sqlite.Database(history.file);
    // The history is a WAL database in exclusive mode: this VFS opens one no other way.
    db.get('PRAGMA locking_mode = EXCLUSIVE');
    try {
      db.run('UPDATE tasks SET record = ? WHERE local_id = ?', [text, localId]);
    } finally {
      db.close();
    }
  }

  const textOf = (localId: string): string => {
    const db = new sqlite.Database(history.file);
    db.get('PRAGMA locking_mode = EXCLUSIVE');
    try {
      return String(db.get('SELECT record FROM tasks WHERE local_id = ?', [localId])?.['record']);
    } finally {
      db.close();
    }
  };

  function warnings(): { logger: Logger; seen: string[] } {
    const seen: string[] = [];
    return { seen, logger: { ...silentLogger, warn: (message) => void seen.push(message) } };
  }

  it('notes what it writes, and reads it back equal', () => {
    const store = HistoryStore.open(history.file);
    store.put(record('a'));
    const read = store.get('a');
    store.close();
    const text = textOf('a');
    expect(isCheckedText(text)).toBe(true);
    expect(read).toEqual(JSON.parse(text));
  });

  it('sends a row changed by anyone else through the schema (refused), not through its note', () => {
    const store = HistoryStore.open(history.file);
    store.put(record('a'));
    store.close();
    // Another writer: the same record with a value the schema refuses (a negative count).
    setText('a', JSON.stringify({ ...JSON.parse(textOf('a')), polls: -1 }));
    const { logger, seen } = warnings();
    const again = HistoryStore.open(history.file, { logger });
    expect(again.get('a')).toBeUndefined();
    expect(seen).toEqual(['Skipped a history record that could not be read.']);
    again.close();
  });

  it("refuses a checked text moved into another task's row", () => {
    const store = HistoryStore.open(history.file);
    store.put(record('a'));
    store.put(record('b'));
    store.close();
    setText('b', textOf('a'));
    const { logger, seen } = warnings();
    const again = HistoryStore.open(history.file, { logger });
    expect(again.get('b')).toBeUndefined();
    expect(again.editMany(['b'], (stored) => stored)).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    again.close();
  });
});
