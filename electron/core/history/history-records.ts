/**
 * The task records of the history: written whole as JSON beside the columns listing, filtering and
 * search need, one image row per image; read back one at a time through the schema.
 */
import { isUnfinished, listedAt, type TaskRecord } from '../../../shared/domain/task-record';
import type { ImageTriage } from '../../../shared/domain/triage';
import { type TaskTriageDelta, triageDelta } from '../../../shared/domain/triage-delta';
import { providerOf } from '../../../shared/domain/providers';
import { countedCost } from '../../../shared/domain/task-cost';
import type { HistoryAccess } from './history-access';
import type { LeaseGrant } from './history-leases';
import type { LedgerRows } from './ledger-rows';
import { keptNewerRow, newestRow, recordsFromRows } from './history-rows';
import { type CarriedFields, textWithCarried } from './carried-fields';
import { rememberCheckedText } from './checked-texts';
import { validate } from './record-validate';
import {
  COSTS_VERSION,
  DELETE_TASK,
  LEDGER_VERSION,
  SELECT_BY_TASK_ID,
  SELECT_BY_TASK_ID_ANY_ENDPOINT,
  SELECT_TASK,
  SELECT_TASK_ROW_ID,
  SELECT_TASKS_IN,
  SET_LEASE,
  COST_COLUMNS,
  upsertTask,
} from './history-statements';
import { type ImageChange, writeTaskTriage, writeTriageRowsOnly } from './triage-write';
import { ImageRows } from './image-rows';
import { readTriage, recordWithoutTriage, type TaskTriage as StoredTriage } from './triage-compose';
import { imagesOnly } from './triage-change';
import { LibraryLimits, type TriageDropped } from './triage-limits';
import type { SqlValue } from './sqlite-connection';
import {
  COMPARE_GROUP_VERSION,
  LINEAGE_VERSION,
  MADE_AT_VERSION,
  TEMPLATE_VERSION,
} from './history-schema';
import { madeAtColumn } from './made-at';
import { LINEAGE_COLUMNS, lineageColumns } from './lineage-schema';

/** The columns a task row's write binds beyond the first version's, by the schema's version. */
function laterColumns(version: number): {
  names: string[];
  values: (record: TaskRecord) => SqlValue[];
} {
  const parts: [readonly string[], (record: TaskRecord) => SqlValue[]][] = [];
  if (version >= COSTS_VERSION) parts.push([COST_COLUMNS, costColumns]);
  if (version >= COMPARE_GROUP_VERSION) {
    parts.push([['compare_group'], (record) => [record.compare?.group ?? null]]);
  }
  if (version >= TEMPLATE_VERSION) {
    parts.push([['template_id'], (record) => [record.template?.id ?? null]]);
  }
  if (version >= LINEAGE_VERSION) parts.push([LINEAGE_COLUMNS, lineageColumns]);
  if (version >= MADE_AT_VERSION) parts.push([['made_at'], (record) => [madeAtColumn(record)]]);
  return {
    names: parts.flatMap(([names]) => names),
    values: (record) => parts.flatMap(([, values]) => values(record)),
  };
}

/** `keep` of a write: leave the stored triage of the images already stored (image-rows.ts). */
const KEEP = true;

/** Records {@link HistoryRecords.editMany} reads in one statement. */
export const READ_CHUNK = 500;

export class HistoryRecords {
  /** The row's write at this schema version (built once): every column in one statement. */
  private readonly upsert: string;
  /** {@link upsert} leaving a stored task's star as it is (from v16: a write that keeps triage). */
  private readonly upsertKeeping: string;
  private readonly later: ReturnType<typeof laterColumns>;
  private readonly images: ImageRows;
  /** The records {@link editMany} wrote as a change of triage alone (see {@link touched}). */
  private readonly triageWrites = new WeakSet<TaskRecord>();

  constructor(
    private readonly access: HistoryAccess,
    private readonly schemaVersion: number,
    /** The cost ledger, which notes every record written (from schema v8). */
    private readonly ledger: LedgerRows,
  ) {
    this.later = laterColumns(schemaVersion);
    this.upsert = upsertTask(this.later.names);
    this.upsertKeeping = upsertTask(this.later.names, ['favourite']);
    this.images = new ImageRows(access.connection, schemaVersion);
  }

