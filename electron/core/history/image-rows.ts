/**
 * A task's image rows, written with its record (history-records.ts). Before v16 every write
 * replaces them (and their triage, from the record). From v16 (triage-rows-schema.ts) the rows
 * are where triage is stored: a write that `keeps` triage (the engine's write of a task: its
 * status, its downloads) updates the image fields of the images already stored and leaves their
 * rating, flag, star, time, tags and boards as they are, whichever process set them; only a new
 * image takes its triage from the record. A write that does not keep (an edit of the user's
 * read under the write lock, an import or a rebuild) writes the record's triage.
 */
import { listedAt, type TaskRecord } from '../../../shared/domain/task-record';
import type { ImageTriage } from '../../../shared/domain/triage';
import { hasContentCredentials } from '../../../shared/domain/content-credentials';
import type { SqliteConnection } from './sqlite-connection';
import {
  CREDENTIALS_VERSION,
  DELETE_IMAGE,
  INSERT_IMAGE,
  INSERT_IMAGE_BEFORE_CREDENTIALS,
  INSERT_IMAGE_WITH_TRIAGE,
  SELECT_IMAGE_INDEXES,
  TRIAGE_VERSION,
} from './history-statements';
import { TRIAGE_ROWS_VERSION } from './history-schema';
import {
  deleteImageLists,
  deleteListsFrom,
  deleteTriageRows,
  triageColumns,
  writeImageLists,
  writeTriageRows,
} from './triage-rows';

const IMAGE_COLUMNS = 'local_id, task_row, idx, state, created_at, model, has_credentials';
const TRIAGE_COLUMNS = 'favourite, rating, flag, triaged_at';
const UPSERT_HEAD = `INSERT INTO images (${IMAGE_COLUMNS}, ${TRIAGE_COLUMNS})
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (local_id, idx) DO UPDATE SET task_row = excluded.task_row, state = excluded.state,
    created_at = excluded.created_at, model = excluded.model,
    has_credentials = excluded.has_credentials`;
/** An image row whose stored triage stays. */
const UPSERT_KEEPING = UPSERT_HEAD;
/** An image row with the record's triage. */
const UPSERT_REPLACING = `${UPSERT_HEAD}, favourite = excluded.favourite,
    rating = excluded.rating, flag = excluded.flag, triaged_at = excluded.triaged_at`;
const DELETE_TRIAGE_TIME = 'DELETE FROM task_triage WHERE local_id = ?';

/** An image's triage columns from v16, in the order the upserts bind them. */
export function imageTriageColumns(image: ImageTriage): [number, number, number, number | null] {
  return [image.favourite ? 1 : 0, ...triageColumns(image), image.triagedAt ?? null];
}

export class ImageRows {
  constructor(
    private readonly connection: SqliteConnection,
    private readonly schemaVersion: number,
  ) {}

  /** Whether triage is stored in the rows alone (v16 on). */
  get triageInRows(): boolean {
    return this.schemaVersion >= TRIAGE_ROWS_VERSION;
  }

  /** The task's image rows (see the file's comment); `keep`: leave stored images' triage. */
  write(record: TaskRecord, taskRow: number, model: string | null, keep: boolean): void {
    if (!this.triageInRows) return this.writeBefore16(record, taskRow, model);
    const { connection } = this;
    const { localId } = record;
    const stored = new Set(this.storedIndexes(localId));
    // The images it no longer has, each by its key (DELETE_IMAGE: no ephemeral table).
    const count = record.images.length;
    for (const idx of stored) if (idx >= count) connection.run(DELETE_IMAGE, [localId, idx]);
    deleteListsFrom(connection, localId, record.images.length);
    record.images.forEach((image, idx) => {
      const known = stored.has(idx);
      const credentials = hasContentCredentials(image.contentCredentials) ? 1 : 0;
      const row = [localId, taskRow, idx, image.state, listedAt(record), model, credentials];
      const sql = keep && known ? UPSERT_KEEPING : UPSERT_REPLACING;
      connection.run(sql, [...row, ...imageTriageColumns(image)]);
      if (keep && known) return;
      if (known) deleteImageLists(connection, localId, idx);
      writeImageLists(connection, [localId, idx], image, record.updatedAt);
    });
  }

  /** Removes the task's image rows and their triage. */
  delete(localId: string): void {
    this.deleteImages(localId);
    if (this.schemaVersion >= TRIAGE_VERSION) deleteTriageRows(this.connection, localId);
    if (this.triageInRows) this.connection.run(DELETE_TRIAGE_TIME, [localId]);
  }

  /** Before v16: every image row (and, from v10, its triage rows) replaced from the record. */
  private writeBefore16(record: TaskRecord, taskRow: number, model: string | null): void {
    const { connection } = this;
    this.deleteImages(record.localId);
    const withCredentials = this.schemaVersion >= CREDENTIALS_VERSION;
    const withTriage = this.schemaVersion >= TRIAGE_VERSION;
    record.images.forEach((image, position) => {
      const row = [
        record.localId,
        taskRow,
        position,
        image.state,
        image.favourite ? 1 : 0,
        listedAt(record),
        model,
      ];
      if (!withCredentials) return void connection.run(INSERT_IMAGE_BEFORE_CREDENTIALS, row);
      const credentials = hasContentCredentials(image.contentCredentials) ? 1 : 0;
      if (!withTriage) return void connection.run(INSERT_IMAGE, [...row, credentials]);
      connection.run(INSERT_IMAGE_WITH_TRIAGE, [...row, credentials, ...triageColumns(image)]);
    });
    if (withTriage) writeTriageRows(connection, record, record.updatedAt);
  }

  /** The positions of the task's stored image rows. */
  private storedIndexes(localId: string): number[] {
    return this.connection.all(SELECT_IMAGE_INDEXES, [localId]).map((row) => Number(row['idx']));
  }

  /** Every image row of the task, one by its key at a time (DELETE_IMAGE: no ephemeral table). */
  private deleteImages(localId: string): void {
    for (const idx of this.storedIndexes(localId))
      this.connection.run(DELETE_IMAGE, [localId, idx]);
  }
}
