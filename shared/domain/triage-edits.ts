/**
 * Triage changes to one image, as pure functions over its record (shared/domain/triage.ts): the
 * core applies them to many images in one write (electron/core/triage/), and the same functions
 * undo them. Each returns the same object when nothing changes, so a batch knows which tasks it
 * must write. A flag change keeps the image's star equal to its pick (favourites.ts).
 */
import type { ImageRecord, TaskRecord } from './task-record';
import {
  boardKey,
  cleanBoards,
  cleanTags,
  flagOf,
  foldName,
  type ImageTriage,
  MAX_RATING,
  type TriageFlag,
} from './triage';

/** The image rated 0–5 (0 clears the rating), stamped `at` when it changed. */
export function withRating<T extends ImageTriage>(image: T, rating: number, at: number): T {
  if (!Number.isInteger(rating) || rating < 0 || rating > MAX_RATING) {
    throw new RangeError(`rating ${String(rating)} is not 0–${String(MAX_RATING)}`);
  }
  if ((image.rating ?? 0) === rating) return image;
  const { rating: _old, ...rest } = image;
  return (rating === 0 ? { ...rest, triagedAt: at } : { ...rest, rating, triagedAt: at }) as T;
}

/** The image flagged (pick, reject or none): a pick is its star (favourites.ts). */
export function withFlag<T extends ImageTriage>(image: T, flag: TriageFlag, at: number): T {
  if (flagOf(image) === flag && image.flag !== 'pick') return image;
  const { flag: _old, ...rest } = image;
  if (flag === 'reject') return { ...rest, flag, favourite: false, triagedAt: at } as T;
  return { ...rest, favourite: flag === 'pick', triagedAt: at } as T;
}

type ListField = 'tags' | 'boards';
const KEY_OF: Record<ListField, (entry: string) => string> = { tags: foldName, boards: boardKey };

/** The image with `entry` (checked) in its list, unless one of the same key is there already. */
function withEntry<T extends ImageTriage>(image: T, field: ListField, entry: string): T {
  const list = image[field] ?? [];
  const key = KEY_OF[field](entry);
  if (list.some((own) => KEY_OF[field](own) === key)) return image;
  return { ...image, [field]: [...list, entry] };
}

/** The image without the entry of its list whose key is `key` (the field gone once empty). */
function withoutEntry<T extends ImageTriage>(image: T, field: ListField, key: string): T {
  const list = image[field] ?? [];
  const kept = list.filter((own) => KEY_OF[field](own) !== key);
  if (kept.length === list.length) return image;
  const { tags, boards, ...rest } = image;
  const lists = { tags, boards, [field]: kept.length === 0 ? undefined : kept };
  return {
    ...rest,
    ...(lists.tags ? { tags: lists.tags } : {}),
    ...(lists.boards ? { boards: lists.boards } : {}),
  } as T;
}

/** The image with `tag` (checked) added, unless it has it already in any case. */
export const withTag = <T extends ImageTriage>(image: T, tag: string) =>
  withEntry(image, 'tags', tag);
/** The image without the tag whose folded form is `key`. */
export const withoutTag = <T extends ImageTriage>(image: T, key: string) =>
  withoutEntry(image, 'tags', key);
/** The image in the board at `path` (checked) too. */
export const withBoard = <T extends ImageTriage>(image: T, path: string) =>
  withEntry(image, 'boards', path);
/** The image out of the board whose key is `key`. */
export const withoutBoard = <T extends ImageTriage>(image: T, key: string) =>
  withoutEntry(image, 'boards', key);

/**
 * The image's tags and boards as a record stores them: each checked, repeats dropped, within the
 * per-image limits; the same object when they already are.
 */
function withCleanTriage(image: ImageRecord): ImageRecord {
  let next = image;
  if (image.tags !== undefined) {
    const { tags } = cleanTags(image.tags);
    if (tags.length === 0 || !sameList(tags, image.tags)) {
      const { tags: _old, ...rest } = next;
      next = tags.length === 0 ? rest : { ...rest, tags };
    }
  }
  if (image.boards !== undefined) {
    const { boards } = cleanBoards(image.boards);
    if (boards.length === 0 || !sameList(boards, image.boards)) {
      const { boards: _old, ...rest } = next;
      next = boards.length === 0 ? rest : { ...rest, boards };
    }
  }
  return next;
}

/** Every image of the record with clean triage ({@link withCleanTriage}). */
export function recordWithCleanTriage(record: TaskRecord): TaskRecord {
  const images = record.images.map(withCleanTriage);
  return images.some((image, n) => image !== record.images[n]) ? { ...record, images } : record;
}

/**
 * The image's triage merged with `incoming`'s (the same image in an imported archive): the
 * newer rating and flag win (by `triagedAt`; a tie keeps the library's), tags and boards are
 * unioned (matched case-insensitively, the library's first), within the per-image limits. The
 * same object when nothing changes.
 */
export function withMergedTriage(image: ImageRecord, incoming: ImageRecord): ImageRecord {
  const newer = (incoming.triagedAt ?? -1) > (image.triagedAt ?? -1);
  const base = newer
    ? withTriageOf(image, { ...incoming, tags: image.tags, boards: image.boards })
    : image;
  const union = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
    a === undefined && b === undefined ? undefined : [...(a ?? []), ...(b ?? [])];
  const tags = union(image.tags, incoming.tags);
  const boards = union(image.boards, incoming.boards);
  const merged = withCleanTriage({
    ...base,
    ...(tags === undefined ? {} : { tags }),
    ...(boards === undefined ? {} : { boards }),
  });
  return TRIAGE_KEYS.every((key) => sameValue(merged[key], image[key])) ? image : merged;
}

/** The triage fields the user edits (the star is the pick). */
const TRIAGE_KEYS = ['favourite', 'rating', 'flag', 'tags', 'boards', 'triagedAt'] as const;

/**
 * `image` with the triage of `theirs` (the same image as another process wrote it: the user's
 * edits there win over the engine's copy); the same object when they already agree.
 */
export function withTriageOf<T extends ImageTriage>(image: T, theirs: ImageTriage): T {
  const same = TRIAGE_KEYS.every((key) => sameValue(image[key], theirs[key]));
  if (same) return image;
  const {
    favourite: _f,
    rating: _r,
    flag: _g,
    tags: _t,
    boards: _b,
    triagedAt: _a,
    ...rest
  } = image;
  const { favourite, rating, flag, tags, boards, triagedAt } = theirs;
  return {
    ...rest,
    favourite,
    ...(rating === undefined ? {} : { rating }),
    ...(flag === undefined ? {} : { flag }),
    ...(tags === undefined ? {} : { tags }),
    ...(boards === undefined ? {} : { boards }),
    ...(triagedAt === undefined ? {} : { triagedAt }),
  } as T;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return sameList(a as string[], b as string[]);
  return a === b;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, n) => value === b[n]);
}
