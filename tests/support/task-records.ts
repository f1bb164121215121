/**
 * The task record tests build, over the product's own `newTaskRecord`: a field the record gains
 * gets the product's starting value here, instead of being spelled again in every test's builder.
 */
import { newTaskRecord, type TaskRecord } from '../../shared/domain/task-record';

/** When a record is created unless its builder says otherwise. */
export const RECORD_CREATED = Date.UTC(2025, 0, 1, 9, 0, 0);

/**
 * A task the service finished: created, submitted and watched at `at`, polled once, done a second
 * later, no images, no folder yet. `overrides` replace whole fields and nothing is derived from
 * them (a test that overrides `createdAt` changes that date alone), except that the task id
 * defaults to `task-<localId>`.
 */
export function makeTaskRecord(
  overrides: Partial<TaskRecord> = {},
  at: number = RECORD_CREATED,
): TaskRecord {
  const localId = overrides.localId ?? 'local-1';
  const created = newTaskRecord(
    {
      localId,
      taskId: `task-${localId}`,
      origin: 'submitted',
      endpoint: 'https://api.example.com',
      account: 'acct1234',
      request: { prompt: 'A lighthouse at dusk' },
    },
    at,
  );
  return {
    ...created,
    status: 'completed',
    submittedAt: at,
    watchStartedAt: at,
    polls: 1,
    lastPolledAt: at + 1000,
    finishedAt: at + 1000,
    ...overrides,
  };
}
