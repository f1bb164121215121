/**
 * The libraries the tests of the gallery's pages by position walk (position-anchors.test.ts,
 * position-prebuild.test.ts): tasks whose dates collide, of 1–3 images, some deleted, two models;
 * every page checked against a sort of every image in JavaScript.
 */
import { VISIBLE_STATES, type TaskRecord } from '../../../shared/domain/task-record';
import type { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageQuery } from '../../../electron/core/history/history-query';
import type { PositionAnchors } from '../../../electron/core/history/position-anchors';
import { makeImage, makeRecord } from '../../unit/core/history/history-fixtures';

/** Dates that collide (three tasks a second), 1–3 images, some deleted, two models. */
export function record(n: number, base = 1_000_000): TaskRecord {
  return makeRecord({
    localId: `local-${String((n * 7919) % 100_003).padStart(6, '0')}`,
    createdAt: base + Math.floor(n / 3) * 1_000,
    request: { prompt: `prompt ${n}`, model: n % 2 === 0 ? 'model-a' : 'model-b' },
    images: Array.from({ length: 1 + (n % 3) }, (_, index) =>
      makeImage(index, n % 13 === 0 && index === 0 ? { state: 'deleted' as const } : {}),
    ),
  });
}

/** Every shown image of `records` in the order, by brute force. */
export function expected(
  records: readonly TaskRecord[],
  query: ImageQuery,
  sort: 'newest' | 'oldest',
): string[] {
  const rows = records.flatMap((r) =>
    r.images
      .filter((image) => image.state !== 'deleted')
      .filter(() => query.model === undefined || r.request.model === query.model)
      .map((image) => ({ r, idx: image.index })),
  );
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  rows.sort((a, b) => {
    const newest =
      b.r.createdAt - a.r.createdAt || -compare(a.r.localId, b.r.localId) || a.idx - b.idx;
    return sort === 'oldest' ? -newest : newest;
  });
  return rows.map(({ r, idx }) => `${r.localId}/${idx}`);
}

/** The store's anchors of positions (main's, in the app). */
export const anchorsOf = (store: HistoryStore): PositionAnchors => store.positions;

/** The page of 60 (or `limit`) images at `offset`, as `localId/index`. */
export function pageAt(
  store: HistoryStore,
  query: ImageQuery,
  sort: 'newest' | 'oldest',
  offset: number,
  limit = 60,
): string[] {
  const page = store.listImages({ ...query, sort, states: [...VISIBLE_STATES], offset, limit });
  return page.items.map((item) => `${item.localId}/${item.index}`);
}
