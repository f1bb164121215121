/**
 * Turns rows back into records. Every record read from disk goes through the schema; a row that
 * fails is skipped and logged by local id only (its content may hold a prompt).
 */
import type { QueryResult } from 'node-sqlite3-wasm';
import type { Logger } from '../../ports/logger';
import {
  taskRecordSchema,
  type ImageRecord,
  type TaskRecord,
} from '../../../shared/domain/task-record';

/** One image of one task, as the gallery shows it. */
export interface GalleryItem {
  localId: string;
  taskId: string | null;
  /** The image's `index` (its position in the service's output). */
  index: number;
  image: ImageRecord;
  prompt: string;
  model?: string;
  size?: string;
  quality?: string;
  createdAt: number;
}

/** Parses the `record` column of a tasks row; `undefined` (and a warning) when it is not valid. */
export function recordFromRow(row: QueryResult, logger: Logger): TaskRecord | undefined {
  const localId = String(row['local_id']);
  const text = row['record'];
  let json: unknown;
  try {
    json = typeof text === 'string' ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = taskRecordSchema.safeParse(json);
  if (!parsed.success || parsed.data.localId !== localId) {
    logger.warn('Skipped a history record that could not be read.', { localId });
    return undefined;
  }
  return parsed.data;
}

/** The records of `rows` that parse, in order. */
export function recordsFromRows(rows: readonly QueryResult[], logger: Logger): TaskRecord[] {
  const records: TaskRecord[] = [];
  for (const row of rows) {
    const record = recordFromRow(row, logger);
    if (record !== undefined) records.push(record);
  }
  return records;
}

/**
 * Gallery items of image rows joined to their task's record. A task's record is parsed once
 * per page however many of its images the page holds.
 */
export function galleryItemsFromRows(rows: readonly QueryResult[], logger: Logger): GalleryItem[] {
  const records = new Map<string, TaskRecord | undefined>();
  const items: GalleryItem[] = [];
  for (const row of rows) {
    const localId = String(row['local_id']);
    if (!records.has(localId)) records.set(localId, recordFromRow(row, logger));
    const record = records.get(localId);
    const image = record?.images[Number(row['idx'])];
    if (record !== undefined && image !== undefined) items.push(galleryItem(record, image));
  }
  return items;
}

function galleryItem(record: TaskRecord, image: ImageRecord): GalleryItem {
  const { prompt, model, size, quality } = record.request;
  return {
    localId: record.localId,
    taskId: record.taskId,
    index: image.index,
    image,
    prompt,
    ...(model === undefined ? {} : { model }),
    ...(size === undefined ? {} : { size }),
    ...(quality === undefined ? {} : { quality }),
    createdAt: record.createdAt,
  };
}
