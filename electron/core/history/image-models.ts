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
import type { AnchorKey } from './position-anchors';

const NAMED = "i.state <> 'deleted' AND i.model IS NOT NULL AND i.model <> ''";
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
 * The models of the shown images (every state but deleted) in `slice` not among its `found`, in
 * the order first met; the whole library's, each once, in SQLite's text order, without a slice.
 */
export function imageModels(read: ReadRows, slice: ModelSlice = WHOLE): string[] {
  const found = [...slice.found];
  let after = slice.after;
  const bound = slice.upTo ? [upToKey(slice.upTo)] : [];
  for (;;) {
    const known = found.length === 0 ? [] : [`i.model NOT IN (${found.map(() => '?').join(', ')})`];
    const filters = [...(after ? [afterKey(after)] : []), ...bound];
    const where = [NAMED, ...known, ...filters.map((filter) => filter.where)].join(' AND ');
    const row = read(
      `SELECT i.created_at, i.local_id, i.idx, i.model FROM images i
        WHERE ${where} ORDER BY ${NEWEST_FIRST} LIMIT 1`,
      [...found, ...filters.flatMap((filter) => filter.params)],
    )[0];
    if (row === undefined) {
      const added = found.slice(slice.found.length);
      return slice === WHOLE ? added.sort(binaryOrder) : added;
    }
    found.push(String(row['model']));
    after = [Number(row['created_at']), String(row['local_id']), Number(row['idx'])];
  }
}
