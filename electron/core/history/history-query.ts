/**
 * Builds the SQL of the list, count and gallery queries. Values are always bound; the only
 * text spliced into SQL is fixed fragments and `?` lists, so the statement cache stays small
 * (one entry per shape of query) and a partial index can match a literal `favourite = 1`.
 */
import { CONTAINS_FOLDED, type SqlValue } from './sqlite-connection';
import { z } from 'zod';
import type { ImageState, TaskStatus } from '../../../shared/domain/task-record';
import type { GallerySort } from '../../../shared/domain/gallery-item';
import type { ServiceId } from '../../../shared/domain/service-id';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';
import { addTriageFilter, type TriageQuery } from './triage-filter';
import type { SmartRules } from '../../../shared/domain/smart-board';
import { smartFilter } from './smart-filter';
import { madeBetween } from './made-at';
import { imageServiceTest, serviceTest, taskServiceColumns } from './service-filter';
import { areVisibleStates, VISIBLE_IMAGE } from './visible-image';

/** Filters and paging of {@link HistoryStore.list}. */
export interface HistoryQuery {
  /** Words the prompt must hold, each anywhere and in any order, case-insensitive (see {@link searchWords}). */
  search?: string;
  /** Only tasks in one of these statuses; an empty list matches nothing. */
  statuses?: readonly TaskStatus[];
  favourite?: boolean;
  /**
   * Only tasks of this service (service-filter.ts): a provider's, or `demo` for the built-in
   * demo's (whatever dialect it spoke; a record without a provider is today's contract's).
   */
  provider?: ServiceId;
  /** Only the tasks of this compare group (shared/domain/compare.ts). */
  compareGroup?: string;
  /** Only tasks made from this prompt template (its id: TaskRecord.template). */
  template?: string;
  /** Page size: default 50, at most 500. */
  limit?: number;
  /** `nextCursor` of the previous page; absent or null for the first page. */
  cursor?: string | null;
}

/** Filters and paging of {@link HistoryStore.listImages}; triage's in triage-filter.ts. */
export interface ImageQuery extends TriageQuery {
  search?: string;
  /** The image's own favourite flag. */
  favourite?: boolean;
  /** Whether the image carries Content Credentials (a C2PA manifest, whatever its verdict). */
  contentCredentials?: boolean;
  /** The model named in the task's request. */
  model?: string;
  /** Only images of tasks of this service (see {@link HistoryQuery.provider}). */
  provider?: ServiceId;
  /** Only images of the tasks of this compare group. */
  compareGroup?: string;
  /** Only images of tasks of a compare, any group (true), or of none (false). */
  compared?: boolean;
  /** Only images of tasks made from this prompt template (its id). */
  template?: string;
  /** Task creation time in ms (the record's `createdAt`, not its list time), inclusive. */
  from?: number;
  /** Task creation time in ms (the record's `createdAt`), inclusive. */
  to?: number;
  /** Only images in one of these states (default: all); an empty list matches nothing. */
  states?: readonly ImageState[];
  /** A smart board's rules (checked: shared/domain/smart-board.ts), besides the other filters. */
  smart?: SmartRules;
  /** The order (default newest first); a cursor continues the order it was made in. */
  sort?: GallerySort;
  /** The page starting at this position (0 is the first image); ignored with a cursor. */
  offset?: number;
  limit?: number;
  cursor?: string | null;
}

/** A WHERE clause and its bound values. */
export interface SqlFilter {
  readonly where: string;
  readonly params: SqlValue[];
}

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
/** The trigram tokenizer indexes three-character runs; shorter words are checked row by row. */
const TRIGRAM = 3;
/** Words of a search that count; more are ignored (a pasted paragraph is not a search). */
const MAX_WORDS = 16;

export function pageLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

/**
 * A search as the user means it: every word must appear in the prompt, anywhere and in any order,
 * as a whole word or part of one ("light" finds "lighthouse"), ignoring case. Words of three
 * characters or more are looked up in the trigram index together (`index`: an FTS5 query, each
 * word a quoted phrase, joined with AND); shorter ones are checked row by row (`short`, see {@link CONTAINS_FOLDED}).
 */
export interface SearchWords {
  readonly index: string | null;
  readonly short: readonly string[];
}

/**
 * What parts a search into words: white space, and NUL, which no one types and neither search can
 * hold: SQLite reads a LIKE pattern and an FTS5 query as C strings, so a NUL ended the pattern (a
 * lone one matched every prompt) or left the query's quoted word unterminated (the read failed,
 * said as "Pictor could not read its history database").
 */
