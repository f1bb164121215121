/**
 * The triage part of an image query's WHERE (triage-schema.ts): rating, flag, tags and boards,
 * over the images table as `i`. Values are bound; the only text spliced in is fixed fragments and
 * `?` lists (history-query.ts), so a literal `i.flag = -1` can match its partial index.
 */
import { boardKey, foldName, MAX_RATING, type TriageFlag } from '../../../shared/domain/triage';
import type { SqlValue } from './sqlite-connection';
import { FLAG_VALUES } from './triage-schema';

/** A rating test: equal to, at least, or at most `value` (0–5; 0 is unrated). */
export interface RatingTest {
  readonly op: '=' | '>=' | '<=';
  readonly value: number;
}

/** Images with any, all, or none of the tags (by key or as written: both are folded). */
export interface TagTest {
  readonly mode: 'any' | 'all' | 'none';
  readonly keys: readonly string[];
}

/** The triage filters of an image query. */
export interface TriageQuery {
  rating?: RatingTest;
  flag?: TriageFlag;
  tags?: TagTest;
  /** The board with this path or key: its own images. */
  board?: string;
  /** Only images in no board. */
  unfiled?: boolean;
}

const OPS = { '=': '=', '>=': '>=', '<=': '<=' } as const;
const OF_IMAGE = 'g.local_id = i.local_id AND g.idx = i.idx';

/** Adds the query's triage tests to `clauses` and their values to `params`. */
export function addTriageFilter(query: TriageQuery, clauses: string[], params: SqlValue[]): void {
  const { rating, flag, tags, board, unfiled } = query;
  if (rating !== undefined) {
    const value = Math.min(MAX_RATING, Math.max(0, Math.trunc(rating.value)));
    clauses.push(`i.rating ${OPS[rating.op]} ?`);
    params.push(value);
  }
  // Literal (three values), so the Rejected board walks its partial index.
  if (flag !== undefined) clauses.push(`i.flag = ${String(FLAG_VALUES[flag])}`);
  if (tags !== undefined) addTagTest(tags, clauses, params);
  if (board !== undefined) {
    clauses.push(`EXISTS (SELECT 1 FROM image_boards g WHERE ${OF_IMAGE} AND g.board_key = ?)`);
    params.push(boardKey(board));
  }
  if (unfiled === true) clauses.push(`NOT EXISTS (SELECT 1 FROM image_boards g WHERE ${OF_IMAGE})`);
}

function addTagTest(test: TagTest, clauses: string[], params: SqlValue[]): void {
  const keys = [...new Set(test.keys.map(foldName))];
  if (keys.length === 0) {
    if (test.mode !== 'none') clauses.push('0');
    return;
  }
  const some = (list: readonly string[]) =>
    `EXISTS (SELECT 1 FROM image_tags g WHERE ${OF_IMAGE} AND g.tag_key IN (${list.map(() => '?').join(', ')}))`;
  if (test.mode === 'all') {
    for (const key of keys) {
      clauses.push(some([key]));
      params.push(key);
    }
    return;
  }
  clauses.push(test.mode === 'none' ? `NOT ${some(keys)}` : some(keys));
  params.push(...keys);
}
