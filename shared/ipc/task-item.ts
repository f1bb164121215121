/** A task as the page gets it: its record, and the engine's live state while it works on it. */
import { z } from 'zod';
import { liveStateSchema } from '../domain/live-state';
import { taskRecordSchema } from '../domain/task-record';

export const taskItemSchema = z.object({
  record: taskRecordSchema,
  live: liveStateSchema.nullable(),
});
export type TaskItem = z.infer<typeof taskItemSchema>;
