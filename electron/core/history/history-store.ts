/**
 * The persistent history of every task: SQLite through Node's `node:sqlite`, shared by every
 * Pictor process on the machine (the app, CLI commands). Each write is one transaction synced to
 * disk before it returns, and costs the same at 100 records as at 1,000,000 (indexed upsert, no
 * file rewrite). Records are stored whole as JSON beside the columns that listing, filtering and
 * search need. Leases say which process works on a task; a change log lets each process show
 * what the others changed.
 *
 * The store is the one door to the file; its work is in history-records.ts (writing and reading
 * single records), history-queries.ts (pages, counts, whole sets) and history-leases.ts.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTriageDelta } from '../../../shared/domain/triage-delta';
import { silentLogger, type Logger } from '../../ports/logger';
import type { Event } from '../../ports/event';
import type { HistoryQuery, ImageQuery } from './history-query';
import {
  HISTORY_MIGRATIONS,
  LINEAGE_VERSION,
  NEWER_SERVICE_VERSION,
  PROMPT_HISTORY_VERSION,
  TRIAGE_ROWS_VERSION,
  LEDGER_LISTED_VERSION,
  type Migration,
} from './history-schema';
import { ChangeFeed, type FeedTimers, type HistoryChanges } from './change-feed';
import type { ImageKey, WholeImageQuery, WholeTaskQuery } from './whole-set';
import {
  openDatabase,
  type DatabaseFactory,
  type IntegrityCheck,
  type SqliteConnection,
} from './sqlite-connection';
import { HistoryAccess } from './history-access';
import { TemplateRows } from './template-rows';
import { HistoryLeases, type Lease, type LeaseGrant } from './history-leases';
import { HistoryQueries, type HistoryPage, type ImagePage } from './history-queries';
import type { AnchorWalk } from './gallery-order';
import type { ModelSlice } from './image-models';
import type { AnchorChunk, PositionAnchors } from './position-anchors';
import type { CarriedFields } from './carried-fields';
import { HistoryRecords } from './history-records';
import { IdPrefixes } from './id-prefixes';
import { KeptKeyIds } from './kept-key-ids';
import { CompareGroups } from './compare-groups';
import { LineageRows } from './lineage-rows';
import { CostTables } from './cost-tables';
import { HistoryTriage } from './history-triage';
import { composeTriage, type TaskTriage } from './triage-compose';
import type { ImageChange } from './triage-write';
import { warmTriageRows } from './triage-warm';
import { PromptHistory } from './prompt-history';
import type { TriageDropped } from './triage-limits';
import { LedgerPages } from './ledger-pages';
import { LedgerRows } from './ledger-rows';
import { LedgerSums } from './ledger-sums';
import {
  countNewerTasks,
  LEDGER_SUMS_VERSION,
  LEDGER_VERSION,
  newerTaskIds,
  SELECT_WITH_NEWER_FIELDS,
} from './history-statements';

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
  /** The log's pages past which a commit folds it into the file itself (sqlite-connection.ts). */
  checkpointPast?: number | undefined;
  /** How often the change feed looks while anyone listens; default 250 ms (tests: shorter). */
  changePollMs?: number;
  /** The change feed's timers; default real ones (tests: the manual clock). */
  changeTimers?: FeedTimers;
}

/** The history's file in a library's data folder. */
export const HISTORY_FILE = 'history.sqlite';

/** The history database. Synchronous; one instance per file and process, any number of processes. */
export class HistoryStore {
  /** The schema version of the open database. */
  readonly schemaVersion: number;
  private readonly connection: SqliteConnection;
  private readonly feed: ChangeFeed;
  private readonly records: HistoryRecords;
  private readonly queries: HistoryQueries;
  private readonly leases: HistoryLeases;
  /** The user's prices and spending caps, and the ledger's reads (cost-tables.ts). */
  readonly costs: CostTables;
  /** Boards and tags (triage-schema.ts). */
  readonly triage: HistoryTriage;
  /** The distinct prompts sent, pinned ones first (prompt-history.ts). */
  readonly prompts: PromptHistory;
  /** Prompt templates and word lists (template-schema.ts). */
  readonly templates: TemplateRows;
  /** The compare groups, newest first (compare-groups.ts). */
  readonly compares: CompareGroups;
  /** What each image was made from and what was made from it (lineage-rows.ts). */
  readonly lineage: LineageRows;
  /** Tasks and compare groups by the start of an id (id-prefixes.ts). */
  readonly ids: IdPrefixes;
  /** Tasks kept under an id that carries a key (kept-key-ids.ts: the app's sweep). */
  readonly keptKeyIds: KeptKeyIds;

