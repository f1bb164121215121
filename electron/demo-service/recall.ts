/**
 * The built-in demo's tasks outlive the process that ran it. The demo keeps its tasks in memory
 * and starts on a new port each time (the app at every launch, the CLI for each command), while
 * Pictor's history keeps every task it sent there under the endpoint `demo:`. Without this, a task
 * still running when the app quit or a `pictor generate --provider demo` was interrupted would be
 * polled on the next run and answered "no such task". With it, the next run's demo makes that
 * task again from the history's record, created when it first was: it finishes when it would have
 * and is downloaded like any other.
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { DEMO_ENDPOINT } from '../core/service';
import type { DemoRecall } from './types';

/** What the recall reads of the history: a record by its service and the service's task id. */
export interface RecallHistory {
  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined;
}

/**
 * A recall over Pictor's history (`null` while it is not open yet): the tasks Pictor itself
 * submitted to the demo at `endpoint` (`demo:` for today's contract, `demo:fal` for the demo
 * speaking fal's dialect, …: one dialect's tasks are never made again by another). A record from
 * a gallery folder or an archive (`imported`) is never made again: anyone could have written it.
 */
export function recallFromHistory(
  history: () => RecallHistory | null,
  endpoint: string = DEMO_ENDPOINT,
): DemoRecall {
  return (taskId) => {
    const record = history()?.getByTaskId(endpoint, taskId);
    if (record === undefined || record.imported === true || record.origin !== 'submitted') {
      return undefined;
    }
    const { prompt, model, size, quality } = record.request;
    return {
      prompt,
      ...(model === undefined ? {} : { model }),
      ...(size === undefined ? {} : { size }),
      ...(quality === undefined ? {} : { quality }),
      createdAt: record.submittedAt ?? record.createdAt,
    };
  };
}
