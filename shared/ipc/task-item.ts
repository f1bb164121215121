/** A task as the page gets it: its record and, while the engine works on it, its live state. */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { galleryItemSchema } from '../domain/gallery-item';
import { MAX_LOCAL_ID_CHARS } from '../domain/limits';
import { liveStateSchema } from '../domain/live-state';
import { taskRecordSchema } from '../domain/task-record';

export const taskItemSchema = lazySchema(() =>
  z.object({
    record: taskRecordSchema(),
    live: liveStateSchema().nullable(),
  }),
);
export type TaskItem = z.infer<ReturnType<typeof taskItemSchema>>;

/** A task's local id as the page names it. */
export const localIdSchema = lazySchema(() => z.string().min(1).max(MAX_LOCAL_ID_CHARS));

/**
 * A page of `gallery:list`: its images in order, and the records of their tasks, one each (the
 * page's records table takes them; the gallery holds only the images' ids).
 */
export const galleryPageSchema = lazySchema(() =>
  z.object({
    items: z.array(galleryItemSchema()),
    nextCursor: z.string().nullable(),
    records: z.array(taskItemSchema()).max(500),
  }),
);
