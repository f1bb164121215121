/**
 * How `list` pages: by default the newest {@link DEFAULT_LIST_LIMIT} rows and a line on stderr
 * that says how to see the next ones (`--cursor`, as the history's pages continue) or all of them
 * (`--all`); `--limit N` sets the page's size. stdout holds only rows, so `--json` stays one
 * object per line.
 */
import { UsageError } from '../core/command-line';
import type { CliIo } from './cli-io';
import { commandHint } from './terminal-text';

/** Rows `list` prints when neither --limit nor --all says otherwise. */
const DEFAULT_LIST_LIMIT = 50;
/** The largest --limit: a page of a million rows is --all. */
const MAX_LIST_LIMIT = 100_000;
/** Rows asked of the history at once (its largest page). */
const HISTORY_PAGE = 500;
/**
 * What may wait unread in the output before the next page is read: a reader slower than the
 * listing (`list --all | less` on a million tasks) held hundreds of MB of rows in memory.
 */
export const UNREAD_OUTPUT_BYTES = 1024 * 1024;

/** Which rows `list` prints. */
export interface ListPage {
  /** At most this many rows; null: every row (--all). */
  readonly limit: number | null;
  /** Start after this row (a `nextCursor` of the history, as the "more" line prints it). */
  readonly cursor: string | null;
}

/** A page of the history: some rows, and where the next page starts (null: none). */
interface HistoryPage<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/** The history's cursor is base64url JSON, `["t", …]` for tasks and `["i", …]` for images. */
function cursorKind(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,1000}$/.test(cursor)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : null;
  } catch {
    return null;
  }
}

/**
 * --all, --limit N and --cursor C of `list`, checked. `images`: the rows are images (a triage
 * filter), whose cursors are not tasks'.
 * @throws UsageError for a limit that is not a whole number in range, --all with --limit, or a
 *   cursor `list` did not print (never repeated: it may be the key pasted in the wrong place).
 */
export function listPage(
  values: { readonly all?: boolean; readonly limit?: string; readonly cursor?: string },
  images: boolean,
): ListPage {
  if (values.all && values.limit !== undefined)
    throw new UsageError('list takes --all or --limit N, not both.');
  const limit = values.limit === undefined ? DEFAULT_LIST_LIMIT : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT)
    throw new UsageError(`--limit takes a whole number from 1 to ${MAX_LIST_LIMIT}.`);
  const cursor = values.cursor?.trim() ?? null;
  if (cursor !== null && cursorKind(cursor) !== (images ? 'i' : 't'))
    throw new UsageError('--cursor takes the value a "more" line of list printed, as it was.');
  return { limit: values.all ? null : limit, cursor };
}

/**
 * Prints the rows of `page` from `read` (each history page asked for by its size and cursor);
 * `print` prints a row and says whether it was one (a row a filter drops is not). Returns where
 * the next rows start, or null when every row was printed. Between pages it waits for the reader
 * (`io.caughtUp`) to leave at most {@link UNREAD_OUTPUT_BYTES} unread, and stops at the row after
 * `io.interrupt` is aborted (the reader gone: `list --all | head`), never reading the rest.
 */
export async function printPage<T>(
  page: ListPage,
  read: (limit: number, cursor: string | null) => HistoryPage<T>,
  print: (item: T) => boolean,
  io: Pick<CliIo, 'interrupt' | 'caughtUp'>,
): Promise<string | null> {
  const stop = io.interrupt;
  let left = page.limit ?? Infinity;
  let cursor = page.cursor;
  do {
    const got = read(Math.min(HISTORY_PAGE, left), cursor);
    for (const item of got.items) {
      if (stop.aborted) return cursor;
      if (print(item)) left -= 1;
    }
    cursor = got.nextCursor;
    if (cursor !== null && left > 0) await io.caughtUp?.(UNREAD_OUTPUT_BYTES);
  } while (cursor !== null && left > 0 && !stop.aborted);
  return cursor;
}

/** The line that says how to see the rows after a page (null when there are none). */
export function moreLine(
  program: string,
  page: ListPage,
  next: string | null,
  rows: 'tasks' | 'images',
): string | null {
  if (next === null || page.limit === null) return null;
  return (
    `Listed ${page.limit} ${rows}${page.cursor === null ? ', the newest' : ''}; there may be more. ` +
    `The next ones: ${commandHint(program, ['list', '--cursor', next])} with the same options; ` +
    `every one: ${program} list --all.\n`
  );
}
