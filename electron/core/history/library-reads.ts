/**
 * The reads that walk the whole library. The task list's: how many tasks match a filter and the
 * tasks "Select all" names (about 80 ms at a million tasks). The gallery's: how many match a filter (the
 * scrollbar's length, "Select all"'s total), which models the images name (the filter's
 * choices), the images "Select all" names (up to its cap) and the anchors of positions of the order it shows (position-prebuild.ts). At 2.5
 * million images the first two take about 0.2 s and 0.3 s of SQLite (image-models.ts) and the walk
 * of an order about as much as the count (it steps every row of the index), so they run in the history
 * worker (history-port.ts): main's loop, which holds the key and runs every poll, never waits on
 * them. A one-command host (the CLI, `inThread`) runs them on its own thread. A count or the
 * models asked again while the library is unchanged is answered by the first ask (sameLibrary).
 * The count of an order main holds every anchor of (the gallery's first order is walked as the
 * app starts) is that walk's own: its anchors and the rows after the last, no second walk.
 */
import type { HistoryPort } from './history-port';
import type { ImageQuery } from './history-query';
import type { AnchorKey, PositionAnchors } from './position-anchors';
import { anchorsId } from './gallery-order';
import { binaryOrder } from './image-models';
import { KEPT_ID_SLICE, type KeptIdMark, type KeptIdSlice, type KeptIdWalk } from './kept-key-ids';
import { GALLERY_FIRST_ORDER, PositionPrebuild } from './position-prebuild';
import type { ImageKey, WholeImageQuery, WholeTaskQuery } from './whole-set';

export interface LibraryReads {
  /** How many tasks match the query (every page of the task list together). */
  taskCount(query: WholeTaskQuery): Promise<number>;
  /**
   * How many tasks a newer Pictor wrote (a status or a service this version does not know): not
   * shown, never written over; the user is told they are there.
   */
  newerTasks(): Promise<number>;
  /** The first `limit` tasks that match, newest first, and how many match in all. */
  taskSelection(
    query: WholeTaskQuery,
    limit: number,
  ): Promise<{ localIds: string[]; total: number }>;
  /** How many images match the query (every page of it together). */
  count(query: WholeImageQuery): Promise<number>;
  /** The models the library's shown images name, in order. */
  models(): Promise<string[]>;
  /** The first `limit` images that match, in the gallery's order, and how many match in all (one call, read one after the other). */
  selection(query: WholeImageQuery, limit: number): Promise<{ images: ImageKey[]; total: number }>;
  /**
   * Has the worker walk the order of a gallery page's query (its filters and sort) to the end,
   * main's pages by position taking its anchors in: true once main holds them all.
   */
  positions(query: ImageQuery): Promise<boolean>;
  /**
   * The tasks kept under an id that carries any of `keys` (kept-key-ids.ts; the ledger's rows of
   * removed tasks the worker cleans itself): with a `since` mark the change log still names, the
   * tasks written after it; else every id. A slice a call, until `stopped` says to stop (a quit:
   * the tasks found so far, and no mark).
   */
  keptKeyIds(keys: readonly string[], options?: KeptIdSweepOptions): Promise<KeptIdsFound>;
}

export interface KeptIdSweepOptions {
  /** Where a sweep with the same keys began (kept-key-sweep.ts); absent: walk every id. */
  readonly since?: KeptIdMark | null;
  readonly stopped?: () => boolean;
}

/** What a sweep found, and where it began when it walked to the end (the next one's `since`). */
export interface KeptIdsFound {
  readonly localIds: string[];
  /** The change log's last entry as the walk began; `null`: stopped, or the log holds none. */
  readonly mark: KeptIdMark | null;
  /** Every id was walked (no mark, or one the log no longer names). */
  readonly whole: boolean;
}

/** Spans of the order's anchors in a slice: 262,144 rows, about 30 ms of the worker's reads. */
const MODEL_SLICE_SPANS = 64;

/**
 * The whole library's models read by the worker behind `port` in slices between `keys` (keys of
 * the newest-first order, newest first: main's anchors of it), a call each; in one call without
 * keys. Keys held since the library changed still cut the order into slices that cover it all.
 */
async function modelsInSlices(
  port: Pick<HistoryPort, 'call'>,
  keys: readonly AnchorKey[],
): Promise<string[]> {
  if (keys.length === 0) return port.call('imageModels', {});
  const found: string[] = [];
  let after: AnchorKey | null = null;
  for (const upTo of [...keys, null]) {
    found.push(...(await port.call('imageModels', { slice: { found, after, upTo } })));
    after = upTo;
  }
  return found.sort(binaryOrder);
}

