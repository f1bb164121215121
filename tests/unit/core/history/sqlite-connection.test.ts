import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../electron/core/history/sqlite-connection';
import { silentLogger } from '../../../../electron/ports/logger';

describe('SqliteConnection statements', () => {
  it('a statement whose write failed is replaced, so the next write with it works', () => {
    const { connection } = openDatabase(
      ':memory:',
      [(db) => db.exec('CREATE TABLE notes (n INTEGER NOT NULL CHECK (n >= 0))')],
      silentLogger,
    );
    const insert = 'INSERT INTO notes (n) VALUES (?)';
    connection.run(insert, [1]);
    // A failing step (here a CHECK; on a full disk, SQLITE_FULL) leaves its error in the
    // prepared statement; reusing it would throw "Could not reset statement" once more.
    expect(() => connection.run(insert, [-1])).toThrow(/CHECK constraint failed/);
    expect(() => connection.transaction(() => connection.run(insert, [-2]))).toThrow(/CHECK/);
    connection.run(insert, [2]);
    connection.transaction(() => connection.run(insert, [3]));
    expect(
      connection.all('SELECT n FROM notes ORDER BY n', []).map((row) => Number(row['n'])),
    ).toEqual([1, 2, 3]);
    connection.close();
  });

  it('reads integers past 2^53 (a crafted row) instead of throwing on the whole page', () => {
    const { connection } = openDatabase(
      ':memory:',
      [(db) => db.exec('CREATE TABLE notes (n INTEGER NOT NULL)')],
      silentLogger,
    );
    for (const n of [1, 2 ** 53 + 2, -(2 ** 62), 9_223_372_036_854_775_807n])
      connection.run('INSERT INTO notes (n) VALUES (?)', [n]);
    expect(connection.all('SELECT n FROM notes ORDER BY rowid', []).map((row) => row['n'])).toEqual(
      [1n, 2n ** 53n + 2n, -(2n ** 62n), 9_223_372_036_854_775_807n],
    );
    connection.close();
  });

  it('binds whole numbers as integers (FTS5 seeks a rowid only when it is one), fractions as reals', () => {
    const { connection } = openDatabase(
      ':memory:',
      [
        (db) =>
          db.exec(`CREATE TABLE notes (body TEXT NOT NULL);
            CREATE VIRTUAL TABLE notes_fts USING fts5 (body, content = 'notes', content_rowid = 'rowid', tokenize = 'trigram');`),
      ],
      silentLogger,
    );
    const typeOf = (value: number | bigint | string) =>
      connection.get('SELECT typeof(?) AS t', [value])?.['t'];
    expect([5, 0, -7, Number.MAX_SAFE_INTEGER].map(typeOf)).toEqual(Array(4).fill('integer'));
    expect([5.5, 2 ** 60, Number.NaN].map(typeOf)).toEqual(['real', 'real', 'null']);
    expect([5n, '5'].map(typeOf)).toEqual(['integer', 'text']);
    // The rowid constraint is applied by the full-text index itself (a REAL one was ignored there).
    connection.run('INSERT INTO notes (rowid, body) VALUES (1, ?), (2, ?), (3, ?)', [
      'kite',
      'kite',
      'kite',
    ]);
    connection.run("INSERT INTO notes_fts (notes_fts) VALUES ('rebuild')");
    const rows = connection.all(
      'SELECT rowid AS id FROM notes_fts WHERE notes_fts MATCH ? AND rowid >= ? ORDER BY rowid',
      ['"kite"', 2],
    );
    expect(rows.map((row) => Number(row['id']))).toEqual([2, 3]);
    connection.close();
  });
});
