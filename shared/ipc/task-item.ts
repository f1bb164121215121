/** A task as the page gets it: its record and, while the engine works on it, its live state. */
import { z } from 'zod';
import { MAX_LOCAL_ID_CHARS } from '../domain/limits';
import { liveStateSchema } from '../domain/live-state';
import { taskRecordSchema } from '../domain/task-record';

export const taskItemSchema = z.object({
  record: taskRecordSchema,
  live: liveStateSchema.nullable(),
});
export type TaskItem = z.infer<typeof taskItemSchema>;

/** A task's local id as the page names it. */
export const localIdSchema = z.string().min(1).max(MAX_LOCAL_ID_CHARS);