  private constructor(
    connection: SqliteConnection,
    schemaVersion: number,
    logger: Logger,
    feed: Pick<HistoryStoreOptions, 'changePollMs' | 'changeTimers'>,
  ) {
    this.connection = connection;
    this.schemaVersion = schemaVersion;
    this.feed = new ChangeFeed(connection, logger, feed.changePollMs, feed.changeTimers);
    const access = new HistoryAccess(
      connection,
      logger,
      this.feed,
      schemaVersion >= TRIAGE_ROWS_VERSION
        ? (records) => composeTriage(connection, records)
        : undefined,
    );
    const listed = schemaVersion >= LEDGER_LISTED_VERSION;
    const ledger = new LedgerRows(access, schemaVersion >= LEDGER_SUMS_VERSION, listed);
    this.records = new HistoryRecords(access, schemaVersion, ledger);
    this.queries = new HistoryQueries(access);
    this.leases = new HistoryLeases(access);
    const reads = { pages: new LedgerPages(access, listed), sums: new LedgerSums(access) };
    this.costs = new CostTables(access, ledger, reads);
    this.triage = new HistoryTriage(access);
    this.prompts = new PromptHistory(access, schemaVersion >= PROMPT_HISTORY_VERSION);
    this.templates = new TemplateRows(access);
    this.compares = new CompareGroups(access);
    this.lineage = new LineageRows(access, schemaVersion >= LINEAGE_VERSION);
    this.ids = new IdPrefixes(access);
    this.keptKeyIds = new KeptKeyIds(access);
  }

  /**
   * Opens (creating if needed) and migrates the database at `file`; `':memory:'` is allowed.
   * Throws {@link HistoryError} with a sentence when the file is not a database, is damaged,
   * comes from a newer Pictor or cannot be opened. Other processes may have it open too.
   */
  static open(file: string, options: HistoryStoreOptions = {}): HistoryStore {
    const logger = options.logger ?? silentLogger;
    const migrations = options.migrations ?? HISTORY_MIGRATIONS;
    const { connection, schemaVersion } = openDatabase(file, migrations, logger, {
      integrityCheck: options.integrityCheck,
      factory: options.database,
      checkpointPast: options.checkpointPast,
    });
    return new HistoryStore(connection, schemaVersion, logger, options);
  }

  /**
   * Inserts or replaces the record; on disk when this returns. `updatedAt` is the caller's. The
   * triage of a stored task (its star, and the rating, flag, tags and boards of the images it had)
   * stays as stored: triage is changed by {@link editMany} (triage-rows-schema.ts). Its
   * images' tags and boards past the library's limits are left out (triage-limits.ts: logged),
   * as with every write.
   */
  put(record: TaskRecord): void {
    this.records.put(record);
  }

  /**
   * Inserts or replaces every record in one transaction. With `lease`, the records are leased to
   * its owner in the same transaction, so no other process ever sees them unclaimed.
   */
  putMany(records: readonly TaskRecord[], lease?: LeaseGrant): void {
    this.records.putMany(records, lease);
  }

  /**
   * {@link putMany} for records from outside the library (a rebuild, an import), saying how many
   * of their tags and boards the library's limits left out, for the sentence the user reads.
   * Their prompts join the prompt history (a rebuilt history starts it from its tasks). `carried`:
   * a newer Pictor's fields an import's records came with (history-records.ts CarriedFields).
   */
  putManyCounted(records: readonly TaskRecord[], carried?: CarriedFields): TriageDropped {
    // Their triage is written (an import merged it with the library's: import-library.ts).
    const dropped = this.records.putMany(records, undefined, false, carried);
    this.prompts.noteTasks(records);
    return dropped;
  }

  /**
   * Changes stored records in one transaction: each is read under the write lock (so another
   * process's change in between is never lost), given to `change` (null or the same object:
   * left as it is), and written; `alongside` writes in the same transaction (the triage tables),
   * before the records. Returns the records written.
   */
  editMany(...edit: Parameters<HistoryRecords['editMany']>): TaskRecord[] {
    return this.records.editMany(...edit);
  }

  /**
   * A change of triage alone, read and written in the triage rows alone (from v16): in one
   * transaction, each task's triage as its rows hold it (undefined: no such task) given to
   * `change`, which says each image it changes (before and after); those are written with the
   * task's star or time of change (`at`), and the task's record is neither read nor written.
   * Returns what it wrote of each task (its triage delta, tags and boards past the library's
   * limits left out); null, writing nothing, when the file keeps triage in its records
   * (before v16: the caller edits the records, {@link editMany}).
   */
  editTriageRows(
    localIds: Iterable<string>,
    change: (localId: string, stored: TaskTriage | undefined) => readonly ImageChange[],
    at: number,
  ): TaskTriageDelta[] | null {
    return this.records.editTriageRows(localIds, change, at);
  }

