/**
 * The last history writes that built an ephemeral table (each with its own page cache, an 87 KB
 * allocation at every run) build none, as the store compiles them: a task's removal (the foreign
 * key's cascade, which SQLite ran for every removed task even with its images already deleted),
 * the count of tags (a recursive query keeps its queue in one) and the prompt history's prune (a
 * DELETE … IN (SELECT … LIMIT -1 OFFSET …) built two, at every submit, pin and import). Every
 * statement they run is spied at the driver and its EXPLAIN read (it lists the programs of the
 * triggers and foreign-key actions a statement fires); the old statements are found by the same
 * check. And they give what the old gave: on generated tag rows and prompt histories (ties in
 * time, pins, around the kept number), the count is the recursive query's and the prune leaves
 * the rows the old DELETE left; a removal leaves no image row without its task.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { DELETE_TASK } from '../../../../electron/core/history/history-statements';
import { PROMPT_HISTORY_KEEP } from '../../../../electron/core/history/prompt-history-schema';
import { seededRandom } from '../../../../electron/demo-service/prng';
import { statementsOf, storeDatabase, withEphemeral } from '../../../support/sqlite-plans';
import { makeImage, makeTask } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

/** The statements these writes ran before (history-statements.ts, prompt-history.ts). */
const OLD_TAG_COUNT = `
  WITH RECURSIVE keys(k) AS (
    SELECT min(tag_key) FROM image_tags
    UNION ALL
    SELECT (SELECT min(tag_key) FROM image_tags WHERE tag_key > keys.k) FROM keys WHERE keys.k IS NOT NULL
  )
  SELECT count(k) AS n FROM keys`;
const OLD_PRUNE = `
  DELETE FROM prompt_history WHERE pinned = 0 AND prompt IN (
    SELECT prompt FROM prompt_history WHERE pinned = 0
    ORDER BY last_used_at DESC, prompt LIMIT -1 OFFSET ${PROMPT_HISTORY_KEEP})`;

let dir: string;
beforeAll(async () => {
  dir = await tempFolder('removal-tags-prompts');
});
afterAll(async () => {
  await removeFolder(dir);
});

const tagged = (localId: string, prompt: string, tags: string[]) =>
  makeTask({ localId, prompt, images: [makeImage(0, { tags }), makeImage(1)] });

describe('a removal, a count of tags and the prompt history’s prune', () => {
  it('build no ephemeral table, as the store compiles them', () => {
    const file = join(dir, 'plans.sqlite');
    const store = HistoryStore.open(file);
    // More typed prompts than the history keeps, so the prune has rows to delete.
    const many = Array.from({ length: PROMPT_HISTORY_KEEP + 20 }, (_, n) =>
      tagged(`t-${n}`, `prompt ${n}`, [`tag ${n % 7}`]),
    );
    const sqls = statementsOf(() => {
      store.putManyCounted(many);
      store.putManyCounted([tagged('new', 'one more', ['a new tag'])]);
      store.triage.tagCount();
      store.prompts.note(['typed now', 'prompt 3'], Date.now());
      store.prompts.pin('prompt 5', true);
      store.prompts.pin('prompt 5', false);
      store.delete('t-1');
      store.detach(many[2]!);
    });
    store.close();
    const db = storeDatabase(file);
    try {
      expect(withEphemeral(db, sqls)).toEqual([]);
      const ran = [...sqls].join('\n');
      expect(ran).toContain(DELETE_TASK);
      expect(ran).toMatch(/DELETE FROM prompt_history/);
      expect(ran).toMatch(/FROM image_tags WHERE tag_key > \?/);
    } finally {
      db.close();
    }
  });

  it('the old statements are found by the same check', () => {
    const file = join(dir, 'old.sqlite');
    HistoryStore.open(file).close();
    // Foreign keys on, as the store ran them: the removal's cascade is compiled with it.
    const db = new DatabaseSync(file, { readOnly: true, enableForeignKeyConstraints: true });
    try {
      const old = [DELETE_TASK, OLD_TAG_COUNT, OLD_PRUNE];
      expect(withEphemeral(db, old)).toEqual(old);
    } finally {
      db.close();
    }
  });
});

/** Tag keys that sort close to each other: prefixes, spaces, case, non-ASCII, the empty key. */
const KEYS = ['', 'a', 'a ', 'A', 'ab', 'a\u0000b', 'é', 'e\u0301', '猫', 'z'.repeat(200), '🙂'];

