/**
 * A task's lease ends in the same history transaction as the task's last write (its image saved),
 * not in a transaction of its own after it: one commit (and one sync of the log, synchronous =
 * FULL) fewer per downloaded image, and no moment at which the task is finished in the history and
 * still leased. Over the real core (SQLite history, gallery on disk) against the demo service on
 * loopback; each of the history's transactions is recorded with the statements run in it (the
 * real connection's methods, observed, not replaced).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqliteConnection } from '../../../electron/core/history/sqlite-connection';
import { DONE_AT_FIRST_POLL, coreAgainstDemo } from './core-harness';

const LEASE_DELETE = /^DELETE FROM leases WHERE local_id = \?/;
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK)\b/;

/** The statements of each transaction of every SqliteConnection of this process, in order. */
function recordTransactions(): string[][] {
  const transactions: string[][] = [];
  let open: string[] | null = null;
  const { transaction, run } = SqliteConnection.prototype;
  vi.spyOn(SqliteConnection.prototype, 'transaction').mockImplementation(function <T>(
    this: SqliteConnection,
    work: () => T,
  ): T {
    const outer = open;
    open = [];
    transactions.push(open);
    try {
      return transaction.call(this, work) as T;
    } finally {
      open = outer;
    }
  });
  vi.spyOn(SqliteConnection.prototype, 'run').mockImplementation(function (
    this: SqliteConnection,
    sql,
    params,
  ) {
    // The transaction's own BEGIN and COMMIT are not its statements.
    if (!TRANSACTION_CONTROL.test(sql)) open?.push(sql.trim());
    return run.call(this, sql, params);
  });
  return transactions;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a task's last write", () => {
  it('ends its lease in the same transaction, never in one of its own', async () => {
    const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
    const transactions = recordTransactions();
    h.core.engine.start();
    const records = await h.core.engine.submit({ prompt: 'one lease', size: '32x32' }, h.target, 2);
    const settled = await h.core.engine.whenSettled(records.map((record) => record.localId));
    expect(settled.map((record) => record.images.map((image) => image.state))).toEqual([
      ['saved'],
      ['saved'],
    ]);
    for (const { localId } of records) expect(h.core.history.leaseOf(localId)).toBeUndefined();
    const lone = transactions.filter(
      (statements) => statements.length > 0 && statements.every((sql) => LEASE_DELETE.test(sql)),
    );
    expect(lone).toEqual([]);
    const withLeaseEnd = transactions.filter((statements) =>
      statements.some((sql) => LEASE_DELETE.test(sql)),
    );
    // One per task: its last write (the image saved) with its lease's end.
    expect(withLeaseEnd).toHaveLength(2);
    for (const statements of withLeaseEnd) {
      expect(statements.some((sql) => sql.startsWith('INSERT INTO tasks'))).toBe(true);
    }
  });
});
