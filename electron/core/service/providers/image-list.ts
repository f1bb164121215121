/**
 * The one reader of the images a task answer lists, for every profile. Services name their
 * images in a plural form or a singular one, as their models' output schemas say: fal's
 * `images[]` or `image` (its upscalers), Replicate's `output` as a list or one string, DashScope's
 * `output.results[]`, BFL's `result.sample`, today's contract's `output.data[]`. Each is read the
 * same way here, into `output.data` entries (shared/service/wire.ts), so a model whose answer is
 * a single image is saved like one whose answer is a list.
 *
 * What cannot be used is said, never dropped: a value that is there but is neither a link nor an
 * object with one becomes an entry without an address (the image reads "listed without an
 * address"); only an absent value (`undefined` or `null`) lists no image.
 */
import { objectOf } from './provider-profile';

/** One image as `output.data` has it. */
export type ImageEntry = { url?: string } & Record<string, unknown>;

/** How one listed object becomes an entry: by default its `url`, when that is a string. */
export type EntryReader = (entry: Record<string, unknown>) => ImageEntry;

const urlOnly: EntryReader = (entry) => {
  const url = entry['url'];
  return typeof url === 'string' ? { url } : {};
};

function entryOf(value: unknown, read: EntryReader): ImageEntry {
  if (typeof value === 'string') return { url: value };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return read(objectOf(value));
  }
  return {};
}

/**
 * The images `value` lists: a list of links or of objects with a `url`, or one link, or one such
 * object. Absent (`undefined`, `null`): none.
 */
export function imageList(value: unknown, read: EntryReader = urlOnly): ImageEntry[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((entry) => entryOf(entry, read));
  return [entryOf(value, read)];
}

/**
 * The images of `answer` under the first of `fields` it has (the plural form first, then the
 * singular: fal's `images`, then `image`), as `output.data`.
 */
export function imagesIn(
  answer: Record<string, unknown>,
  fields: readonly string[],
  read: EntryReader = urlOnly,
): { data: ImageEntry[] } {
  const field = fields.find((name) => answer[name] !== undefined && answer[name] !== null);
  return { data: field === undefined ? [] : imageList(answer[field], read) };
}
