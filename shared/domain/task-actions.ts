/**
 * Which of the actions a person can take on a task apply to it, for a task's own buttons and for
 * a selection's (the page enables them; main checks again and skips what does not apply).
 */
import type { TaskRecord } from './task-record';

/** "Retry": a held task resumes, a completed one whose images failed tries them again. */
export function canRetry(record: TaskRecord): boolean {
  if (record.status === 'processing') return record.hold !== null;
  return (
    record.status === 'completed' &&
    record.images.some((image) => image.state === 'expired' || image.state === 'invalid')
  );
}

/** "Submit again" (as a new task): nothing was created, or the service's task failed. */
export function canSubmitAgain(record: TaskRecord): boolean {
  return (
    record.status === 'submit_failed' ||
    record.status === 'submit_unknown' ||
    record.status === 'failed'
  );
}