describe('the new statements against the old, on generated rows', () => {
  it('the count of tags is the recursive query’s', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const file = join(dir, `tags-${seed}.sqlite`);
      HistoryStore.open(file).close();
      const next = seededRandom(seed);
      const db = new DatabaseSync(file);
      const insert = db.prepare(
        'INSERT OR IGNORE INTO image_tags (local_id, idx, tag_key, tag) VALUES (?, ?, ?, ?)',
      );
      // The first seed leaves the table empty.
      const rows = seed === 1 ? 0 : Math.floor(next() * 400);
      db.exec('BEGIN');
      for (let n = 0; n < rows; n += 1) {
        const key =
          next() < 0.3 ? KEYS[Math.floor(next() * KEYS.length)]! : `k${Math.floor(next() * 60)}`;
        insert.run(`t-${Math.floor(next() * 50)}`, Math.floor(next() * 4), key, key);
      }
      db.exec('COMMIT');
      const old = Number(db.prepare(OLD_TAG_COUNT).get()?.['n']);
      db.close();
      const store = HistoryStore.open(file);
      try {
        expect(store.triage.tagCount()).toBe(old);
      } finally {
        store.close();
      }
      if (seed > 1) expect(old).toBeGreaterThan(10);
    }
  });

  it('the prune leaves the rows the old DELETE left', () => {
    let pruned = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const file = join(dir, `prompts-${seed}.sqlite`);
      HistoryStore.open(file).close();
      const next = seededRandom(seed);
      const db = new DatabaseSync(file);
      const insert = db.prepare(
        'INSERT INTO prompt_history (prompt, last_used_at, uses, pinned) VALUES (?, ?, 1, ?)',
      );
      // Around the kept number of unpinned prompts (past it at even seeds), at few times
      // (ties), some pinned.
      const count = PROMPT_HISTORY_KEEP + (seed % 2 === 0 ? 30 : -30) + Math.floor(next() * 40);
      db.exec('BEGIN');
      for (let n = 0; n < count; n += 1) {
        const prompt = `${KEYS[n % KEYS.length]!}${Math.floor(next() * 1e6)}-${n}`;
        insert.run(prompt, 1_000 + Math.floor(next() * 30), next() < 0.05 ? 1 : 0);
      }
      insert.run('the pinned one', 1_000 + Math.floor(next() * 30), 1);
      db.exec('COMMIT');
      // Its unpin, then the old prune: what the store's unpin must leave.
      const rows = 'SELECT * FROM prompt_history ORDER BY prompt';
      db.exec('BEGIN');
      db.prepare("UPDATE prompt_history SET pinned = 0 WHERE prompt = 'the pinned one'").run();
      pruned += Number(db.prepare(OLD_PRUNE).run().changes);
      const expected = db.prepare(rows).all();
      db.exec('ROLLBACK');
      db.close();
      const store = HistoryStore.open(file);
      try {
        expect(store.prompts.pin('the pinned one', false)).toBe(true);
      } finally {
        store.close();
      }
      const after = new DatabaseSync(file, { readOnly: true });
      try {
        expect(after.prepare(rows).all()).toEqual(expected);
      } finally {
        after.close();
      }
    }
    // Some runs pruned (past the kept number), some had nothing to prune.
    expect(pruned).toBeGreaterThan(20);
  });

  it('a removal leaves no image row, tag or board without its task', () => {
    const file = join(dir, 'removals.sqlite');
    const store = HistoryStore.open(file);
    const records = Array.from({ length: 30 }, (_, n) =>
      makeTask({
        localId: `r-${n}`,
        images: Array.from({ length: n % 4 }, (_, idx) =>
          makeImage(idx, { tags: [`t${idx}`], boards: [`B/${n % 3}`] }),
        ),
      }),
    );
    store.putMany(records);
    for (const record of records.filter((_, n) => n % 3 !== 0)) {
      if (Number(record.localId.slice(2)) % 2 === 0)
        expect(store.delete(record.localId)).toBe(true);
      else expect(store.detach(record)).toBe(true);
    }
    store.close();
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      for (const table of ['images', 'image_tags', 'image_boards']) {
        const orphans = `SELECT DISTINCT local_id FROM ${table} WHERE local_id NOT IN (SELECT local_id FROM tasks)`;
        expect(db.prepare(orphans).all(), table).toEqual([]);
      }
      const kept = records.filter((_, n) => n % 3 === 0);
      const images = Number(db.prepare('SELECT count(*) AS n FROM images').get()?.['n']);
      expect(images).toBe(kept.reduce((sum, record) => sum + record.images.length, 0));
    } finally {
      db.close();
    }
  });
});
