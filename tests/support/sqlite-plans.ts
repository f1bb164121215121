/**
 * What SQLite builds for the history's statements, as the store compiles them: EXPLAIN read for
 * the ephemeral tables and autoindexes a statement opens (each gets a page cache of its own, an
 * 87 KB allocation at every run), and the statements a piece of work runs on a store.
 */
import { DatabaseSync, StatementSync } from 'node:sqlite';
import { vi } from 'vitest';
import { openDatabase } from '../../electron/core/history/sqlite-connection';
import { HISTORY_MIGRATIONS } from '../../electron/core/history/history-schema';
import { silentLogger } from '../../electron/ports/logger';

/**
 * `file` opened read-only as the store opens it (sqlite-connection.ts: its foreign keys off, and
 * EXPLAIN lists a foreign key's actions only when they are on).
 */
export function storeDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { readOnly: true });
  db.exec(`PRAGMA foreign_keys = ${String(storeForeignKeys(file))}`);
  return db;
}

/** Whether the store runs `file` with foreign keys on (1) or off (0), read from its connection. */
function storeForeignKeys(file: string): number {
  const { connection } = openDatabase(file, HISTORY_MIGRATIONS, silentLogger);
  try {
    return Number(connection.get('PRAGMA foreign_keys', [])?.['foreign_keys']);
  } finally {
    connection.close();
  }
}

/** The statements this file's SQLite build compiles with an ephemeral table or an autoindex. */
export function withEphemeral(db: DatabaseSync, sqls: Iterable<string>): string[] {
  return [...sqls].filter((sql) =>
    db
      .prepare(`EXPLAIN ${sql}`)
      .all()
      .some((row) => /^Open(Ephemeral|Autoindex)$/.test(String(row['opcode']))),
  );
}

/** The SQL of every statement `work` runs on the store. */
export function statementsOf(work: () => void): Set<string> {
  const spies = (['run', 'all', 'get', 'iterate'] as const).map((method) =>
    vi.spyOn(StatementSync.prototype, method),
  );
  try {
    work();
    const contexts = spies.flatMap((spy) => spy.mock.contexts as StatementSync[]);
    return new Set(contexts.map((statement) => statement.sourceSQL));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