  /** See {@link HistoryStore.put}. */
  put(record: TaskRecord): void {
    const valid = validate(record);
    this.limited((limits) => this.write(limits.admit(valid), KEEP));
  }

  /**
   * See {@link HistoryStore.putMany}; `keep` (default): the triage of images already stored stays
   * (image-rows.ts), else the records' triage is written (an import's or a rebuild's); `carried`:
   * see {@link CarriedFields}.
   */
  putMany(
    records: readonly TaskRecord[],
    lease?: LeaseGrant,
    keep = KEEP,
    carried?: CarriedFields,
  ): TriageDropped {
    return this.writeMany(records, lease, (valid) => valid, { keep, carried }).dropped;
  }

  /**
   * {@link putMany}, the records first passed through `admit` in the same write transaction: it
   * may read the history (nothing else can write meanwhile) and change them (a new object, checked
   * as it is written) or refuse them (throw: nothing is written). Returns the records as written.
   */
  admitMany(
    records: readonly TaskRecord[],
    lease: LeaseGrant | undefined,
    admit: (valid: TaskRecord[]) => readonly TaskRecord[],
  ): TaskRecord[] {
    return this.writeMany(records, lease, admit, { keep: KEEP }).result;
  }

  private writeMany(
    records: readonly TaskRecord[],
    lease: LeaseGrant | undefined,
    admit: (valid: TaskRecord[]) => readonly TaskRecord[],
    how: { readonly keep: boolean; readonly carried?: CarriedFields | undefined },
  ): { result: TaskRecord[]; dropped: TriageDropped } {
    const valid = records.map(validate);
    const checked = new Set<TaskRecord>(valid); // what `admit` made anew is checked again
    return this.limited((limits) => {
      const admitted = admit(valid).map((r) => limits.admit(checked.has(r) ? r : validate(r)));
      admitted.forEach((record) => this.write(record, how.keep, how.carried?.get(record.localId)));
      if (lease) {
        for (const record of admitted)
          this.access.connection.run(SET_LEASE, [record.localId, lease.owner, lease.until]);
      }
      return admitted;
    });
  }

  /**
   * `work` in one write transaction with the library's limits on triage (triage-limits.ts): what
   * it returns, and the memberships its records lost to them (logged, when any).
   */
  private limited<T>(work: (limits: LibraryLimits) => T): { result: T; dropped: TriageDropped } {
    const { result, dropped } = this.access.writeTransaction(() => {
      const limits = new LibraryLimits(this.access.connection);
      return { result: work(limits), dropped: limits.dropped };
    });
    if (dropped.tags + dropped.boards > 0) {
      this.access.logger.warn("tags or boards past the library's limits were left out", {
        ...dropped,
      });
    }
    return { result, dropped };
  }

  /** See {@link HistoryStore.editMany}. */
  editMany(
    localIds: Iterable<string>,
    change: (stored: TaskRecord) => TaskRecord | null,
    alongside?: () => void,
    absent?: TaskRecord,
  ): TaskRecord[] {
    return this.limited((limits) => {
      // First: a board moved (boards.ts) is in the table before the records naming it are.
      alongside?.();
      const written: TaskRecord[] = [];
      const ids = [...new Set(localIds)];
      // Read a chunk at a time: one statement for many rows, not one each.
      for (let at = 0; at < ids.length; at += READ_CHUNK) {
        const chunk = ids.slice(at, at + READ_CHUNK);
        const stored = this.readMany(chunk);
        for (const localId of chunk) {
          const record = stored.get(localId);
          if (!record && absent?.localId === localId) written.push(this.writeNew(limits, absent));
          const next = record && change(record);
          if (next && next !== record) written.push(this.writeEdit(limits, record, next));
        }
      }
      return written;
    }).result;
  }

