/**
 * The persistent history of every task: SQLite through Node's `node:sqlite`, shared by every
 * Pictor process on the machine (the app, CLI commands). Each write is one transaction synced to
 * disk before it returns, and costs the same at 100 records as at 1,000,000 (indexed upsert, no
 * file rewrite). Records are stored whole as JSON beside the columns that listing, filtering and
 * search need. Leases say which process works on a task; a change log lets each process show
 * what the others changed.
 */
import {
  isUnfinished,
  taskRecordSchema,
  type TaskRecord,
} from '../../../shared/domain/task-record';
import { withFavourites } from '../../../shared/domain/favourites';
import { hasContentCredentials } from '../../../shared/domain/content-credentials';
import { silentLogger, type Logger } from '../../ports/logger';
import { messageOf } from '../errors/thrown-value';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { HistoryError } from './history-error';
import {
  encodeImageCursor,
  encodeTaskCursor,
  imageAfter,
  imageFilter,
  pageLimit,
  taskAfter,
  searchWords,
  shortWordFilter,
  taskFilter,
  type HistoryQuery,
  type ImageQuery,
  type SearchWords,
  type SqlFilter,
} from './history-query';
import { galleryItemsFromRows, recordFromRow, recordsFromRows } from './history-rows';
import type { GalleryItem } from '../../../shared/domain/gallery-item';
import { HISTORY_MIGRATIONS, type Migration } from './history-schema';
import {
  CLAIM_LEASE,
  CREDENTIALS_VERSION,
  DELETE_IMAGES,
  DELETE_TASK,
  INSERT_IMAGE,
  INSERT_IMAGE_BEFORE_CREDENTIALS,
  RELEASE_ALL_LEASES,
  RELEASE_LEASE,
  SELECT_BY_TASK_ID,
  SELECT_BY_TASK_ID_ANY_ENDPOINT,
  SELECT_LEASE,
  SELECT_TASK,
  SELECT_THUMB_PENDING,
  SELECT_UNFINISHED,
  SET_LEASE,
  TAKE_OVER_LEASE,
  UPSERT_TASK,
} from './history-statements';
import { ChangeFeed, type HistoryChanges } from './change-feed';
import { FEW_MATCHES, searchPage } from './search-plans';
import { countImages, encodeOrderCursor, orderedImageRows, type ReadRows } from './gallery-order';
import {
  imageKeys,
  taskIds,
  type ImageKey,
  type WholeImageQuery,
  type WholeTaskQuery,
} from './whole-set';
import {
  openDatabase,
  type DatabaseFactory,
  type IntegrityCheck,
  type Row,
  type SqliteConnection,
  type SqlValue,
} from './sqlite-connection';

/** A page of tasks, newest first. */
export interface HistoryPage {
  /** Up to `limit` records; fewer when a stored row could not be read (it is skipped and logged). */
  items: TaskRecord[];
  /** Pass as `cursor` for the next page; `null` on the last page. */
  nextCursor: string | null;
}

/** A page of images, newest task first. */
export interface ImagePage {
  items: GalleryItem[];
  nextCursor: string | null;
}

export interface HistoryStoreOptions {
  logger?: Logger;
  /** The schema's migrations; tests pass a longer list to exercise an upgrade. */
  migrations?: readonly Migration[];
  /**
   * When to run `PRAGMA quick_check` over the whole file: `after-crash` (default) only when an
   * earlier check did not finish or found damage (SQLite itself rolls back what a killed process
   * left), `always` at every open (about 1 s at 100,000 records).
   */
  integrityCheck?: IntegrityCheck;
  /** Opens the file; default node:sqlite (a stand-in without FTS5 shows what `self-test` catches). */
  database?: DatabaseFactory;
}

/** A lease being granted: to `owner`, until `until` (ms). */
export interface LeaseGrant {
  readonly owner: string;
  readonly until: number;
}

/** Who works on a task, until when (ms). */
export interface Lease {
  readonly owner: string;
  readonly expiresAt: number;
}

