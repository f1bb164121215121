/**
 * Which of the actions a person can take on a task apply to it, for a task's own buttons and for
 * a selection's (the page enables them; main checks again and skips what does not apply).
 */
import { PROVIDERS, providerOf } from './providers';
import type { ImageRecord, TaskRecord } from './task-record';

/**
 * An image "Retry" can still save: its link expired before it was saved, or its download failed
 * and waits to be tried again. Not an `invalid` one: its bytes were refused as no usable image,
 * and the same link gives the same bytes (the engine's retry leaves it as it is).
 */
export function retriesImage(image: Pick<ImageRecord, 'state' | 'error'>): boolean {
  return image.state === 'expired' || (image.state === 'pending' && image.error !== undefined);
}

/**
 * "Retry": a held task resumes, a completed one with images Retry can still save tries them. A
 * task waiting for the key of the account that created it is not offered Resume: with no such
 * key a resume is held again at once (nothing the user sees), and adding that key in Settings
 * resumes it by itself (TaskEngine.keyChanged); its row says so.
 */
export function canRetry(record: TaskRecord): boolean {
  if (record.status === 'processing') return record.hold !== null && record.hold !== 'awaiting_key';
  return record.status === 'completed' && record.images.some(retriesImage);
}

/** "Submit again" (as a new task): nothing was created, or the service's task failed. */
export function canSubmitAgain(record: TaskRecord): boolean {
  return (
    record.status === 'submit_failed' ||
    record.status === 'submit_unknown' ||
    record.status === 'failed'
  );
}

/**
 * "Cancel on the service": the task is on the service (it has the service's id) and has not
 * ended there as far as Pictor knows. Whether its service can cancel is {@link serviceCancels}.
 */
export function canCancel(record: TaskRecord): boolean {
  return record.status === 'processing' && record.taskId !== null;
}

/** The task's service documents a cancel request (fal, Replicate, DashScope). */
export function serviceCancels(record: Pick<TaskRecord, 'provider'>): boolean {
  return PROVIDERS[providerOf(record)].canCancel;
}

/**
 * The user asked the service to cancel the task and it has not ended yet: the service took the
 * request and stops it in its own time (fal's running requests, for one).
 */
export function isStopping(record: TaskRecord): boolean {
  return record.status === 'processing' && record.canceledByUserAt !== undefined;
}
