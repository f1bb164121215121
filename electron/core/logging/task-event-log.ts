/**
 * Task events for the log: one line each time a task's status, hold or image states change,
 * with what a bug report needs (ids, status, error kind and sentence, image counts) and not
 * the prompt, which is the user's own text and does not help diagnose anything.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { Logger } from '../../ports/logger';

/** Tasks remembered for change detection; old ones are forgotten first. */
const MAX_REMEMBERED = 5_000;

const FAILED_STATUSES = new Set(['failed', 'submit_failed', 'submit_unknown', 'not_found']);

function imageCounts(record: TaskRecord): string {
  const counts = new Map<string, number>();
  for (const image of record.images) counts.set(image.state, (counts.get(image.state) ?? 0) + 1);
  return [...counts.entries()].map(([state, count]) => `${state}=${count}`).join(' ');
}

function signature(record: TaskRecord): string {
  return `${record.status}|${record.hold ?? ''}|${imageCounts(record)}|${record.error?.kind ?? ''}`;
}

/** Where the task lives, without anything but scheme, host and port. */
function endpointOrigin(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return 'unknown';
  }
}

/**
 * Returns a function to call with every task update (the engine's `subscribe`); it logs the
 * updates that change something: warn for a task that ended badly, info otherwise.
 */
export function createTaskEventLog(logger: Logger): (record: TaskRecord) => void {
  const seen = new Map<string, string>();
  return (record) => {
    const now = signature(record);
    if (seen.get(record.localId) === now) return;
    seen.delete(record.localId);
    seen.set(record.localId, now);
    if (seen.size > MAX_REMEMBERED) {
      const oldest = seen.keys().next().value;
      if (oldest !== undefined) seen.delete(oldest);
    }
    const failed = FAILED_STATUSES.has(record.status);
    const level = failed || record.error ? 'warn' : 'info';
    logger[level](`Task ${record.status}${record.hold ? ` (held: ${record.hold})` : ''}`, {
      localId: record.localId,
      taskId: record.taskId,
      origin: record.origin,
      endpoint: endpointOrigin(record.endpoint),
      model: record.request.model,
      polls: record.polls,
      images: imageCounts(record) || undefined,
      errorKind: record.error?.kind,
      error: record.error?.message,
      detail: record.error?.detail,
      httpStatus: record.error?.httpStatus,
    });
  };
}