  /**
   * Readies this connection for the first triage write after opening, which would otherwise pay
   * alone for what every later one finds done (the history worker runs it as it starts, off main's
   * thread): the newest `tasks` tasks' triage rows read as a write over them reads them (the pages
   * a rating of the grid's newest images reads), the statements it writes with prepared, and the
   * newest record read through the schema (what their XMP sidecars are written from). Writes and
   * locks nothing; returns how many tasks it read.
   */
  warmTriage(tasks: number): number {
    if (this.schemaVersion < TRIAGE_ROWS_VERSION) return 0;
    const ids = this.taskIds({}, tasks);
    if (ids[0] !== undefined) this.get(ids[0]);
    return warmTriageRows(this.connection, ids);
  }

  /**
   * The records of `localIds` there are, in one read a chunk at a time (absent ones left out).
   */
  getMany(localIds: readonly string[]): TaskRecord[] {
    return this.records.getMany(localIds);
  }

  /**
   * The change log's entries this store's writes made since the last call, kept from the first
   * call on (the history worker's store: main's feed must not report them as another process's).
   */
  takeOwnChanges(): [number, number][] {
    return this.feed.takeOwn();
  }

  /**
   * The change feed waits while the history worker writes for this process: call the returned
   * function once its entries are handed to {@link ownElsewhere} (or the write failed).
   */
  holdChanges(): () => void {
    return this.feed.holdLooks();
  }

  /** Log entries the history worker wrote for this process ({@link takeOwnChanges}): not reported. */
  ownElsewhere(ranges: readonly (readonly [number, number])[]): void {
    this.feed.ownElsewhere(ranges);
  }

  /**
   * What the write of `record` (a record {@link editMany} returned) touched: `triage` when it was
   * a change of triage alone (triage-change.ts, the one definition), which the history wrote to
   * the triage rows alone and the gallery writes to the XMP sidecars alone; else `record`.
   */
  touched(record: TaskRecord): 'triage' | 'record' {
    return this.records.touched(record);
  }

  /**
   * {@link putMany}, the records first passed through `admit` in the same write transaction (no
   * other process writes meanwhile): it may read the history, change the records (as new
   * objects: one given back as it was is not checked again) or refuse them by throwing (nothing
   * is written). The spending caps' check (core/costs) runs here.
   */
  admitMany(
    records: readonly TaskRecord[],
    lease: LeaseGrant | undefined,
    admit: (records: TaskRecord[]) => readonly TaskRecord[],
  ): TaskRecord[] {
    return this.records.admitMany(records, lease, admit);
  }

  /**
   * Leases each task to `owner` until `until` when it is free, its lease ended by `now`, or it
   * is `owner`'s already; returns the ids leased. Atomic across processes: of two claiming the
   * same expired lease at once, one gets it.
   */
  claimLeases(localIds: readonly string[], owner: string, now: number, until: number): string[] {
    return this.leases.claim(localIds, owner, now, until);
  }

  /**
   * Gives the task's lease to `owner` until `until` if it is still `from` (the lease read: the same
   * owner AND the same expiry, so one renewed since is kept), expired or not (the engine does so
   * when `from`'s owner is a process that no longer exists, or stopped renewing). Atomic: of two
   * processes taking over the same lease, one does.
   */
  takeOverLease(localId: string, from: Lease, owner: string, until: number): boolean {
    return this.leases.takeOver(localId, from, owner, until);
  }

  /** Ends `owner`'s leases on `localIds` (all of them when absent); others' are untouched. */
  releaseLeases(owner: string, localIds?: readonly string[]): void {
    this.leases.release(owner, localIds);
  }

  /** The task's lease, if any (possibly expired). */
  leaseOf(localId: string): Lease | undefined {
    return this.leases.of(localId);
  }

  /**
   * The tasks other processes wrote or deleted, reported on a timer until the subscription is
   * disposed or the store closes. This process's own writes are not reported.
   */
  readonly onDidChangeElsewhere: Event<HistoryChanges> = (listener) =>
    this.feed.onDidChange(listener);

  get(localId: string): TaskRecord | undefined {
    return this.records.get(localId);
  }