/**
 * The reads, answered by the history worker behind `port`; `anchors` are main's store's. With
 * `walkFirstOrder` (a host that pages a gallery, not the CLI) the gallery's first order is walked
 * at once, before a jump needs it, and the models right after it (kept for the gallery's ask).
 * `sliceSpans`: the anchors' spans in a slice of the models' walk.
 */
export function libraryReadsIn(
  port: Pick<HistoryPort, 'call'>,
  anchors: PositionAnchors,
  walkFirstOrder = false,
  sliceSpans = MODEL_SLICE_SPANS,
): LibraryReads {
  const prebuild = new PositionPrebuild(anchors, port);
  const kept = sameLibrary(() => anchors.libraryVersion());
  const reads: LibraryReads = {
    taskCount: (query) =>
      kept(`tasks ${JSON.stringify(query)}`, () => port.call('taskCount', { query })),
    newerTasks: () => port.call('newerTaskCount', {}),
    taskSelection: (query, limit) => port.call('taskSelection', { query, limit }),
    count: (query) =>
      // The gallery's order walked for its positions tells the count: no second walk of it.
      kept(`count ${JSON.stringify(query)}`, () =>
        prebuild.count(query, () => port.call('imageCount', { query })),
      ),
    // In slices between the first order's anchors (as the app starts, all of them), so the
    // calls main makes meanwhile wait a slice of the walk, not all of it.
    models: () =>
      kept('models', () => modelsInSlices(port, anchors.every(FIRST_ORDER_ID, sliceSpans))),
    selection: (query, limit) => port.call('imageSelection', { query, limit }),
    positions: (query) => prebuild.build(query),
    keptKeyIds: (keys, options) => keptIdsIn(port, keys, options),
  };
  // The models' walk follows the order's at once, so both are over as the app's first screen
  // settles; the gallery's ask (its hidden first page, when the window is idle) joins it.
  if (walkFirstOrder) {
    void prebuild
      .build(GALLERY_FIRST_ORDER)
      .then(() => reads.models())
      .catch(() => undefined);
  }
  return reads;
}

/**
 * The walks of a sweep in the worker behind `port` (kept-key-ids.ts): the changes after a mark
 * the log still names, else the ledger's rows and every task id; the log's last entry read first,
 * so what is written meanwhile is after the mark kept.
 */
async function keptIdsIn(
  port: Pick<HistoryPort, 'call'>,
  keys: readonly string[],
  { since = null, stopped = () => false }: KeptIdSweepOptions = {},
): Promise<KeptIdsFound> {
  const { now, holds } = await port.call('keptIdMark', { since });
  const walks: [KeptIdWalk, string][] =
    since !== null && holds
      ? [['changes', String(since.seq)]]
      : [
          ['ledger', ''],
          ['tasks', ''],
        ];
  const localIds: string[] = [];
  for (const [walk, first] of walks) {
    for (let after: string | null = first; after !== null && !stopped();) {
      const limit = KEPT_ID_SLICE;
      const slice: KeptIdSlice = await port.call('keptKeyIds', { keys, walk, after, limit });
      localIds.push(...slice.localIds);
      after = slice.next;
    }
  }
  const found = [...new Set(localIds)];
  return { localIds: found, mark: stopped() ? null : now, whole: walks.length > 1 };
}

/** The id of the anchors of the gallery's first order, whose keys slice the models' walk. */
const FIRST_ORDER_ID = anchorsId(GALLERY_FIRST_ORDER, 'newest');

/** Answers kept for so many distinct asks at most between two changes of the library. */
const KEPT_ASKS = 32;

/**
 * Answers kept while the library is as it was (`version`: any commit, by anyone, changes it). The
 * gallery asks the same count and models as its hidden first page loads at start and again as it
 * is shown: the second ask joins the first (in the worker's queue ahead of what came since: the
 * models' walk, a walk of positions) instead of queueing behind it, so the scrollbar has its
 * length when it is first drawn. A failed read is not kept.
 */
function sameLibrary(version: () => string) {
  let at: string | null = null;
  const kept = new Map<string, Promise<unknown>>();
  return <T>(ask: string, read: () => Promise<T>): Promise<T> => {
    const now = version();
    if (now !== at || kept.size >= KEPT_ASKS) {
      kept.clear();
      at = now;
    }
    const found = kept.get(ask) as Promise<T> | undefined;
    if (found) return found;
    const answer = read();
    kept.set(ask, answer);
    answer.catch(() => {
      if (kept.get(ask) === answer) kept.delete(ask);
    });
    return answer;
  };
}
