/**
 * A record's triage as the rows lists filter on (triage-schema.ts): its images' rating and flag
 * columns, one `image_tags` row per tag and one `image_boards` row per board, and the boards it
 * names (with their parents) in `boards`. Before v16 written with every write of the record, from
 * its images; from v16 (triage-rows-schema.ts) the one place triage is stored, an image's lists
 * written with their order and as named (`writeImageLists`).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import {
  boardKey,
  flagOf,
  foldName,
  type ImageTriage,
  parentPath,
} from '../../../shared/domain/triage';
import type { SqliteConnection } from './sqlite-connection';
import {
  DELETE_IMAGE_BOARDS,
  DELETE_IMAGE_TAGS,
  ENSURE_BOARD,
  INSERT_IMAGE_BOARD,
  INSERT_IMAGE_TAG,
} from './history-statements';

// From v16 (triage-rows-schema.ts): each tag and board in its place, the board as the image names it.
const INSERT_TAG_AT =
  'INSERT OR IGNORE INTO image_tags (local_id, idx, tag_key, tag, pos) VALUES (?, ?, ?, ?, ?)';
const INSERT_BOARD_AT =
  'INSERT OR IGNORE INTO image_boards (local_id, idx, board_key, path, pos) VALUES (?, ?, ?, ?, ?)';
const DELETE_TAGS_OF = 'DELETE FROM image_tags WHERE local_id = ? AND idx = ?';
const DELETE_BOARDS_OF = 'DELETE FROM image_boards WHERE local_id = ? AND idx = ?';
const DELETE_TAGS_FROM = 'DELETE FROM image_tags WHERE local_id = ? AND idx >= ?';
const DELETE_BOARDS_FROM = 'DELETE FROM image_boards WHERE local_id = ? AND idx >= ?';
import { FLAG_VALUES } from './triage-schema';

/** The image's `rating` and `flag` columns. */
export function triageColumns(image: ImageTriage): [number, number] {
  return [image.rating ?? 0, FLAG_VALUES[flagOf(image)]];
}

/** Removes the task's tag and board rows (before writing them again, or with the task). */
export function deleteTriageRows(connection: SqliteConnection, localId: string): void {
  connection.run(DELETE_IMAGE_TAGS, [localId]);
  connection.run(DELETE_IMAGE_BOARDS, [localId]);
}

/** Writes the task's tag and board rows from its images; the boards they name exist after. */
export function writeTriageRows(
  connection: SqliteConnection,
  record: TaskRecord,
  now: number,
): void {
  deleteTriageRows(connection, record.localId);
  record.images.forEach((image, position) => {
    for (const tag of image.tags ?? []) {
      connection.run(INSERT_IMAGE_TAG, [record.localId, position, foldName(tag), tag]);
    }
    for (const path of image.boards ?? []) {
      connection.run(INSERT_IMAGE_BOARD, [record.localId, position, boardKey(path)]);
      ensureBoard(connection, path, now);
    }
  });
}

/** The board at `path` and each of its parents exist (a new one with this path as written). */
export function ensureBoard(connection: SqliteConnection, path: string, now: number): void {
  for (let at: string | null = path; at !== null; at = parentPath(at)) {
    if (connection.run(ENSURE_BOARD, [boardKey(at), at, now]).changes === 0) return;
  }
}

/** From v16: the image's tags and boards in order; the boards it names exist after. */
export function writeImageLists(
  connection: SqliteConnection,
  [localId, idx]: readonly [localId: string, idx: number],
  image: ImageTriage,
  now: number,
): void {
  (image.tags ?? []).forEach((tag, pos) => {
    connection.run(INSERT_TAG_AT, [localId, idx, foldName(tag), tag, pos]);
  });
  (image.boards ?? []).forEach((path, pos) => {
    connection.run(INSERT_BOARD_AT, [localId, idx, boardKey(path), path, pos]);
    ensureBoard(connection, path, now);
  });
}

/** From v16: removes the image's tag and board rows (before writing them again). */
export function deleteImageLists(connection: SqliteConnection, localId: string, idx: number): void {
  connection.run(DELETE_TAGS_OF, [localId, idx]);
  connection.run(DELETE_BOARDS_OF, [localId, idx]);
}

/** Removes the tag and board rows of the task's images from `count` on (images it no longer has). */
export function deleteListsFrom(
  connection: SqliteConnection,
  localId: string,
  count: number,
): void {
  connection.run(DELETE_TAGS_FROM, [localId, count]);
  connection.run(DELETE_BOARDS_FROM, [localId, count]);
}