  /**
   * See {@link HistoryStore.editTriageRows}: each task's triage read from its rows a chunk at a
   * time, `change` given it (undefined: no such task) and what it changed written to the rows,
   * a tag or a board it adds within the library's limits (triage-limits.ts).
   */
  editTriageRows(
    localIds: Iterable<string>,
    change: (localId: string, stored: StoredTriage | undefined) => readonly ImageChange[],
    at: number,
  ): TaskTriageDelta[] | null {
    if (!this.images.triageInRows) return null;
    const { connection } = this.access;
    return this.limited((limits) => {
      const written: TaskTriageDelta[] = [];
      const ids = [...new Set(localIds)];
      for (let from = 0; from < ids.length; from += READ_CHUNK) {
        const chunk = ids.slice(from, from + READ_CHUNK);
        const stored = readTriage(connection, chunk);
        for (const localId of chunk) {
          const triage = stored.get(localId);
          const asked = change(localId, triage);
          if (!triage || asked.length === 0) continue;
          // A tag or a board added is admitted within the library's limits; a rating is not read.
          const changes = asked.map(([idx, before, after]) => {
            const lists = after.tags === before.tags && after.boards === before.boards;
            return [idx, before, lists ? after : limits.admitTriage(after, before)] as const;
          });
          const images = new Map<number, ImageTriage>(triage.images);
          for (const [idx, , after] of changes) images.set(idx, after);
          // The task's star is its images' (favourites.ts): a pick stars it.
          const star = [...images.values()].some((image) => image.favourite === true);
          writeTaskTriage(connection, { localId, star: [triage.favourite, star], at }, changes);
          const updatedAt = Math.max(triage.updatedAt, at);
          const after = changes.map(([idx, , image]) => [idx, image] as const);
          written.push(triageDelta({ localId, favourite: star, updatedAt }, after));
        }
      }
      return written;
    }).result;
  }

  /** Writes a record there was none of (editMany's `absent`) whole, as {@link put} does. */
  private writeNew(limits: LibraryLimits, record: TaskRecord): TaskRecord {
    const valid = limits.admit(validate(record));
    this.write(valid, KEEP);
    return valid;
  }

  /** Writes `next` over `stored` (editMany's one record), only what changed when it can. */
  private writeEdit(limits: LibraryLimits, stored: TaskRecord, next: TaskRecord): TaskRecord {
    // A change of the images alone is checked on the images alone (the rest is the stored
    // record's own, read through the schema a moment ago); when that found it a change of
    // triage alone (the limits drop tags and boards only), only the triage rows are written.
    const checked = imagesOnly(stored, next);
    const valid = limits.admit(checked?.record ?? validate(next), stored);
    if (checked?.triageOnly === true) this.triageWrites.add(valid);
    if (checked?.triageOnly === true && this.images.triageInRows) {
      writeTriageRowsOnly(this.access.connection, stored, valid);
    } else {
      // The user's edit, read under the write lock: its triage is written too.
      this.write(valid, !KEEP);
    }
    return valid;
  }

  /** See {@link HistoryStore.touched}. */
  touched(record: TaskRecord): 'triage' | 'record' {
    return this.triageWrites.has(record) ? 'triage' : 'record';
  }

  /** See {@link HistoryStore.getMany}. */
  getMany(localIds: readonly string[]): TaskRecord[] {
    const records: TaskRecord[] = [];
    for (let at = 0; at < localIds.length; at += READ_CHUNK) {
      const chunk = localIds.slice(at, at + READ_CHUNK);
      const stored = this.readMany(chunk);
      for (const localId of chunk) {
        const record = stored.get(localId);
        if (record) records.push(record);
      }
    }
    return records;
  }

  /** The records of `localIds` there are (one statement), by local id. */
  private readMany(localIds: readonly string[]): Map<string, TaskRecord> {
    const records = new Map<string, TaskRecord>();
    const rows = this.access.rows(SELECT_TASKS_IN, [JSON.stringify(localIds)]);
    for (const record of recordsFromRows(rows, this.access)) records.set(record.localId, record);
    return records;
  }

  get(localId: string): TaskRecord | undefined {
    return this.readOne(SELECT_TASK, [localId]);
  }

  byTaskId(endpoint: string, taskId: string): TaskRecord | undefined {
    return this.readOne(SELECT_BY_TASK_ID, [endpoint, taskId]);
  }