const COUNT_SEARCH = 'SELECT count(*) AS n FROM tasks_fts WHERE tasks_fts MATCH ?';
const IMAGE_COLUMNS = 'SELECT i.local_id, i.idx, i.created_at, t.record';
const IMAGE_ORDER = 'i.created_at DESC, i.local_id DESC, i.idx ASC';

/** Search words with at least one the full-text index can look up. */
type IndexedWords = SearchWords & { index: string };
const hasIndex = (words: SearchWords): words is IndexedWords => words.index !== null;
const DAMAGED = sentence('error.library.historyDamaged');

/** The history database. Synchronous; one instance per file and process, any number of processes. */
export class HistoryStore {
  /** The schema version of the open database. */
  readonly schemaVersion: number;
  private readonly connection: SqliteConnection;
  private readonly logger: Logger;
  private readonly feed: ChangeFeed;

  private constructor(connection: SqliteConnection, schemaVersion: number, logger: Logger) {
    this.connection = connection;
    this.schemaVersion = schemaVersion;
    this.logger = logger;
    this.feed = new ChangeFeed(connection, logger);
  }

  /**
   * Opens (creating if needed) and migrates the database at `file`; `':memory:'` is allowed.
   * Throws {@link HistoryError} with a sentence when the file is not a database, is damaged,
   * comes from a newer Pictor or cannot be opened. Other processes may have it open too.
   */
  static open(file: string, options: HistoryStoreOptions = {}): HistoryStore {
    const logger = options.logger ?? silentLogger;
    const migrations = options.migrations ?? HISTORY_MIGRATIONS;
    const { connection, schemaVersion } = openDatabase(
      file,
      migrations,
      logger,
      options.integrityCheck,
      options.database,
    );
    return new HistoryStore(connection, schemaVersion, logger);
  }

  /** Inserts or replaces the record; on disk when this returns. `updatedAt` is the caller's. */
  put(record: TaskRecord): void {
    const valid = validate(record);
    this.writeTransaction(() => this.writeRecord(valid));
  }

  /**
   * Inserts or replaces every record in one transaction. With `lease`, the records are leased to
   * its owner in the same transaction, so no other process ever sees them unclaimed.
   */
  putMany(records: readonly TaskRecord[], lease?: LeaseGrant): void {
    const valid = records.map(validate);
    this.writeTransaction(() => {
      valid.forEach((record) => this.writeRecord(record));
      if (lease) {
        for (const record of valid)
          this.connection.run(SET_LEASE, [record.localId, lease.owner, lease.until]);
      }
    });
  }

  /**
   * Leases each task to `owner` until `until` when it is free, its lease ended by `now`, or it
   * is `owner`'s already; returns the ids leased. Atomic across processes: of two claiming the
   * same expired lease at once, one gets it.
   */
  claimLeases(localIds: readonly string[], owner: string, now: number, until: number): string[] {
    if (localIds.length === 0) return [];
    return this.write(() =>
      this.connection.transaction(() =>
        localIds.filter(
          (localId) => this.connection.run(CLAIM_LEASE, [localId, owner, until, now]).changes > 0,
        ),
      ),
    );
  }

  /**
   * Gives the task's lease to `owner` until `until` if `from` still holds it, expired or not
   * (the engine does so when `from` is a process that no longer exists). Atomic: of two
   * processes taking over from the same owner, one does.
   */
  takeOverLease(localId: string, from: string, owner: string, until: number): boolean {
    return this.write(
      () => this.connection.run(TAKE_OVER_LEASE, [owner, until, localId, from]).changes > 0,
    );
  }

  /** Ends `owner`'s leases on `localIds` (all of them when absent); others' are untouched. */
  releaseLeases(owner: string, localIds?: readonly string[]): void {
    this.write(() => {
      if (localIds === undefined) this.connection.run(RELEASE_ALL_LEASES, [owner]);
      else
        this.connection.transaction(() => {
          for (const localId of localIds) this.connection.run(RELEASE_LEASE, [localId, owner]);
        });
    });
  }

  /** The task's lease, if any (possibly expired). */
  leaseOf(localId: string): Lease | undefined {
    const row = this.read(() => this.connection.get(SELECT_LEASE, [localId]));
    return row ? { owner: String(row['owner']), expiresAt: Number(row['expires_at']) } : undefined;
  }

