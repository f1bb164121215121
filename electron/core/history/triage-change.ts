/**
 * Whether a change of a stored record is triage alone: the one comparison the history makes
 * twice, to check only what changed (history-records.ts: a record whose images' triage alone
 * changed is checked on that triage, not through the whole schema) and to write only what
 * changed (triage-write.ts: the triage columns and the record, not every row again). Triage is
 * an image's rating, flag, star, tags, boards and their time, and the task's star and time of
 * change; every other field must be the stored one's, or equal to it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';

/** An image's triage fields (shared/domain/triage.ts; the star is the pick). */
export const IMAGE_TRIAGE_KEYS: ReadonlySet<string> = new Set([
  'favourite',
  'rating',
  'flag',
  'tags',
  'boards',
  'triagedAt',
]);
/** A task's fields a change of its images' triage changes with them. */
const TASK_TRIAGE_KEYS: ReadonlySet<string> = new Set(['images', 'favourite', 'updatedAt']);

/** Whether `next` holds `stored`'s value (the same, or equal) for every key outside `own`. */
function sameBut<T extends object>(stored: T, next: T, own: ReadonlySet<string>): boolean {
  // Two passes, not a set of both objects' keys: this runs for every task and image of a
  // triage change (thousands), and a key only one side has is equal only when it is undefined.
  for (const key of Object.keys(stored)) {
    if (own.has(key)) continue;
    const [a, b] = [stored[key as keyof T], next[key as keyof T]];
    if (a !== b && !isDeepStrictEqual(a, b)) return false;
  }
  for (const key of Object.keys(next)) {
    if (own.has(key) || Object.hasOwn(stored, key)) continue;
    if (next[key as keyof T] !== undefined) return false;
  }
  return true;
}

/** Whether `next` is `stored` but for its images, its star and its time. */
export const sameTaskButTriage = (stored: TaskRecord, next: TaskRecord): boolean =>
  sameBut(stored, next, TASK_TRIAGE_KEYS) && next.images.length === stored.images.length;

/** Whether the image `next` is `stored` but for its triage. */
export const sameImageButTriage = (stored: ImageRecord, next: ImageRecord): boolean =>
  next === stored || sameBut(stored, next, IMAGE_TRIAGE_KEYS);

/** Whether `next` is `stored` with triage alone changed (see the file's comment). */
export function onlyTriageChanged(stored: TaskRecord, next: TaskRecord): boolean {
  return (
    sameTaskButTriage(stored, next) &&
    next.images.every((image, n) => {
      const before = stored.images[n];
      return before !== undefined && sameImageButTriage(before, image);
    })
  );
}
