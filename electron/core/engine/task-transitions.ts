/** Pure state changes of a task record, kept apart from the scheduling that triggers them. */
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { messageOf } from '../errors';
import { ServiceError } from '../service';
import type { LiveState } from '../../../shared/domain/live-state';
import type { ServiceTask } from '../../../shared/service/wire';
import { EngineInputError, InlineNotKeptError } from './engine-types';

/**
 * A record found in `submitting` at start, whose request may have left (send-mark.ts: marked
 * `sent`, or written by an earlier version, which kept no mark): the process ended before the
 * submit was answered. Never sent again.
 */
export function interruptedSubmit(record: TaskRecord, now: number): TaskRecord {
  if (record.error?.kind === 'rate_limited') {
    // Waiting to retry after a 429 (an earlier version's record: this one marks such a task
    // `queued` and sends it): the service had accepted nothing.
    return {
      ...record,
      status: 'submit_failed',
      finishedAt: now,
      error: saying('interrupted', sentence('error.library.interruptedRateLimited')),
    };
  }
  return {
    ...record,
    status: 'submit_unknown',
    finishedAt: now,
    error: saying('interrupted', sentence('error.library.interruptedSubmit')),
  };
}

/**
 * A task of a batch whose first request the service did not take: never sent. It carries the
 * first's kind of trouble (a refused key is still the account's), in its own sentence.
 */
export function batchNotSent(
  record: TaskRecord,
  first: TaskRecord | undefined,
  now: number,
): TaskRecord {
  return {
    ...record,
    status: 'submit_failed',
    finishedAt: now,
    error: saying(first?.error?.kind ?? 'config', sentence('error.library.batchNotSent')),
  };
}

/**
 * A task the user removed before its request left (a 429 had sent it back to the queue): never
 * sent now. `stamped` carries the time of this write.
 */
export function removedBeforeSent(record: TaskRecord, stamped: TaskRecord): TaskRecord {
  const { sendState: _queued, ...rest } = record;
  return {
    ...rest,
    updatedAt: stamped.updatedAt,
    status: 'submit_failed',
    finishedAt: stamped.updatedAt,
    error: saying('canceled', sentence('error.library.removedBeforeSent')),
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
        ...saying(error.kind, sentence('error.library.submitMayHaveReached')),
        detail: [error.message, error.detail].filter(Boolean).join(' — '),
        ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
      },
    };
  }
  return { ...record, status: 'submit_failed', finishedAt: now, error: toTaskError(error) };
}

export function toTaskError(error: unknown): TaskError {
  if (error instanceof ServiceError) return error.toTaskError();
  if (error instanceof InlineNotKeptError && error.sentence) {
    const said = saying('interrupted', error.sentence);
    return error.detail === undefined ? said : { ...said, detail: error.detail };
  }
  if (error instanceof EngineInputError) {
    return error.sentence
      ? saying('config', error.sentence)
      : { kind: 'config', message: error.message };
  }
  return {
    ...saying('protocol', sentence('error.library.unexpectedTaskError')),
    detail: messageOf(error),
  };
}

/** A task error whose message is `said` (its English text, and the sentence for the window). */
export function saying(kind: TaskError['kind'], said: Sentence): TaskError {
  return { kind, message: englishText(said), sentence: said };
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

/** Whether a task left by another process needs a process to work on it. */
export function needsWork(record: TaskRecord): boolean {
  if (record.status === 'submitting') return true;
  if (record.status === 'processing') return record.hold === null;
  if (record.status === 'completed')
    return record.images.some((image) => image.state === 'pending');
  return false;
}

/** The record of a task its service ended without results: failed, moderated or canceled. */
export function endedByService(
  record: TaskRecord,
  task: Extract<ServiceTask, { status: 'failed' }>,
  now: number,
): TaskRecord {
  // The service's own words stay text; Pictor's sentence for a failure it did not explain
  // (shared/service/wire.ts) goes with them.
  const { sentence: said } = task as { readonly sentence?: Sentence };
  const error: TaskError = {
    kind:
      task.outcome === 'moderated' || task.outcome === 'canceled' ? task.outcome : 'task_failed',
    message: task.message,
    ...(said === undefined ? {} : { sentence: said }),
  };
  return { ...record, status: 'failed', finishedAt: now, error };
}
