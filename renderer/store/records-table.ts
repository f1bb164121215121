/**
 * The page's one records table: every task the page shows, once, by its local id (as Redux's
 * normalized state keeps it). The task list, the compare view and the details are lists of ids
 * over it (records-slice.ts); a record that changes is written here once, and every view that
 * names it shows the change. The helpers never write a table: each answers a new one (a layer of
 * its changes over the old one's records, records-layers.ts) and notes which ids it wrote
 * (`changedSince`), or the same table when nothing changed, so a selector over an unchanged task
 * answers the same item.
 */
import type { TaskItem, TaskLivePart } from '../../shared/ipc/contract';
import { TableDraft } from './records-layers';
import { sameData } from './same-again';

/**
 * Each task the page holds, by local id (a Map: an id is any string main sends, `__proto__`
 * included, never an object's key).
 */
export type RecordsTable = ReadonlyMap<string, TaskItem>;

export const EMPTY_RECORDS: RecordsTable = new Map();

/**
 * How a table was written from the one before: the ids whose record it wrote, changed or dropped.
 * Steps hold serial numbers, never tables, so an old table is not kept alive by its successors.
 */
interface Step {
  readonly from: number;
  readonly ids: ReadonlySet<string>;
}

/** The steps of the newest tables, by serial; older ones are forgotten (a reader then re-reads). */
const STEPS_KEPT = 64;
const steps = new Map<number, Step>();
const serials = new WeakMap<RecordsTable, number>();
let lastSerial = 0;

function serialOf(table: RecordsTable): number {
  let serial = serials.get(table);
  if (serial === undefined) {
    lastSerial += 1;
    serial = lastSerial;
    serials.set(table, serial);
  }
  return serial;
}

/** Notes that `next` is `from` with the records of `ids` written or dropped; answers `next`. */
function derived(from: RecordsTable, next: RecordsTable, ids: ReadonlySet<string>): RecordsTable {
  const step = { from: serialOf(from), ids };
  steps.set(serialOf(next), step);
  const oldest = steps.keys().next();
  if (steps.size > STEPS_KEPT && !oldest.done) steps.delete(oldest.value);
  return next;
}

/**
 * The ids whose record differs between `earlier` and `table` when `table` was written from it by
 * the helpers below (a few steps at most); null when that is not known (then every id may have).
 * A view over thousands of records reads only these when the table moves (record-selectors.ts).
 */
export function changedSince(
  table: RecordsTable,
  earlier: RecordsTable,
): ReadonlySet<string> | null {
  const target = serials.get(earlier);
  let at = serials.get(table);
  if (target === undefined || at === undefined) return null;
  const ids = new Set<string>();
  while (at !== target) {
    const step: Step | undefined = steps.get(at);
    if (!step) return null;
    for (const id of step.ids) ids.add(id);
    at = step.from;
  }
  return ids;
}

/**
 * The item that should stay: an update never replaces a newer state with an older one, and the
 * same state sent again (the gallery's first page brings the tasks the list has loaded, a page
 * overlaps the one before) leaves the item the page holds. A new object for the same task drew
 * every row and tile that shows it again and had each view check its record again.
 */
export function fresher(current: TaskItem, incoming: TaskItem): TaskItem {
  const [now, then] = [incoming.record.updatedAt, current.record.updatedAt];
  if (now !== then) return now > then ? incoming : current;
  return sameData(incoming, current) ? current : incoming;
}

/** A task's live part applied onto the item the page has; an older part changes nothing. */
export function withLivePart(item: TaskItem, part: TaskLivePart): TaskItem {
  if (part.updatedAt < item.record.updatedAt) return item;
  const { updatedAt, polls, lastPolledAt, live } = part;
  return { record: { ...item.record, updatedAt, polls, lastPolledAt }, live };
}

/** The table `draft` wrote, noted as a step from the one it was read from (or that one). */
function written(table: RecordsTable, draft: TableDraft): RecordsTable {
  const next = draft.done();
  return next ? derived(table, next.table, next.ids) : table;
}

/** The table with `items` written in (a newer state wins); the same table when none changed it. */
export function recordsWith(table: RecordsTable, items: Iterable<TaskItem>): RecordsTable {
  const draft = new TableDraft(table);
  for (const item of items) {
    const localId = item.record.localId;
    const known = draft.get(localId);
    const kept = known ? fresher(known, item) : item;
    if (kept !== known) draft.set(localId, kept);
  }
  return written(table, draft);
}

/** The table with live parts applied onto the records it holds (others are ignored). */
export function recordsWithLive(table: RecordsTable, parts: Iterable<TaskLivePart>): RecordsTable {
  const draft = new TableDraft(table);
  for (const part of parts) {
    const known = draft.get(part.localId);
    const after = known && withLivePart(known, part);
    if (after !== known && after) draft.set(part.localId, after);
  }
  return written(table, draft);
}

/** The table without the tasks of `localIds` (they left the history). */
export function recordsWithout(table: RecordsTable, localIds: Iterable<string>): RecordsTable {
  const draft = new TableDraft(table);
  for (const localId of localIds) {
    if (draft.has(localId)) draft.delete(localId);
  }
  return written(table, draft);
}

/**
 * The items of `ids` in the table, in order (an id the table lacks is skipped); `previous` when
 * it holds the very same items, so a view whose tasks did not change is not drawn again.
 */
export function itemsOf(
  table: RecordsTable,
  ids: readonly string[],
  previous: readonly TaskItem[] = [],
): readonly TaskItem[] {
  const items: TaskItem[] = [];
  let same = true;
  for (const localId of ids) {
    const item = table.get(localId);
    if (!item) continue;
    if (items.length >= previous.length || previous[items.length] !== item) same = false;
    items.push(item);
  }
  return same && items.length === previous.length ? previous : items;
}

/** The table with only the records `held` names (the others left every view); the same when none left. */
export function recordsHeld(table: RecordsTable, held: ReadonlySet<string>): RecordsTable {
  const draft = new TableDraft(table);
  for (const localId of table.keys()) {
    if (!held.has(localId)) draft.delete(localId);
  }
  return written(table, draft);
}
