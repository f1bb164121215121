/**
 * In the history: a stored row whose record is outside the record limits (an old
 * build's, or a database edited by hand) is skipped where it is read and logged by local id
 * only; it never throws for the page, never stops paging, and never reaches a caller. Real
 * SQLite files, damaged with plain SQL.
 */
import sqlite from 'node-sqlite3-wasm';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { silentLogger, type Logger } from '../../../electron/ports/logger';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { historyFilePerTest } from '../../unit/core/history/history-fixtures';

const CREATED = Date.UTC(2025, 0, 1);
const history = historyFilePerTest();

function record(n: number): TaskRecord {
  const createdAt = CREATED - n * 60_000;
  return makeTaskRecord(
    {
      localId: `row-${String(n).padStart(3, '0')}`,
      taskId: `task-${n}`,
      request: { prompt: `Secret prompt ${n}` },
      finishedAt: createdAt,
      lastPolledAt: createdAt,
      images: [{ index: 0, url: null, state: 'invalid', attempts: 0, favourite: false }],
    },
    createdAt,
  );
}

/** Values a damaged row can hold that the record limits refuse. */
const DAMAGE: Array<[string, Record<string, unknown>]> = [
  ['a date no Date can hold', { updatedAt: 1e16 }],
  ['a negative date', { finishedAt: -1 }],
  ['a fractional count', { polls: 0.5 }],
  ['a megabyte id', { taskId: 'x'.repeat(1 << 20) }],
  // Stored before the service's ids were held to the task id rule (shared/domain/limits.ts).
  ['an id with a bidi override', { taskId: 'task-\u202e9' }],
  ['too many images', { images: Array.from({ length: 17 }, () => record(0).images[0]) }],
];

function damage(localIds: readonly string[], patch: Record<string, unknown>): void {
  const db = new sqlite.Database(history.file);
  // The history is a WAL database in exclusive mode: this VFS opens one no other way.
  db.get('PRAGMA locking_mode = EXCLUSIVE');
  try {
    for (const localId of localIds) {
      const row = db.get('SELECT record FROM tasks WHERE local_id = ?', [localId]);
      const stored = JSON.parse(String(row?.['record'])) as object;
      db.run('UPDATE tasks SET record = ? WHERE local_id = ?', [
        JSON.stringify({ ...stored, ...patch }),
        localId,
      ]);
    }
  } finally {
    db.close();
  }
}

function recordingLogger(): Logger & { warnings: unknown[] } {
  const warnings: unknown[] = [];
  return {
    ...silentLogger,
    warnings,
    warn: (message, fields) => void warnings.push([message, fields]),
  };
}

describe('damaged history rows', () => {
  it.each(DAMAGE)('are skipped by every read, pages carry on past them (%s)', (_what, patch) => {
    let store = HistoryStore.open(history.file);
    store.putMany(Array.from({ length: 12 }, (_, n) => record(n)));
    store.close();
    // Damaged: the last row of the first page of 5, a whole page's worth (5..9), and row 11.
    const bad = ['row-004', 'row-005', 'row-006', 'row-007', 'row-008', 'row-009', 'row-011'];
    damage(bad, patch);

    const logger = recordingLogger();
    store = HistoryStore.open(history.file, { logger });
    try {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = store.list({ limit: 5, cursor });
        seen.push(...page.items.map((item) => item.localId));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(seen).toEqual(['row-000', 'row-001', 'row-002', 'row-003', 'row-010']);
      expect(pages).toBe(3);

      const images = store.listImages({ limit: 3 });
      expect(images.items.map((item) => item.localId)).toEqual(['row-000', 'row-001', 'row-002']);
      expect(store.get('row-004')).toBeUndefined();
      expect(store.findByTaskId('task-11')).toBeUndefined();
      // Logged by local id only: the row's content may hold a prompt.
      expect(logger.warnings.length).toBeGreaterThanOrEqual(bad.length);
      expect(JSON.stringify(logger.warnings)).not.toContain('Secret prompt');
    } finally {
      store.close();
    }
  });
});