// eslint-disable-next-line no-control-regex
const WORD_BREAK = /[\s\u0000]+/u;

export function searchWords(search: string | undefined): SearchWords {
  const words = [...new Set((search ?? '').split(WORD_BREAK).filter(Boolean))].slice(0, MAX_WORDS);
  const long = words.filter((word) => [...word].length >= TRIGRAM);
  return {
    index:
      long.length > 0 ? long.map((word) => `"${word.replaceAll('"', '""')}"`).join(' AND ') : null,
    short: words.filter((word) => [...word].length < TRIGRAM),
  };
}

/**
 * The short words' checks on `prompt` (the prompt column of the row checked). A word in ASCII is
 * matched with LIKE, SQLite's own scan (ASCII letters fold alike in both); any other goes through
 * {@link CONTAINS_FOLDED}, a call into JavaScript per row, several times slower on a long scan.
 */
export function shortWordFilter(words: SearchWords, prompt = 't.prompt'): SqlFilter {
  // eslint-disable-next-line no-control-regex
  const ascii = (word: string) => /^[\x00-\x7f]*$/.test(word);
  return join(
    words.short.map((word) =>
      ascii(word) ? `${prompt} LIKE ? ESCAPE '\\'` : `${CONTAINS_FOLDED}(${prompt}, ?)`,
    ),
    words.short.map((word) =>
      ascii(word) ? `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : word,
    ),
  );
}

/** WHERE for tasks (alias `t`), without the cursor; `fromRow` as in {@link searchFilter}. */
export function taskFilter(
  query: Omit<HistoryQuery, 'limit' | 'cursor'>,
  fromRow?: number,
): SqlFilter {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  addFilter(searchFilter(searchWords(query.search), 't.id', fromRow), clauses, params);
  addIn('t.status', query.statuses, clauses, params);
  if (query.favourite !== undefined) clauses.push(`t.favourite = ${query.favourite ? 1 : 0}`);
  if (query.provider !== undefined) {
    addFilter(serviceTest(taskServiceColumns('t.'), query.provider), clauses, params);
  }
  addValue('t.compare_group = ?', query.compareGroup, clauses, params);
  addValue('t.template_id = ?', query.template, clauses, params);
  return join(clauses, params);
}

/**
 * The prompt of an image's task read by its row id: a smart board's prompt rule needs no `t`
 * (some image queries walk images alone), and is tested only where its group gets to it.
 */
export const PROMPT_OF_IMAGE = '(SELECT p.prompt FROM tasks p WHERE p.id = i.task_row)';

/**
 * WHERE for images (alias `i`, joined to tasks as `t`), without the cursor; `fromRow` as in
 * {@link searchFilter}; `prompt` the expression short search words are tested on.
 */
export function imageFilter(query: ImageQuery, fromRow?: number, prompt = 't.prompt'): SqlFilter {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  addFilter(
    searchFilter(searchWords(query.search), 'i.task_row', fromRow, prompt),
    clauses,
    params,
  );
  // The visible states have one spelling in SQL (visible-image.ts); any other list is bound.
  if (query.states !== undefined && areVisibleStates(query.states)) clauses.push(VISIBLE_IMAGE);
  else addIn('i.state', query.states, clauses, params);
  if (query.favourite !== undefined) clauses.push(`i.favourite = ${query.favourite ? 1 : 0}`);
  if (query.contentCredentials !== undefined) {
    clauses.push(`i.has_credentials = ${query.contentCredentials ? 1 : 0}`);
  }
  addValue('i.model = ?', query.model, clauses, params);
  if (query.provider !== undefined) addFilter(imageServiceTest(query.provider), clauses, params);
  addValue(
    'i.task_row IN (SELECT id FROM tasks WHERE compare_group = ?)',
    query.compareGroup,
    clauses,
    params,
  );
  if (query.compared !== undefined) {
    const not = query.compared ? '' : 'NOT ';
    clauses.push(`i.task_row ${not}IN (SELECT id FROM tasks WHERE compare_group IS NOT NULL)`);
  }
  addValue(
    'i.task_row IN (SELECT id FROM tasks WHERE template_id = ?)',
    query.template,
    clauses,
    params,
  );
  // By the task's date, not its place in the list (the order column's): made-at.ts.
  addFilter(madeBetween(query.from, query.to), clauses, params);
  addTriageFilter(query, clauses, params);
  if (query.smart !== undefined) {
    const rules = smartFilter(query.smart, (fields) =>
      imageFilter(fields, undefined, PROMPT_OF_IMAGE),
    );
    addFilter(rules, clauses, params);
  }
  return join(clauses, params);
}

/**
 * The search's WHERE; `taskRow` is the expression holding the task's `tasks.id`. With `fromRow`,
 * only tasks whose row id is at least that (the newest: ids grow as tasks are added), which the
 * full-text index seeks to directly.
 */
function searchFilter(
  words: SearchWords,
  taskRow: string,
  fromRow?: number,
  prompt = 't.prompt',
): SqlFilter {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (words.index !== null && fromRow !== undefined) {
    clauses.push(
      `${taskRow} >= ? AND ${taskRow} IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? AND rowid >= ?)`,
    );
    params.push(fromRow, words.index, fromRow);
  } else if (words.index !== null) {
    // The `+` keeps the planner from driving the query from the matches and then sorting all of them
    // (0.5 s for a common word at 100k records); it walks the newest-first index instead.
    clauses.push(`+${taskRow} IN (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ?)`);
    params.push(words.index);
  }
  addFilter(shortWordFilter(words, prompt), clauses, params);
  return join(clauses, params);
}

function addFilter(filter: SqlFilter, clauses: string[], params: SqlValue[]): void {
  if (filter.where === '1') return;
  clauses.push(filter.where);
  params.push(...filter.params);
}

/** `clause` (with one `?`) and its value, when the query names one. */
export function addValue(
  clause: string,
  value: SqlValue | undefined,
  clauses: string[],
  params: SqlValue[],
): void {
  if (value === undefined) return;
  clauses.push(clause);
  params.push(value);
}

function addIn(
  column: string,
  values: readonly string[] | undefined,
  clauses: string[],
  params: SqlValue[],
): void {
  if (values === undefined) return;
  const distinct = [...new Set(values)];
  if (distinct.length === 0) {
    clauses.push('0');
    return;
  }
  clauses.push(`${column} IN (${distinct.map(() => '?').join(', ')})`);
  params.push(...distinct);
}

function join(clauses: string[], params: SqlValue[]): SqlFilter {
  return { where: clauses.length === 0 ? '1' : clauses.join(' AND '), params };
}

// Keyset cursors: the sort key of the last row of a page, opaque to callers. Their schemas are
// built on first use (shared/domain/lazy-schema.ts): a first page reads no cursor.
const taskCursorSchema = lazySchema(() => z.tuple([z.literal('t'), z.number(), z.string()]));
const imageCursorSchema = lazySchema(() =>
  z.tuple([z.literal('i'), z.number(), z.string(), z.number().int()]),
);

export interface TaskKey {
  readonly createdAt: number;
  readonly localId: string;
}
export interface ImageKey extends TaskKey {
  readonly idx: number;
}

export function encodeTaskCursor(key: TaskKey): string {
  return encode(['t', key.createdAt, key.localId]);
}

export function encodeImageCursor(key: ImageKey): string {
  return encode(['i', key.createdAt, key.localId, key.idx]);
}

/** Rows after the cursor in newest-first order, as a WHERE fragment. */
export function taskAfter(cursor: string): SqlFilter {
  const [, createdAt, localId] = decode(cursor, taskCursorSchema());
  // The leading `<=` is what lets SQLite seek into the index instead of scanning to the cursor.
  return {
    where: 't.created_at <= ? AND (t.created_at < ? OR t.local_id < ?)',
    params: [createdAt, createdAt, localId],
  };
}

/** Images after the cursor: newer tasks first, a task's images in index order. */
export function imageAfter(cursor: string): SqlFilter {
  const [, createdAt, localId, idx] = decode(cursor, imageCursorSchema());
  return {
    where:
      'i.created_at <= ? AND (i.created_at < ? OR i.local_id < ? OR (i.local_id = ? AND i.idx > ?))',
    params: [createdAt, createdAt, localId, localId, idx],
  };
}

function encode(key: readonly SqlValue[]): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function decode<T>(cursor: string, schema: z.ZodType<T>): T {
  try {
    return schema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch (error) {
    throw new HistoryError(sentence('error.library.historyCursorInvalid'), {
      cause: error,
    });
  }
}
