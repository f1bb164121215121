/** Pure state changes of a task record, kept apart from the scheduling that triggers them. */
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import { messageOf } from '../errors/thrown-value';
import { ServiceError } from '../service/service-error';
import type { LiveState } from '../../../shared/domain/live-state';
import { EngineInputError } from './engine-types';

/** A record found in `submitting` at start: the process ended before the submit was answered. */
export function interruptedSubmit(record: TaskRecord, now: number): TaskRecord {
  if (record.error?.kind === 'rate_limited') {
    // Waiting to retry after a 429: the service had accepted nothing.
    return {
      ...record,
      status: 'submit_failed',
      finishedAt: now,
      error: {
        kind: 'interrupted',
        message:
          'Pictor was closed while waiting to retry this request after the service asked it to slow down. Nothing was created; submit it again when you are ready.',
      },
    };
  }
  return {
    ...record,
    status: 'submit_unknown',
    finishedAt: now,
    error: {
      kind: 'interrupted',
      message:
        'Pictor was closed before the service answered this request, so it cannot tell whether the task was created. It is not sent again on its own: submit it again if no image arrives.',
    },
  };
}

/** The submit ended without a task id. */
export function submitFailure(record: TaskRecord, error: unknown, now: number): TaskRecord {
  if (error instanceof ServiceError && error.refusedAnswer) {
    // The service answered (a task may exist) with an id Pictor would not keep: its own words.
    return { ...record, status: 'submit_unknown', finishedAt: now, error: error.toTaskError() };
  }
  if (error instanceof ServiceError && error.mayHaveReachedService) {
    return {
      ...record,
      status: 'submit_unknown',
      finishedAt: now,
      error: {
        kind: error.kind,
        message:
          'The request may have reached the service, but no task id came back, so Pictor cannot follow it. It is not sent again on its own: submit it again if no image arrives.',
        detail: [error.message, error.detail].filter(Boolean).join(' — '),
        ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      },
    };
  }
  return { ...record, status: 'submit_failed', finishedAt: now, error: toTaskError(error) };
}

export function toTaskError(error: unknown): TaskError {
  if (error instanceof ServiceError) return error.toTaskError();
  if (error instanceof EngineInputError) return { kind: 'config', message: error.message };
  return {
    kind: 'protocol',
    message: 'Something unexpected went wrong in Pictor.',
    detail: messageOf(error),
  };
}

/** Whether a task needs nothing more from this run (used by the CLI to know when to exit). */
export function isSettled(record: TaskRecord, live: LiveState): boolean {
  switch (record.status) {
    case 'submitting':
      return false;
    case 'processing':
      return record.hold !== null;
    case 'completed':
      return live.downloads === 0;
    default:
      return true;
  }
}