  /**
   * Calls `listener` (on a timer) with the tasks other processes wrote or deleted, until the
   * result is disposed or the store closes. This process's own writes are not reported.
   */
  watchChanges(listener: (changes: HistoryChanges) => void, intervalMs?: number) {
    return this.feed.watch(listener, intervalMs);
  }

  get(localId: string): TaskRecord | undefined {
    return this.readOne(SELECT_TASK, [localId]);
  }

  /** The newest record of the service task `taskId` on `endpoint`. */
  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    return this.readOne(SELECT_BY_TASK_ID, [endpoint, taskId]);
  }

  /** The newest record of the service task `taskId` on any endpoint (the CLI's `resume <id>`). */
  findByTaskId(taskId: string): TaskRecord | undefined {
    return this.readOne(SELECT_BY_TASK_ID_ANY_ENDPOINT, [taskId]);
  }

  /** Tasks newest first (createdAt, then localId); the cursor stays valid while tasks are added. */
  list(query: HistoryQuery = {}): HistoryPage {
    const limit = pageLimit(query.limit);
    const words = searchWords(query.search);
    const rows = hasIndex(words)
      ? this.searchRows(query, words, limit)
      : this.listRows(query, limit);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: recordsFromRows(page, this.logger),
      nextCursor: rows.length > limit && last ? encodeTaskCursor(taskKey(last)) : null,
    };
  }

  /** Up to `limit + 1` rows of the page (the extra one says there is a next page). */
  private listRows(query: HistoryQuery, limit: number, fromRow?: number): Row[] {
    const filters = [
      taskFilter(query, fromRow),
      ...(query.cursor ? [taskAfter(query.cursor)] : []),
    ];
    const { where, params } = combine(filters);
    const sql = `SELECT t.local_id, t.created_at, t.record FROM tasks t WHERE ${where}
      ORDER BY t.created_at DESC, t.local_id DESC LIMIT ?`;
    return this.read(() => this.connection.all(sql, [...params, limit + 1]));
  }

  /** An indexed search's page of tasks (see search-plans.ts for the plans). */
  private searchRows(query: HistoryQuery, words: IndexedWords, limit: number): Row[] {
    return searchPage(this.readRow.bind(this), words, limit, {
      walk: (fromRow) => this.listRows(query, limit, fromRow),
      fromMatches: () =>
        this.pageFromMatches(
          'SELECT t.local_id, t.created_at, t.record',
          '',
          [
            taskFilter({ ...query, search: undefined }),
            ...(query.cursor ? [taskAfter(query.cursor)] : []),
          ],
          't.created_at DESC, t.local_id DESC',
          words,
          limit,
        ),
    });
  }

  /**
   * The page read from the search's matches alone: the matching tasks (CROSS JOIN keeps SQLite
   * from walking the newest-first index instead), `join` to reach the listed rows, filtered.
   */
  private pageFromMatches(
    select: string,
    join: string,
    filters: SqlFilter[],
    order: string,
    words: IndexedWords,
    limit: number,
  ): Row[] {
    const { where, params } = combine([...filters, shortWordFilter(words)]);
    const sql = `${select}
      FROM (SELECT rowid AS id FROM tasks_fts WHERE tasks_fts MATCH ?) m CROSS JOIN tasks t ON t.id = m.id ${join}
      WHERE ${where} ORDER BY ${order} LIMIT ?`;
    return this.read(() => this.connection.all(sql, [words.index, ...params, limit + 1]));
  }

  private readRow(sql: string, params: SqlValue[]): Row | null {
    return this.read(() => this.connection.get(sql, params));
  }

  /** One item per image of every task, newest task first, a task's images in order. */
  listImages(query: ImageQuery = {}): ImagePage {
    const limit = pageLimit(query.limit);
    const words = searchWords(query.search);
    const sort = query.sort ?? 'newest';
    if (sort !== 'newest' || (query.offset !== undefined && !query.cursor)) {
      return this.orderedImages(query, limit, words);
    }
    const rows = hasIndex(words)
      ? searchPage(this.readRow.bind(this), words, limit, {
          walk: (fromRow) => this.imageRows(query, limit, fromRow),
          fromMatches: () =>
            this.pageFromMatches(
              IMAGE_COLUMNS,
              'CROSS JOIN images i ON i.local_id = t.local_id',
              [imageFilter({ ...query, search: undefined }), ...this.imageCursor(query)],
              IMAGE_ORDER,
              words,
              limit,
            ),
        })
      : this.imageRows(query, limit);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: galleryItemsFromRows(page, this.logger),
      nextCursor:
        rows.length > limit && last
          ? encodeImageCursor({ ...taskKey(last), idx: Number(last['idx']) })
          : null,
    };
  }

  /** A page in another order than newest first, or at a position (see gallery-order.ts). */
  private orderedImages(query: ImageQuery, limit: number, words: SearchWords): ImagePage {
    const sort = query.sort ?? 'newest';
    const few =
      words.index === null
        ? null
        : Number(
            this.readRow(
              'SELECT count(*) AS n FROM (SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH ? LIMIT ?)',
              [words.index, FEW_MATCHES],
            )?.['n'] ?? FEW_MATCHES,
          );
    const rows = orderedImageRows(
      { query, sort, limit, offset: Math.max(0, query.offset ?? 0), words, matches: few },
      this.rows,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: galleryItemsFromRows(page, this.logger),
      nextCursor: rows.length > limit && last ? encodeOrderCursor(sort, last) : null,
    };
  }

  /** How many images match the filters (for a scrollbar as long as the whole gallery). */
  countImages(query: WholeImageQuery = {}): number {
    return countImages(query, this.rows);
  }

  /** Every image the filters match, newest first, at most `limit` (see whole-set.ts). */
  imageKeys(query: WholeImageQuery, limit: number): ImageKey[] {
    return imageKeys(query, limit, this.rows);
  }

  /** Every task the filter matches, newest first, at most `limit` (see whole-set.ts). */
  taskIds(query: WholeTaskQuery, limit: number): string[] {
    return taskIds(query, limit, this.rows);
  }

  /** Reads rows through {@link read} (its error handling), for the query modules. */
  private readonly rows: ReadRows = (sql, params) =>
    this.read(() => this.connection.all(sql, params));

  /** Up to `limit + 1` images of the page, walking the newest-first index. */
  private imageRows(query: ImageQuery, limit: number, fromRow?: number): Row[] {
    const { where, params } = combine([imageFilter(query, fromRow), ...this.imageCursor(query)]);
    const sql = `${IMAGE_COLUMNS} FROM images i JOIN tasks t ON t.local_id = i.local_id
      WHERE ${where} ORDER BY ${IMAGE_ORDER} LIMIT ?`;
    return this.read(() => this.connection.all(sql, [...params, limit + 1]));
  }

  private imageCursor(query: ImageQuery): SqlFilter[] {
    return query.cursor ? [imageAfter(query.cursor)] : [];
  }

  /** Tasks with a saved image whose thumbnail is pending (ImageRecord.thumbnailPending), a few. */
  withPendingThumbnails(limit: number): string[] {
    const rows = this.read(() => this.connection.all(SELECT_THUMB_PENDING, [limit]));
    return rows.map((row) => String(row['local_id']));
  }

  /** Records the engine still has work for, oldest first (the order to resume them in). */
  unfinished(): TaskRecord[] {
    return recordsFromRows(this.rows(SELECT_UNFINISHED, []), this.logger);
  }

  /** How many tasks match; with only a search, counted in the full-text index alone. */
  count(query: Omit<HistoryQuery, 'limit' | 'cursor'> = {}): number {
    const words = searchWords(query.search);
    const searchOnly =
      words.index !== null &&
      words.short.length === 0 &&
      query.statuses === undefined &&
      query.favourite === undefined;
    // Every task has exactly one row in the index (triggers keep them in step), so counting the
    // matches there skips a lookup per match (50 ms instead of 95 ms for a word in 100,000).
    const row = this.read(() => {
      if (searchOnly) return this.connection.get(COUNT_SEARCH, [words.index]);
      const { where, params } = taskFilter(query);
      return this.connection.get(`SELECT count(*) AS n FROM tasks t WHERE ${where}`, params);
    });
    return Number(row?.['n'] ?? 0);
  }

  /** Every model that has an image in the gallery, sorted (for the gallery's model filter). */
  imageModels(): string[] {
    const rows = this.rows(
      "SELECT DISTINCT model FROM images WHERE model IS NOT NULL AND model <> '' AND state <> 'deleted' ORDER BY model",
      [],
    );
    return rows.map((row) => String(row['model']));
  }

  /** Removes the record and its image rows; `false` when there was none. */
  delete(localId: string): boolean {
    return this.writeTransaction(() => {
      this.connection.run(DELETE_IMAGES, [localId]);
      return this.connection.run(DELETE_TASK, [localId]).changes > 0;
    });
  }

  /** Stops the change feed and closes the database. Idempotent. */
  close(): void {
    this.feed.stop();
    if (this.connection.isOpen) this.connection.close();
  }

  /** A write of task rows: one transaction, its change-log entries known as this process's. */
  private writeTransaction<T>(work: () => T): T {
    return this.write(() => this.connection.transaction(() => this.feed.own(work)));
  }

  private writeRecord(record: TaskRecord): void {
    // The model filter lists (and matches) what the service said it used, else what was asked.
    const model = record.reportedModel ?? record.request.model ?? null;
    const [row] = this.connection.all(UPSERT_TASK, [
      record.localId,
      record.taskId,
      record.endpoint,
      record.status,
      record.request.prompt,
      model,
      record.favourite ? 1 : 0,
      record.createdAt,
      record.updatedAt,
      isUnfinished(record) ? 1 : 0,
      JSON.stringify(record),
    ]);
    const taskRow = Number(row?.['id']);
    this.connection.run(DELETE_IMAGES, [record.localId]);
    const withCredentials = this.schemaVersion >= CREDENTIALS_VERSION;
    record.images.forEach((image, position) => {
      const row = [
        record.localId,
        taskRow,
        position,
        image.state,
        image.favourite ? 1 : 0,
        record.createdAt,
        model,
      ];
      if (!withCredentials) return void this.connection.run(INSERT_IMAGE_BEFORE_CREDENTIALS, row);
      const credentials = hasContentCredentials(image.contentCredentials) ? 1 : 0;
      this.connection.run(INSERT_IMAGE, [...row, credentials]);
    });
  }

  private readOne(sql: string, params: SqlValue[]): TaskRecord | undefined {
    const row = this.read(() => this.connection.get(sql, params));
    return row ? recordFromRow(row, this.logger) : undefined;
  }

  private read<T>(work: () => T): T {
    return this.guard(work, sentence('error.library.historyReadFailed'));
  }

  private write<T>(work: () => T): T {
    return this.guard(work, sentence('error.library.historyWriteFailed'));
  }

  private guard<T>(work: () => T, message: Sentence): T {
    if (!this.connection.isOpen) throw new HistoryError(sentence('error.library.historyClosed'));
    try {
      return work();
    } catch (error) {
      if (error instanceof HistoryError) throw error;
      const detail = messageOf(error);
      // SQLITE_CORRUPT / SQLITE_NOTADB: retrying will not help; say what will.
      const damaged = /malformed|not a database/i.test(detail);
      throw new HistoryError(damaged ? DAMAGED : message, { detail, cause: error });
    }
  }
}

/** Refuses to store what could not be read back; stores stars by the one-favourite rule. */
function validate(record: TaskRecord): TaskRecord {
  const parsed = taskRecordSchema.safeParse(record);
  if (parsed.success) return withFavourites(parsed.data);
  throw new HistoryError(sentence('error.library.historyRecordInvalid'), {
    detail: parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; '),
  });
}

function combine(filters: readonly SqlFilter[]): SqlFilter {
  return {
    where: filters.map((filter) => filter.where).join(' AND '),
    params: filters.flatMap((f) => f.params),
  };
}

function taskKey(row: Row): { createdAt: number; localId: string } {
  return { createdAt: Number(row['created_at']), localId: String(row['local_id']) };
}
