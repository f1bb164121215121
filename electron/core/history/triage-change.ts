/**
 * Whether a change of a stored record is triage alone: the one definition the history has
 * (`imagesOnly`), used both to check only what changed (a record whose images' triage alone
 * changed is checked on that triage, not through the whole schema) and to write only what
 * changed (its `triageOnly`: triage-write.ts writes the triage rows, never the record). Triage is an image's rating, flag,
 * star, tags, boards and their time, and the task's star and time of change; every other field
 * must be the stored one's, or equal to it.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { withFavourites } from '../../../shared/domain/favourites';
import { dateMsSchema } from '../../../shared/domain/limits';
import {
  taskImagesSchema,
  type ImageRecord,
  type TaskRecord,
} from '../../../shared/domain/task-record';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { triageFields } from '../../../shared/domain/triage';
import { recordWithCleanTriage } from '../../../shared/domain/triage-edits';

/** An image's triage fields (shared/domain/triage.ts; the star is the pick). */
const IMAGE_TRIAGE_KEYS: ReadonlySet<string> = new Set([
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
const sameTaskButTriage = (stored: TaskRecord, next: TaskRecord): boolean =>
  sameBut(stored, next, TASK_TRIAGE_KEYS) && next.images.length === stored.images.length;

/** Whether the image `next` is `stored` but for its triage. */
const sameImageButTriage = (stored: ImageRecord, next: ImageRecord): boolean =>
  next === stored || sameBut(stored, next, IMAGE_TRIAGE_KEYS);

/** Built on first use (shared/domain/lazy-schema.ts): only a change of triage needs it. */
const triageSchema = lazySchema(() =>
  z.object({ favourite: z.boolean(), ...triageFields() }).strict(),
);

/**
 * Whether the triage of `next` (an image whose other fields are a checked image's:
 * triage-change.ts) is valid, each value as the schema keeps it (its `.catch` turns a bad one
 * into none): then only the triage fields need the schema.
 */
function validTriage(next: ImageRecord): boolean {
  const triage: Record<string, unknown> = {};
  for (const key of IMAGE_TRIAGE_KEYS) {
    const value = next[key as keyof ImageRecord];
    if (value !== undefined) triage[key] = value;
  }
  const parsed = triageSchema().safeParse(triage);
  if (!parsed.success) return false;
  const kept = parsed.data as Record<string, unknown>;
  return Object.keys(triage).every((key) => sameValue(kept[key], triage[key]));
}

/**
 * `next` validated as {@link validate} does, when all that differs from `stored` (a record the
 * schema just read) is its images, its star and its time: only the images go through the
 * schema, and of an image whose triage alone changed, only its triage. `triageOnly`: nothing
 * but triage changed. Null when anything else differs (then the whole record is validated).
 */
export function imagesOnly(
  stored: TaskRecord,
  next: TaskRecord,
): { record: TaskRecord; triageOnly: boolean } | null {
  if (!sameTaskButTriage(stored, next)) return null;
  if (typeof next.favourite !== 'boolean' || !dateMsSchema().safeParse(next.updatedAt).success) {
    return null;
  }
  const triaged = next.images.every((image, n) => {
    const before = stored.images[n];
    return (
      image === before || (!!before && sameImageButTriage(before, image) && validTriage(image))
    );
  });
  const images = triaged
    ? { success: true as const, data: next.images }
    : taskImagesSchema().safeParse(next.images);
  if (!images.success) return null;
  const record = withFavourites(recordWithCleanTriage({ ...next, images: images.data }));
  return { record, triageOnly: triaged };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  return a.length === b.length && a.every((value, n) => value === b[n]);
}
