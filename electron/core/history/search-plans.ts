/**
 * How an indexed prompt search is answered, for the task list and the gallery alike: the page the
 * user waits for, by whichever plan suits how many tasks match.
 *
 * - Fewer than {@link FEW_MATCHES} matching tasks: read them and sort them (cost grows with the
 *   matches; walking the newest-first index to the page's last match took ~150 ms to the bottom
 *   of 1,000,000 tasks for a prompt that matches 11).
 * - A word in most prompts: the newest {@link SEARCH_WINDOW} tasks hold the page, when that is
 *   provably the whole answer (no older task sorts among it). The full-text index seeks straight
 *   to them; reading every match first cost ~450 ms for a word in 1,000,000 prompts.
 * - Otherwise: walk the newest-first index, checking each row against the matches.
 */
import type { SearchWords } from './history-query';
import type { Row, SqlValue } from './sqlite-connection';

/** Newest tasks a search tries first. */
const SEARCH_WINDOW = 2_000;
/** Fewer matching tasks than this are read and sorted. */
export const FEW_MATCHES = 2_000;

const COUNT_MATCHES_UP_TO =
  'SELECT count(*) AS n FROM (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? LIMIT ?)';

/** One row read, or null (the store's read, with its error handling). */
export type ReadOne = (sql: string, params: SqlValue[]) => Row | null;

/** The two ways a list can read a search's page (each up to `limit + 1` rows, newest first). */
export interface SearchPageReaders {
  /** Walking the newest-first index, over every row or only tasks from row id `fromRow` on. */
  walk(fromRow?: number): Row[];
  /** From the matches alone, sorted. */
  fromMatches(): Row[];
}

export function searchPage(
  readOne: ReadOne,
  words: SearchWords & { index: string },
  limit: number,
  readers: SearchPageReaders,
): Row[] {
  // Counting up to the limit first costs a few ms for a common word, and keeps a rare one from
  // the window's walk, which finds too few rows in it only after reading them all (the gallery
  // walks by date, not by task row: 280 ms at 1,000,000 tasks).
  const few = readOne(COUNT_MATCHES_UP_TO, [words.index, FEW_MATCHES]);
  if (Number(few?.['n'] ?? FEW_MATCHES) < FEW_MATCHES) return readers.fromMatches();
  return newestWindow(readOne, limit, readers) ?? readers.walk();
}

/**
 * The page from the newest tasks alone, when that is provably the whole answer; null (search
 * everything) when the window holds too few rows, or an older task could sort among them (one
 * created with an earlier id but a later date). Every row's `created_at` is its task's.
 */
function newestWindow(readOne: ReadOne, limit: number, readers: SearchPageReaders): Row[] | null {
  const top = readOne('SELECT max(id) AS id FROM tasks', []);
  const fromRow = Number(top?.['id'] ?? 0) - SEARCH_WINDOW;
  if (fromRow <= 0) return null;
  const rows = readers.walk(fromRow);
  const edge = rows[limit];
  if (edge === undefined) return null;
  const older = readOne(
    // `+t.id`: walk the newest-first index over the few rows at or above the edge's date.
    'SELECT 1 AS hit FROM tasks t WHERE t.created_at >= ? AND +t.id < ? LIMIT 1',
    [Number(edge['created_at']), fromRow],
  );
  return older ? null : rows;
}
