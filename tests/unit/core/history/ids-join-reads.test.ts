/**
 * The reads of a list of records by id (a page, a download's settle, an edit's chunk) build no
 * ephemeral table: `IN (SELECT value FROM json_each(?))` made SQLite build one at every run, each
 * with a page cache of its own, an 87 KB allocation on the reading thread (about 37 per
 * downloaded image on main's, in a day of bursts: churn in the malloc heap). Each
 * statement a read of records by ids runs (spied at the driver) has its plan on a real history
 * file read for `OpenEphemeral`, and for a scan of any table but the ids'; and the records come back whole, triage with them, ids given twice or
 * missing included. A write that removes no image runs no DELETE on images (which builds an
 * ephemeral table even when it deletes nothing); one that removes images still removes them.
 */
import { join } from 'node:path';
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { makeImage, makeTask } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let dir: string;
let file: string;

beforeAll(async () => {
  dir = await tempFolder('ids-join');
  file = join(dir, 'history.sqlite');
  const store = HistoryStore.open(file);
  store.putMany([
    makeTask({
      localId: 'a',
      favourite: true,
      images: [
        makeImage(0, { rating: 4, tags: ['Zeta', 'alpha'], triagedAt: 7 }),
        makeImage(1, { boards: ['Clients/Acme', 'Moodboard'], triagedAt: 8 }),
      ],
    }),
    makeTask({ localId: 'b', images: [makeImage(0, { tags: ['one'] })] }),
  ]);
  store.close();
});

afterAll(async () => {
  await removeFolder(dir);
});

describe('reads of records by a list of ids', () => {
  /** The statements `getMany` runs that take a JSON list of ids. */
  function idsReads(): string[] {
    const store = HistoryStore.open(file);
    const all = vi.spyOn(StatementSync.prototype, 'all');
    try {
      store.getMany(['a', 'b']);
      const sql = all.mock.contexts.map((statement) => (statement as StatementSync).sourceSQL);
      return [...new Set(sql.filter((text) => text.includes('json_each(?)')))];
    } finally {
      all.mockRestore();
      store.close();
    }
  }

  it('build no ephemeral table and scan only the ids', () => {
    const reads = idsReads();
    expect(reads).toHaveLength(4); // the records, then their triage: tasks, tags, boards
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      for (const sql of reads) {
        const opcodes = db
          .prepare(`EXPLAIN ${sql}`)
          .all('[]')
          .map((row) => row['opcode']);
        expect(opcodes, sql).not.toContain('OpenEphemeral');
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('[]');
        const scans = plan.map((row) => String(row['detail'])).filter((d) => d.startsWith('SCAN'));
        expect(scans, sql).toEqual(scans.filter((detail) => /^SCAN j\b/.test(detail)));
        expect(scans, sql).toHaveLength(1);
      }
    } finally {
      db.close();
    }
  });

  it('gives each record once, whole, whatever the ids repeat or miss', () => {
    const store = HistoryStore.open(file);
    try {
      const records = store.getMany(['b', 'a', 'b', 'missing', 'a']);
      expect(records.map((record) => record.localId)).toEqual(['b', 'a', 'b', 'a']);
      const a = records[1];
      expect(a?.favourite).toBe(true);
      expect(a?.images[0]).toMatchObject({ rating: 4, tags: ['Zeta', 'alpha'], triagedAt: 7 });
      expect(a?.images[1]).toMatchObject({ boards: ['Clients/Acme', 'Moodboard'] });
      expect(records[0]?.images[0]?.tags).toEqual(['one']);
      expect(store.getMany(['b', 'a', 'b', 'missing', 'a'])).toEqual(records);
    } finally {
      store.close();
    }
  });
});

describe("a record's write", () => {
  const deletesOfImages = (spy: { mock: { contexts: unknown[] } }) =>
    spy.mock.contexts.filter((statement) =>
      /^DELETE FROM images\b/.test((statement as StatementSync).sourceSQL),
    ).length;

  it('deletes image rows only when it has fewer images than stored', () => {
    const store = HistoryStore.open(join(dir, 'writes.sqlite'));
    const run = vi.spyOn(StatementSync.prototype, 'run');
    try {
      const images = [0, 1, 2].map((idx) => makeImage(idx));
      store.putMany([makeTask({ localId: 'w', images })]);
      store.putMany([makeTask({ localId: 'w', images, updatedAt: 5 })]);
      expect(deletesOfImages(run)).toBe(0);
      store.putMany([makeTask({ localId: 'w', images: images.slice(0, 1), updatedAt: 6 })]);
      expect(deletesOfImages(run)).toBe(2); // each image removed, by its key
      expect(store.get('w')?.images).toHaveLength(1);
      expect(store.listImages({}).items.filter((item) => item.localId === 'w')).toHaveLength(1);
    } finally {
      run.mockRestore();
      store.close();
    }
  });
});