  /** The newest record of the service task `taskId` on `endpoint`. */
  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    return this.records.byTaskId(endpoint, taskId);
  }

  /** The newest record of the service task `taskId` on any endpoint (the CLI's `resume <id>`). */
  findByTaskId(taskId: string): TaskRecord | undefined {
    return this.records.byTaskIdOnAnyEndpoint(taskId);
  }

  /** Tasks newest first (createdAt, then localId); the cursor stays valid while tasks are added. */
  list(query: HistoryQuery = {}): HistoryPage {
    return this.queries.list(query);
  }

  /** One item per image of every task, newest task first, a task's images in order. */
  listImages(query: ImageQuery = {}): ImagePage {
    return this.queries.listImages(query);
  }

  /**
   * The gallery's anchors of positions on this connection (position-anchors.ts): the history
   * worker's walks are taken in there (position-prebuild.ts).
   */
  get positions(): PositionAnchors {
    return this.queries.anchors;
  }

  /** The next anchors of an order, walked on this connection (the history worker's part). */
  walkAnchors(walk: AnchorWalk): AnchorChunk {
    return this.queries.walkAnchors(walk);
  }

  /** How many images match the filters (for a scrollbar as long as the whole gallery). */
  countImages(query: WholeImageQuery = {}): number {
    return this.queries.countImages(query);
  }

  /** Every image the filters match, newest first, at most `limit` (see whole-set.ts). */
  imageKeys(query: WholeImageQuery, limit: number): ImageKey[] {
    return this.queries.imageKeys(query, limit);
  }

  /** Every task the filter matches, newest first, at most `limit` (see whole-set.ts). */
  taskIds(query: WholeTaskQuery, limit: number): string[] {
    return this.queries.taskIds(query, limit);
  }

  /** Tasks with a saved image whose thumbnail is pending (ImageRecord.thumbnailPending), a few. */
  withPendingThumbnails(limit: number): string[] {
    return this.queries.withPendingThumbnails(limit);
  }

  /** Records the engine still has work for, oldest first (the order to resume them in). */
  unfinished(): TaskRecord[] {
    return this.queries.unfinished();
  }

  /** The time the newest task lists by (its `listedAt`, else `createdAt`); `null`: none. */
  newestListed(): number | null {
    return this.queries.newestListed();
  }

  /**
   * How many tasks a newer Pictor wrote, which this version does not read (a status or a service
   * it does not know): its reads skip them and its writes leave them (history-statements.ts).
   * Counted over indexes, no record read (countNewerTasks); 0 before the ledger (v8), which a
   * library opened here always has.
   */
  countNewerTasks(): number {
    if (this.schemaVersion < LEDGER_VERSION) return 0;
    const sql = countNewerTasks(this.schemaVersion >= NEWER_SERVICE_VERSION);
    return Number(this.connection.get(sql, [])?.['n'] ?? 0);
  }

  /** The local ids of those tasks, in no order: what an export says it left out. */
  newerTaskIds(): string[] {
    if (this.schemaVersion < LEDGER_VERSION) return [];
    const sql = newerTaskIds(this.schemaVersion >= NEWER_SERVICE_VERSION);
    return this.connection.all(sql, []).map((row) => String(row['local_id']));
  }

  /**
   * `record`'s JSON text with the fields a newer Pictor added to its stored record (its own, its
   * request's, its images') kept, as a write here keeps them: what an export puts in the archive.
   * `null` when the stored one has none (or there is none).
   */
  textWithNewerFields(record: TaskRecord): string | null {
    const text = JSON.stringify(record);
    const kept = this.connection.get(SELECT_WITH_NEWER_FIELDS, [text, record.localId])?.['record'];
    return typeof kept === 'string' && kept !== text ? kept : null;
  }

  /** How many tasks match; with only a search, counted in the full-text index alone. */
  count(query: Omit<HistoryQuery, 'limit' | 'cursor'> = {}): number {
    return this.queries.count(query);
  }

  /**
   * Every model that has an image in the gallery, sorted (for the gallery's model filter); with a
   * `slice`, those of its images not found before it (image-models.ts).
   */
  imageModels(slice?: ModelSlice): string[] {
    return this.queries.imageModels(slice);
  }

  /**
   * Removes the record and its image rows; `false` when there was none. The cost ledger keeps
   * the task (a removal tidies a list, never what was spent).
   */
  delete(localId: string): boolean {
    return this.records.delete(localId);
  }

  /**
   * Removes the record from the history and keeps it for the engine's watch, in one transaction:
   * its service still works on it (and may still bill it), so the ledger must learn how it ends.
   * `false` when the history had no such task.
   */
  detach(record: TaskRecord): boolean {
    return this.records.detach(record);
  }

  /** Writes a watched task's change: to the ledger only; ended, it needs no more watching. */
  putWatched(record: TaskRecord): void {
    this.records.putWatched(record);
  }

  /** Puts a watched task back in the history (Undo of its removal). */
  attach(record: TaskRecord): void {
    this.records.attach(record);
  }

  /** Tasks removed from the history whose service still worked on them, oldest first. */
  watched(): TaskRecord[] {
    return this.costs.ledger.watched();
  }

  /** Changes when another connection commits (SQLite's `data_version`; sqlite-connection.ts). */
  dataVersion(): number {
    return this.connection.dataVersion();
  }

  /** Folds the write-ahead log into the file as far as no reader needs it (sqlite-connection.ts). */
  checkpoint(): void {
    this.connection.checkpoint();
  }

  /** Stops the change feed and closes the database. Idempotent. */
  close(): void {
    this.feed.stop();
    if (this.connection.isOpen) this.connection.close();
  }
}
