/**
 * The gallery's reads that walk every image of the library: how many match a filter (the
 * scrollbar's length, "Select all"'s total), which models the images name (the filter's
 * choices) and the images "Select all" names (up to its cap). At 2.5 million images they take about 0.3 s and 0.9 s of SQLite, so they run in the
 * history worker (history-port.ts): main's loop, which holds the key and runs every poll, never
 * waits on them. A one-command host (the CLI, `inThread`) runs them on its own thread.
 */
import type { HistoryPort } from './history-port';
import type { ImageKey, WholeImageQuery } from './whole-set';

export interface ImageReads {
  /** How many images match the query (every page of it together). */
  count(query: WholeImageQuery): Promise<number>;
  /** The models the library's shown images name, in order. */
  models(): Promise<string[]>;
  /** The first `limit` images that match, in the gallery's order, and how many match in all (one call, read one after the other). */
  selection(query: WholeImageQuery, limit: number): Promise<{ images: ImageKey[]; total: number }>;
}

/** The reads, answered by the history worker behind `port`. */
export function imageReadsIn(port: Pick<HistoryPort, 'call'>): ImageReads {
  return {
    count: (query) => port.call('imageCount', { query }),
    models: () => port.call('imageModels', {}),
    selection: (query, limit) => port.call('imageSelection', { query, limit }),
  };
}
