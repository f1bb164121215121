/**
 * Records as read from v16 on (triage-rows-schema.ts): the record JSON without its triage, the
 * triage from the rows, the one place it is stored. Three statements for any number of records
 * (a page, a chunk of an edit): the task and image rows, then the tags and the boards in order.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { Row, SqliteConnection } from './sqlite-connection';
import { FLAG_VALUES } from './triage-schema';

/**
 * The ids as the outer loop of a join, each row then found by its index: never `IN (SELECT value
 * FROM json_each(?))`, which builds an ephemeral table per run, and SQLite gives each one a page
 * cache of its own (an 87 KB allocation on the thread that reads: main's, for every record read).
 * The ids bound are distinct (readTriage), so the join repeats no row.
 */
const IDS = 'json_each(?) j CROSS JOIN';
const TRIAGE = `
  SELECT t.local_id, t.favourite AS task_favourite,
    max(t.updated_at, COALESCE(tt.updated_at, 0)) AS updated_at,
    i.idx, i.state, i.favourite, i.rating, i.flag, i.triaged_at
  FROM ${IDS} tasks t LEFT JOIN task_triage tt ON tt.local_id = t.local_id
  LEFT JOIN images i ON i.local_id = t.local_id
  WHERE t.local_id = j.value`;
const TAGS = `SELECT g.local_id, g.idx, g.tag AS name FROM ${IDS} image_tags g
  WHERE g.local_id = j.value ORDER BY g.local_id, g.idx, g.pos`;
const BOARDS = `SELECT g.local_id, g.idx, g.path AS name FROM ${IDS} image_boards g
  WHERE g.local_id = j.value ORDER BY g.local_id, g.idx, g.pos`;

/** The triage fields of an image as the rows hold them (absent: none). */
type ImageTriage = Pick<
  ImageRecord,
  'favourite' | 'rating' | 'flag' | 'tags' | 'boards' | 'triagedAt'
>;

/** A task's triage as its rows hold it: its star, and each image's triage by position. */
export interface TaskTriage {
  readonly favourite: boolean;
  readonly updatedAt: number;
  readonly images: Map<number, { -readonly [K in keyof ImageTriage]: ImageTriage[K] }>;
  /** The positions of its images in the trash. */
  readonly deleted: Set<number>;
}

/** An image's fields but its triage (what the record JSON holds of it from v16). */
function imageWithoutTriage(image: ImageRecord): ImageRecord {
  const { rating: _r, flag: _f, tags: _t, boards: _b, triagedAt: _a, ...rest } = image;
  return { ...rest, favourite: false };
}

/** The record as its JSON stores it from v16: no triage (the rows hold it). */
export function recordWithoutTriage(record: TaskRecord): TaskRecord {
  return { ...record, favourite: false, images: record.images.map(imageWithoutTriage) };
}

/** `records` with the triage their rows hold; a record with no task row is left as it is. */
export function composeTriage(connection: SqliteConnection, records: TaskRecord[]): TaskRecord[] {
  if (records.length === 0) return records;
  const tasks = readTriage(connection, [...new Set(records.map((record) => record.localId))]);
  return records.map((record) => {
    const triage = tasks.get(record.localId);
    return triage ? composed(record, triage) : record;
  });
}

/**
 * The triage the rows hold of the tasks `localIds` names (those there are), by local id: what a
 * change of triage alone reads (triage-rows-edit.ts), the records themselves left unread.
 */
export function readTriage(
  connection: SqliteConnection,
  localIds: readonly string[],
): Map<string, TaskTriage> {
  const ids = JSON.stringify([...new Set(localIds)]);
  const tasks = new Map<string, TaskTriage>();
  for (const row of connection.all(TRIAGE, [ids])) addImage(tasks, row);
  for (const row of connection.all(TAGS, [ids])) addName(tasks, row, 'tags');
  for (const row of connection.all(BOARDS, [ids])) addName(tasks, row, 'boards');
  return tasks;
}

function addImage(tasks: Map<string, TaskTriage>, row: Row): void {
  const localId = String(row['local_id']);
  let task = tasks.get(localId);
  if (!task) {
    const favourite = Number(row['task_favourite']) === 1;
    const updatedAt = Number(row['updated_at']);
    task = { favourite, updatedAt, images: new Map(), deleted: new Set() };
    tasks.set(localId, task);
  }
  if (row['idx'] === null) return;
  if (row['state'] === 'deleted') task.deleted.add(Number(row['idx']));
  const rating = Number(row['rating']);
  const triagedAt = row['triaged_at'];
  task.images.set(Number(row['idx']), {
    favourite: Number(row['favourite']) === 1,
    ...(rating > 0 ? { rating } : {}),
    ...(Number(row['flag']) === FLAG_VALUES.reject ? { flag: 'reject' as const } : {}),
    ...(triagedAt === null ? {} : { triagedAt: Number(triagedAt) }),
  });
}

function addName(tasks: Map<string, TaskTriage>, row: Row, list: 'tags' | 'boards'): void {
  const image = tasks.get(String(row['local_id']))?.images.get(Number(row['idx']));
  if (!image) return;
  image[list] = [...(image[list] ?? []), String(row['name'])];
}

function composed(record: TaskRecord, triage: TaskTriage): TaskRecord {
  const images = record.images.map((image, idx) => {
    const rows = triage.images.get(idx);
    return rows ? { ...imageWithoutTriage(image), ...rows } : image;
  });
  const updatedAt = Math.max(record.updatedAt, triage.updatedAt);
  return { ...record, favourite: triage.favourite, updatedAt, images };
}
