/**
 * How long a task made the user wait, the same everywhere it is shown (a running task's elapsed
 * time, a finished one's "took", the usual duration): from the moment the user asked (the record
 * is created then, before the submit request leaves) to the moment the last image was saved, or
 * the task ended when it saved none. The submit's round trip and the downloads are part of the
 * wait, so they are part of the figure.
 */
import type { TaskRecord } from './task-record';

/** When the wait began: the task was asked for. */
export function waitStartedAt(record: Pick<TaskRecord, 'createdAt'>): number {
  return record.createdAt;
}

/**
 * How long the finished task took (ms), from the ask to its last saved image; null while it is
 * unfinished or an image is still on its way.
 */
export function tookMs(
  record: Pick<TaskRecord, 'createdAt' | 'finishedAt' | 'images'>,
): number | null {
  if (record.finishedAt === null) return null;
  if (record.images.some((image) => image.state === 'pending')) return null;
  let end = record.finishedAt;
  for (const image of record.images)
    if (image.savedAt !== undefined) end = Math.max(end, image.savedAt);
  return Math.max(0, end - waitStartedAt(record));
}
