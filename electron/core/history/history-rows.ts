/**
 * Turns rows back into records. Every record read from disk is checked as the schema checks it
 * (shared/domain/record-check.ts), but a text this process wrote from a checked record (checked-texts.ts); a
 * row that fails is skipped and logged by local id only (its content may hold a prompt).
 */
import { galleryItemOf, type GalleryItem } from '../../../shared/domain/gallery-item';
import type { Logger } from '../../ports/logger';
import type { Row } from './sqlite-connection';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { isCheckedText } from './checked-texts';
import { parseTaskRecord } from '../../../shared/domain/record-check';

/** What reads records: its logger, and what puts the rows' triage in (HistoryAccess). */
export interface RecordReader {
  readonly logger: Logger;
  readonly withTriage: (records: TaskRecord[]) => TaskRecord[];
}

/** Parses the `record` column of a tasks row; `undefined` (and a warning) when it is not valid. */
function recordFromRow(row: Row, logger: Logger): TaskRecord | undefined {
  const localId = String(row['local_id']);
  const text = row['record'];
  let json: unknown;
  try {
    json = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // This process wrote exactly this text from a checked record (checked-texts.ts).
  if (typeof text === 'string' && isCheckedText(text)) {
    const record = json as TaskRecord;
    if (record.localId === localId) return record;
  }
  // The schema's answer; the common shape checked without running it (shared/domain/record-check.ts).
  const record = parseTaskRecord(json);
  if (record === undefined || record.localId !== localId) {
    logger.warn('Skipped a history record that could not be read.', { localId });
    return undefined;
  }
  return record;
}

/**
 * A write of this version that found a newer Pictor's task at its local id (a status or a service
 * it does not know: history-statements.ts, upsertTask) and left it as it is; by local id only.
 */
export function keptNewerRow(logger: Logger, localId: string): void {
  logger.warn("A newer Pictor's task was left as it is, not written over.", { localId });
}

/** The records of `rows` that parse, in order. */
export function recordsFromRows(rows: readonly Row[], reader: RecordReader): TaskRecord[] {
  const records: TaskRecord[] = [];
  for (const row of rows) {
    const record = recordFromRow(row, reader.logger);
    if (record !== undefined) records.push(record);
  }
  return reader.withTriage(records);
}

/**
 * Gallery items of image rows joined to their task's record. A task's record is parsed once
 * per page however many of its images the page holds.
 */
export function galleryItemsFromRows(rows: readonly Row[], reader: RecordReader): GalleryItem[] {
  const read = new Map<string, TaskRecord | undefined>();
  for (const row of rows) {
    const localId = String(row['local_id']);
    if (!read.has(localId)) read.set(localId, recordFromRow(row, reader.logger));
  }
  const records = new Map<string, TaskRecord>();
  const found = [...read.values()].filter((record) => record !== undefined);
  for (const record of reader.withTriage(found)) records.set(record.localId, record);
  const items: GalleryItem[] = [];
  for (const row of rows) {
    const record = records.get(String(row['local_id']));
    const image = record?.images[Number(row['idx'])];
    if (record !== undefined && image !== undefined) items.push(galleryItemOf(record, image));
  }
  return items;
}

/**
 * The newest task row (`created_at`, then `local_id`) of `rows`, as `ORDER BY created_at DESC,
 * local_id DESC LIMIT 1` picks it (the local id by its UTF-8 bytes: SQLite's BINARY order),
 * without the sort SQLite builds an ephemeral table for at every run.
 */
export function newestRow(rows: readonly Row[]): Row | undefined {
  let newest: Row | undefined;
  for (const row of rows) if (newest === undefined || isNewer(row, newest)) newest = row;
  return newest;
}

function isNewer(a: Row, b: Row): boolean {
  const [at, bt] = [Number(a['created_at']), Number(b['created_at'])];
  if (at !== bt) return at > bt;
  return Buffer.compare(Buffer.from(String(a['local_id'])), Buffer.from(String(b['local_id']))) > 0;
}
