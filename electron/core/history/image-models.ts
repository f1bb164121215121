/**
 * The models the library's shown images name (the gallery's model filter): one walk of
 * `images_newest` from the newest image, which covers the state and the model. Each read stops at
 * the first image naming a model not found yet and the next one starts after it, so the reads
 * together step every row once and test it against the few models found (2.5 million images in
 * about 0.3 s), where a DISTINCT would put every row through a temporary B-tree (0.63 s).
 *
 * The history worker walks it in slices between keys of the order (the anchors main holds of the
 * gallery's first order, library-reads.ts), a call each, so a call main makes meanwhile (the task
 * list's count, a triage write) waits one slice, not the whole walk.
 */
import { encodeImageCursor, imageAfter, type SqlFilter } from './history-query';
import type { ReadRows } from './gallery-order';
import { VISIBLE_IMAGE } from './visible-image';
import type { AnchorKey } from './position-anchors';

const NAMED = `${VISIBLE_IMAGE} AND i.model IS NOT NULL AND i.model <> ''`;
const NEWEST_FIRST = 'i.created_at DESC, i.local_id DESC, i.idx ASC';

/** SQLite's BINARY order of texts: their UTF-8 bytes compared (as `ORDER BY model` sorted). */
export const binaryOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A slice of the walk: the models found before it, and its keys (null: the order's end). */
export interface ModelSlice {
  readonly found: readonly string[];
  /** The slice starts after this image (null: at the newest). */
  readonly after: AnchorKey | null;
  /** The slice ends with this image (null: at the oldest). */
  readonly upTo: AnchorKey | null;
}

const WHOLE: ModelSlice = { found: [], after: null, upTo: null };

/** Images after `key` in newest-first order. */
const afterKey = ([createdAt, localId, idx]: AnchorKey): SqlFilter =>
  imageAfter(encodeImageCursor({ createdAt, localId, idx }));

/** Images up to `key` and it, in newest-first order (the leading `>=` bounds the index's range). */
const upToKey = ([createdAt, localId, idx]: AnchorKey): SqlFilter => ({
  where:
    'i.created_at >= ? AND (i.created_at > ? OR i.local_id > ? OR (i.local_id = ? AND i.idx <= ?))',
  params: [createdAt, createdAt, localId, localId, idx],
});

/**
 * Models tested by name in one read at most: past them (a library naming hundreds of models, or
 * a crafted one naming a million, beyond the variables a statement may bind) the rest of the
 * slice is read by one DISTINCT, which costs the temporary B-tree but binds nothing per model.
 */
export const MODELS_LISTED_AT_MOST = 200;

/** The models of the rest of a slice not yet `found`, by one DISTINCT. */
function distinctRest(
  read: ReadRows,
  found: readonly string[],
  filters: readonly SqlFilter[],
): string[] {
  const known = new Set(found);
  const where = [NAMED, ...filters.map((filter) => filter.where)].join(' AND ');
  return read(
    `SELECT DISTINCT i.model FROM images i WHERE ${where}`,
    filters.flatMap((filter) => filter.params),
  )
    .map((row) => String(row['model']))
    .filter((model) => !known.has(model));
}

/** The first image in `filters`' range naming a model not `found`, with its key; none at the end. */
function nextNewModel(
  read: ReadRows,
  found: readonly string[],
  filters: readonly SqlFilter[],
): { readonly model: string; readonly key: AnchorKey } | undefined {
  const known = found.length === 0 ? [] : [`i.model NOT IN (${found.map(() => '?').join(', ')})`];
  const where = [NAMED, ...known, ...filters.map((filter) => filter.where)].join(' AND ');
  const row = read(
    `SELECT i.created_at, i.local_id, i.idx, i.model FROM images i
      WHERE ${where} ORDER BY ${NEWEST_FIRST} LIMIT 1`,
    [...found, ...filters.flatMap((filter) => filter.params)],
  )[0];
  if (row === undefined) return undefined;
  const key: AnchorKey = [Number(row['created_at']), String(row['local_id']), Number(row['idx'])];
  return { model: String(row['model']), key };
}

/**
 * The models of the shown images (visible-image.ts) in `slice` not among its `found`, in
 * the order first met (past MODELS_LISTED_AT_MOST, in the DISTINCT's order); the whole library's, each once, in SQLite's text order, without a slice.
 */
export function imageModels(read: ReadRows, slice: ModelSlice = WHOLE): string[] {
  const found = [...slice.found];
  let after = slice.after;
  const bound = slice.upTo ? [upToKey(slice.upTo)] : [];
  const range = () => [...(after ? [afterKey(after)] : []), ...bound];
  for (;;) {
    if (found.length >= MODELS_LISTED_AT_MOST) {
      found.push(...distinctRest(read, found, range()));
      break;
    }
    const next = nextNewModel(read, found, range());
    if (next === undefined) break;
    found.push(next.model);
    after = next.key;
  }
  const added = found.slice(slice.found.length);
  return slice === WHOLE ? added.sort(binaryOrder) : added;
}
