/**
 * A record's triage as the rows lists filter on (triage-schema.ts): its images' rating and flag
 * columns, one `image_tags` row per tag and one `image_boards` row per board, and the boards it
 * names (with their parents) in `boards`. Written with every write of the record, from its
 * images, so the rows never disagree with the record.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { boardKey, flagOf, foldName, parentPath } from '../../../shared/domain/triage';
import type { SqliteConnection } from './sqlite-connection';
import {
  DELETE_IMAGE_BOARDS,
  DELETE_IMAGE_TAGS,
  ENSURE_BOARD,
  INSERT_IMAGE_BOARD,
  INSERT_IMAGE_TAG,
} from './history-statements';
import { FLAG_VALUES } from './triage-schema';

/** The image's `rating` and `flag` columns. */
export function triageColumns(image: ImageRecord): [number, number] {
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
