/**
 * A stored task's request as it ran: with the seed the service says it used, when it says one.
 * "Use this seed" puts it in the form (renderer/store/seed-slice.ts); "Copy as command" of a task
 * builds its lines from it in main (electron/ipc/task-command-handlers.ts).
 */
import type { GenerationRequest } from '../service/wire';
import type { TaskRecord } from './task-record';

export function ranRequest(record: Pick<TaskRecord, 'request' | 'seed'>): GenerationRequest {
  const seed = record.seed ?? record.request.seed;
  return { ...record.request, ...(seed === undefined ? {} : { seed }) };
}