  byTaskIdOnAnyEndpoint(taskId: string): TaskRecord | undefined {
    return this.readOne(SELECT_BY_TASK_ID_ANY_ENDPOINT, [taskId]);
  }

  /** Removes the record and its image rows; `false` when there was none. */
  delete(localId: string): boolean {
    const { connection } = this.access;
    return this.access.writeTransaction(() => {
      this.deleteImageRows(localId);
      return connection.run(DELETE_TASK, [localId]).changes > 0;
    });
  }

  /** See {@link HistoryStore.detach}. */
  detach(record: TaskRecord): boolean {
    const valid = validate(record);
    const { connection } = this.access;
    return this.access.writeTransaction(() => {
      this.deleteImageRows(valid.localId);
      const removed = connection.run(DELETE_TASK, [valid.localId]).changes > 0;
      if (removed) this.watchOrEnd(valid);
      return removed;
    });
  }

  /** See {@link HistoryStore.putWatched}. */
  putWatched(record: TaskRecord): void {
    const valid = validate(record);
    this.access.writeTransaction(() => this.watchOrEnd(valid));
  }

  /** See {@link HistoryStore.attach}. */
  attach(record: TaskRecord): void {
    const valid = validate(record);
    this.limited((limits) => {
      this.ledger.unwatch(valid.localId);
      this.write(limits.admit(valid), KEEP);
    });
  }

  private watchOrEnd(record: TaskRecord): void {
    this.ledger.note(record);
    // Its images are not downloaded (the user removed it): it ends when its service ends it.
    if (record.status === 'submitting' || record.status === 'processing') this.ledger.watch(record);
    else this.ledger.unwatch(record.localId);
  }

  /**
   * Writes a record the schema checked (`validate`, or `imagesOnly` for a triage change); `keep`:
   * from v16 the task's star and the triage of the images already stored stay (image-rows.ts);
   * `carried`: a newer Pictor's fields the record came with (see {@link CarriedFields}).
   */
  private write(record: TaskRecord, keep: boolean, carried?: string): void {
    const { connection } = this.access;
    // The model filter lists (and matches) what the service said it used, else what was asked.
    const model = record.reportedModel ?? record.request.model ?? null;
    const inRows = this.images.triageInRows;
    // From v16 the record's JSON holds no triage: its rows are its one home.
    const own = JSON.stringify(inRows ? recordWithoutTriage(record) : record);
    const text = textWithCarried(connection, own, carried);
    const { changes } = connection.run(keep && inRows ? this.upsertKeeping : this.upsert, [
      record.localId,
      record.taskId,
      record.endpoint,
      record.status,
      record.request.prompt,
      model,
      record.favourite ? 1 : 0,
      // The list's order time (listedAt): the time the clock said, unless it stood behind.
      listedAt(record),
      record.updatedAt,
      isUnfinished(record) ? 1 : 0,
      text,
      ...this.later.values(record),
    ]);
    // A newer Pictor's task at this local id: left as it is, with its images and ledger row.
    if (changes === 0) return keptNewerRow(this.access.logger, record.localId);
    // A text with fields the schema never checked is read back through it.
    if (text === own) rememberCheckedText(text);
    // The row's id, inserted or kept, read in the same transaction (SELECT_TASK_ROW_ID).
    const id = connection.get(SELECT_TASK_ROW_ID, [record.localId])?.['id'];
    this.images.write(record, Number(id), model, keep);
    if (this.schemaVersion >= LEDGER_VERSION) this.ledger.note(record);
  }

  private deleteImageRows(localId: string): void {
    this.images.delete(localId);
  }

  /** The record of the row `sql` reads; of several (a service id's), the newest (no SQL sort). */
  private readOne(sql: string, params: SqlValue[]): TaskRecord | undefined {
    const row = newestRow(this.access.rows(sql, params));
    return row ? recordsFromRows([row], this.access)[0] : undefined;
  }
}

/** The cost columns of a task row (history-schema.ts v7): none for a record without a cost. */
function costColumns(record: TaskRecord): SqlValue[] {
  const { cost } = record;
  const counted = countedCost(cost);
  return [providerOf(record), cost?.source ?? null, counted?.unit ?? null, counted?.micros ?? null];
}
