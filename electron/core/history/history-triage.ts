/**
 * The history's triage tables (triage-schema.ts) as the core reads and changes them: boards (a
 * tree by path), the tags in use, which tasks a board or tag touches, and the smart boards. A
 * change of the boards table is made inside the write that also rewrites the records it concerns
 * (TaskEngine.editMany's `alongside`), so the table and the records never disagree.
 */
import { parentPath } from '../../../shared/domain/triage';
import type { HistoryAccess } from './history-access';
import { ensureBoard } from './triage-rows';
import { SmartBoardRows } from './smart-board-rows';
import { BOARD_COUNT, TAG_EXISTS } from './history-statements';
import { VISIBLE_IMAGE } from './visible-image';
import { tagCount } from './triage-limits';
import type { SqlValue } from './sqlite-connection';

/** A board as listed: its path, its key, and how many images it holds that the gallery shows. */
export interface BoardRow {
  readonly key: string;
  readonly path: string;
  readonly parent: string | null;
  readonly images: number;
  readonly createdAt: number;
}

/** A tag in use: its key, the form first written, and how many images carry it. */
export interface TagRow {
  readonly key: string;
  readonly tag: string;
  readonly images: number;
}

/** The test that a key (column `column`) is `key` or one of its descendants' keys. */
function inTree(column: string, key: string): { where: string; params: SqlValue[] } {
  return {
    where: `(${column} = ? OR substr(${column}, 1, ?) = ?)`,
    params: [key, key.length + 1, `${key}/`],
  };
}

const BOARDS = `
  SELECT b.key, b.path, b.created_at,
    (SELECT count(*) FROM image_boards ib JOIN images i ON i.local_id = ib.local_id AND i.idx = ib.idx
      WHERE ib.board_key = b.key AND ${VISIBLE_IMAGE}) AS images
  FROM boards b ORDER BY b.key`;

const TAGS = `
  SELECT it.tag_key, min(it.tag) AS tag, count(*) AS n
  FROM image_tags it JOIN images i ON i.local_id = it.local_id AND i.idx = it.idx
  WHERE ${VISIBLE_IMAGE} GROUP BY it.tag_key ORDER BY it.tag_key`;

export class HistoryTriage {
  /** Smart boards: saved filters (smart-board-rows.ts). */
  readonly smart: SmartBoardRows;

  constructor(private readonly access: HistoryAccess) {
    this.smart = new SmartBoardRows(access);
  }

  /** Every board, parents before their children (ordered by key). */
  boards(): BoardRow[] {
    return this.access.rows(BOARDS, []).map((row) => {
      const path = String(row['path']);
      return {
        key: String(row['key']),
        path,
        parent: parentPath(path),
        images: Number(row['images']),
        createdAt: Number(row['created_at']),
      };
    });
  }

  /** The board's path as written, or null when there is no such board. */
  boardPath(key: string): string | null {
    const row = this.access.row('SELECT path FROM boards WHERE key = ?', [key]);
    return row ? String(row['path']) : null;
  }

  boardCount(): number {
    return Number(this.access.row(BOARD_COUNT, [])?.['n'] ?? 0);
  }

  /** The keys of the board and every board inside it. */
  treeKeys(key: string): string[] {
    const { where, params } = inTree('key', key);
    return this.access
      .rows(`SELECT key FROM boards WHERE ${where}`, params)
      .map((r) => String(r['key']));
  }

  /** The tasks with an image in the board or a board inside it. */
  tasksInTree(key: string): string[] {
    const { where, params } = inTree('board_key', key);
    const sql = `SELECT DISTINCT local_id FROM image_boards WHERE ${where}`;
    return this.access.rows(sql, params).map((row) => String(row['local_id']));
  }

  /** The board (and its parents) exist, in a write of its own. */
  createBoard(path: string, now: number): void {
    this.access.writeTransaction(() => this.addBoard(path, now));
  }

  /** Inside a write: the board (and its parents) exist. */
  addBoard(path: string, now: number): void {
    ensureBoard(this.access.connection, path, now);
  }

  /** Inside a write: the boards with these keys no longer exist (their images stay). */
  deleteBoards(keys: readonly string[]): void {
    for (const key of keys) this.access.connection.run('DELETE FROM boards WHERE key = ?', [key]);
  }

  /**
   * Every tag the gallery's images carry, by key, with how many of them carry it (the tag
   * editor's "Tags in the library"): an image in the trash, or in a state this version does not
   * know, neither counts nor offers its tags, as a board's count does not ({@link VISIBLE_IMAGE}).
   */
  tags(): TagRow[] {
    return this.access.rows(TAGS, []).map((row) => ({
      key: String(row['tag_key']),
      tag: String(row['tag']),
      images: Number(row['n']),
    }));
  }

  /** How many different tags the library's images carry. */
  tagCount(): number {
    return this.access.read(() => tagCount(this.access.connection));
  }

  /** Whether any image carries the tag. */
  hasTag(key: string): boolean {
    return this.access.row(TAG_EXISTS, [key]) !== null;
  }
}
