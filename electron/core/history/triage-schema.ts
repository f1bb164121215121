/**
 * v10 of the history's schema: triage (shared/domain/triage.ts). The record stays the truth (its
 * images carry rating, flag, tags and boards, and so does the task's sidecar); these columns and
 * tables are what lists filter on, kept by every write of a record (history-records.ts).
 *
 * - `images.rating` 0–5 and `images.flag` (1 pick, -1 reject, 0 none, as XMP's Rating writes a
 *   reject), with partial indexes newest first: the Rejected board and a rating filter walk
 *   only the images they list. A pick is also the image's favourite, so the favourites' index
 *   serves the pick filter.
 * - `image_tags`: one row per tag of an image, by its folded key (the filter) and as written (the
 *   names the tag editor offers); `image_boards` the same for boards, by the board's key.
 * - `boards`: every board, by key, with its path as the user wrote it; a board exists with no
 *   image in it. A path an image names is added here by the write (with its parents).
 * - `smart_boards`: saved filters, their rules as JSON.
 *
 * Stars of earlier versions are picks as they are: a pick is stored as the image's star
 * (shared/domain/favourites.ts), so no record is rewritten, and each starred image's row is
 * flagged a pick here.
 */
import type { DatabaseSync } from 'node:sqlite';

/** `images.flag` as stored. */
export const FLAG_VALUES = { pick: 1, reject: -1, none: 0 } as const;

export function addTriageV10(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE images ADD COLUMN rating INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE images ADD COLUMN flag INTEGER NOT NULL DEFAULT 0;
    UPDATE images SET flag = 1 WHERE favourite = 1;
    CREATE INDEX images_rejected_newest ON images (created_at DESC, local_id DESC, idx) WHERE flag = -1;
    CREATE INDEX images_rated_newest ON images (created_at DESC, local_id DESC, idx, rating) WHERE rating > 0;

    CREATE TABLE image_tags (
      local_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      tag_key TEXT NOT NULL,
      tag TEXT NOT NULL,
      PRIMARY KEY (local_id, idx, tag_key)
    ) WITHOUT ROWID;
    CREATE INDEX image_tags_by_tag ON image_tags (tag_key, local_id, idx);

    CREATE TABLE image_boards (
      local_id TEXT NOT NULL,
      idx INTEGER NOT NULL,
      board_key TEXT NOT NULL,
      PRIMARY KEY (local_id, idx, board_key)
    ) WITHOUT ROWID;
    CREATE INDEX image_boards_by_board ON image_boards (board_key, local_id, idx);

    CREATE TABLE boards (
      key TEXT PRIMARY KEY,
      path TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE smart_boards (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      rules TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) WITHOUT ROWID;
  `);
}
