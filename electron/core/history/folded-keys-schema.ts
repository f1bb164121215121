/**
 * The history's v22: a tag's, a board's and a template's key without what draws nothing.
 *
 * From this version a name's key (shared/domain/triage.ts `foldName`) leaves out the characters
 * that draw nothing where they stand (`keep\u200b`, `keep\u3164` and `keep` show alike, and are
 * one tag). A library from before may hold such a name, typed when it was still taken: its rows
 * are keyed again here, as every read now keys it. A tag or board whose new key an image or the
 * library already has is merged into it (the row already there is kept, with its spelling and
 * place), never dropped; a board's children move with it, since a path's key is its names' keys.
 * Templates are unique by key: one whose new key another template already holds keeps its old
 * key (it stays listed and opens by its id; it is renamed when the user next saves it).
 */
import type { DatabaseSync } from 'node:sqlite';
import { boardKey, foldName } from '../../../shared/domain/triage';

type Row = Record<string, unknown>;

/** Rows of `select` whose key (`keyColumn`) is not `fold` of their name (`nameColumn`). */
function stale(
  db: DatabaseSync,
  select: string,
  [keyColumn, nameColumn]: readonly [string, string],
  fold: (name: string) => string,
): Row[] {
  const rows: Row[] = [];
  for (const row of db.prepare(select).iterate()) {
    const name = String(row[nameColumn]);
    if (name !== '' && fold(name) !== String(row[keyColumn])) rows.push(row);
  }
  return rows;
}

export function refoldKeysV22(db: DatabaseSync): void {
  const tags = stale(
    db,
    'SELECT local_id, idx, tag_key, tag, pos FROM image_tags',
    ['tag_key', 'tag'],
    foldName,
  );
  const dropTag = db.prepare(
    'DELETE FROM image_tags WHERE local_id = ? AND idx = ? AND tag_key = ?',
  );
  const addTag = db.prepare(
    'INSERT OR IGNORE INTO image_tags (local_id, idx, tag_key, tag, pos) VALUES (?, ?, ?, ?, ?)',
  );
  for (const row of tags) {
    const [id, idx, name] = [String(row['local_id']), Number(row['idx']), String(row['tag'])];
    dropTag.run(id, idx, String(row['tag_key']));
    addTag.run(id, idx, foldName(name), name, Number(row['pos']));
  }
  const boards = stale(db, 'SELECT key, path, created_at FROM boards', ['key', 'path'], boardKey);
  const dropBoard = db.prepare('DELETE FROM boards WHERE key = ?');
  const addBoard = db.prepare(
    'INSERT OR IGNORE INTO boards (key, path, created_at) VALUES (?, ?, ?)',
  );
  for (const row of boards) {
    const path = String(row['path']);
    dropBoard.run(String(row['key']));
    addBoard.run(boardKey(path), path, Number(row['created_at']));
  }
  const select = 'SELECT local_id, idx, board_key, path, pos FROM image_boards';
  const inBoards = stale(db, select, ['board_key', 'path'], boardKey);
  const dropIn = db.prepare(
    'DELETE FROM image_boards WHERE local_id = ? AND idx = ? AND board_key = ?',
  );
  const addIn = db.prepare(
    'INSERT OR IGNORE INTO image_boards (local_id, idx, board_key, path, pos) VALUES (?, ?, ?, ?, ?)',
  );
  for (const row of inBoards) {
    const [id, idx, path] = [String(row['local_id']), Number(row['idx']), String(row['path'])];
    dropIn.run(id, idx, String(row['board_key']));
    addIn.run(id, idx, boardKey(path), path, Number(row['pos']));
  }
  const templates = stale(
    db,
    'SELECT id, name, name_key FROM templates',
    ['name_key', 'name'],
    foldName,
  );
  const rekey = db.prepare(
    'UPDATE templates SET name_key = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM templates WHERE name_key = ?)',
  );
  for (const row of templates) {
    const key = foldName(String(row['name']));
    rekey.run(key, String(row['id']), key);
  }
}
