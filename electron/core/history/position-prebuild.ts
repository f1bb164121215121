/**
 * The gallery's anchors of positions (position-anchors.ts) walked by the history worker before
 * any jump needs them, so a drag of the scrollbar far down a library of millions of images seeks
 * to its place instead of walking main's index up to it (0.3 s of main's loop to the middle of
 * 2.5 million images). The worker walks an order in chunks of {@link PREBUILD_CHUNK} anchors
 * (some tens of ms each at that size), so the calls main makes meanwhile (the count, a triage
 * write) wait one chunk at most; main takes each chunk in while nothing was committed since it
 * asked ({@link PositionAnchors.adopt}), and stops when something was, or when the gallery moved
 * to another order: a later build (the gallery's next first page) starts again from what holds.
 */
import type { GallerySort } from '../../../shared/domain/gallery-item';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { anchorsId } from './gallery-order';
import type { HistoryPort } from './history-port';
import type { ImageQuery } from './history-query';
import type { PositionAnchors } from './position-anchors';
import type { WholeImageQuery } from './whole-set';

/** Anchors per call to the worker: 262,144 rows of its index, a tenth of 2.5 million images. */
const PREBUILD_CHUNK = 64;

/** The gallery's query as it first opens: no filter, the shown states, newest first. */
export const GALLERY_FIRST_ORDER: ImageQuery = { states: [...VISIBLE_STATES] };

/** The orders a page by position walks with anchors. */
const anchoredSort = (sort: GallerySort | undefined): sort is 'newest' | 'oldest' =>
  sort === undefined || sort === 'newest' || sort === 'oldest';

/** What a page by position filters on: the cursor, offset, limit and order are the page's own. */
function filtersOf(query: ImageQuery): ImageQuery {
  const { cursor: _cursor, offset: _offset, limit: _limit, sort: _sort, ...filters } = query;
  return filters;
}

/** An order to walk: the images a query lists, newest or oldest first. */
export interface AnchoredOrder {
  readonly query: ImageQuery;
  readonly sort: 'newest' | 'oldest';
}

/**
 * Has the worker behind `port` walk the `order`'s images to the end and main's `anchors`
 * take them in, `chunk` anchors a call. Resolves true when main holds every anchor of the order,
 * false when the library or the order changed on the way or the worker failed; never rejects.
 */
export async function prebuildAnchors(
  anchors: PositionAnchors,
  port: Pick<HistoryPort, 'call'>,
  { query, sort }: AnchoredOrder,
  chunk = PREBUILD_CHUNK,
): Promise<boolean> {
  const filters = filtersOf(query);
  try {
    let held = anchors.hold(anchorsId(filters, sort));
    while (!held.ended) {
      const walk = { query: filters, sort, after: held.last, count: chunk };
      const next = anchors.adopt(held, await port.call('positionAnchors', walk));
      if (next === null) return false;
      held = next;
    }
    return true;
  } catch {
    // A closed store or an ended worker: the pages walk on main as they would without.
    return false;
  }
}

/**
 * {@link prebuildAnchors} for the gallery's filters as its pages are read: one build at a time
 * per order (a second ask while one runs joins it), none for a search (its few matches are read
 * and sorted; its many are tested row by row, which a walk of every image would pay too).
 */
export class PositionPrebuild {
  private running: { readonly id: string; readonly done: Promise<boolean> } | null = null;

  constructor(
    private readonly anchors: PositionAnchors,
    private readonly port: Pick<HistoryPort, 'call'>,
  ) {}

  /**
   * How many images `query`'s filters match: told by the anchors of their order (either way) when
   * main holds them all, after the build of that order under way if one is; else `read` (a walk
   * of the library). A search is never walked, nor a query narrowed to some tasks.
   */
  count(query: WholeImageQuery, read: () => Promise<number>): Promise<number> {
    if (query.search?.trim() || query.among) return read();
    const ids = (['newest', 'oldest'] as const).map((sort) => anchorsId(filtersOf(query), sort));
    const walked = () => {
      for (const id of ids) {
        const total = this.anchors.total(id);
        if (total !== null) return total;
      }
      return null;
    };
    const running = this.running;
    if (running && ids.includes(running.id)) {
      return running.done.then(() => walked() ?? read());
    }
    const total = walked();
    return total === null ? read() : Promise.resolve(total);
  }

  /** Builds the anchors of `query`'s order unless a search or another order; see above. */
  build(query: ImageQuery): Promise<boolean> {
    const sort = query.sort;
    if (query.search?.trim() || !anchoredSort(sort)) return Promise.resolve(false);
    const id = anchorsId(filtersOf(query), sort ?? 'newest');
    if (this.running?.id === id) return this.running.done;
    const done = prebuildAnchors(this.anchors, this.port, { query, sort: sort ?? 'newest' });
    const running = { id, done };
    this.running = running;
    void done.finally(() => {
      if (this.running === running) this.running = null;
    });
    return done;
  }
}
