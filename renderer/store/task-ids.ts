/**
 * The task list as ids over the records table (records-table.ts): a page of `tasks:list` read
 * as ids plus the records to write, and the list's order (batch-order.ts) and merging
 * (task-list-model.ts) applied through the table, so the list holds no record of its own.
 */
import type { TaskItem } from '../../shared/ipc/contract';
import { inBatchOrder } from './batch-order';
import type { ListPage } from './paged-list';
import type { RecordsTable } from './records-table';
import { upsertItems } from './task-list-model';

/** A page of the task list: its ids, and the records the table takes. */
export interface TaskPage extends ListPage<string> {
  readonly records: readonly TaskItem[];
}

/** A `tasks:list` answer as a page of ids. */
export function taskPage(answer: ListPage<TaskItem>): TaskPage {
  return {
    items: answer.items.map((item) => item.record.localId),
    nextCursor: answer.nextCursor,
    records: answer.items,
  };
}

/** The records a page brings (none for a page of ids alone). */
function recordsOfPage(page: ListPage<string>): readonly TaskItem[] {
  const records = (page as Partial<TaskPage>).records;
  return Array.isArray(records) ? records : [];
}

/** A lookup of records: the page's first, then the table's. */
function lookup(table: RecordsTable, extra: readonly TaskItem[]) {
  const fresh = new Map(extra.map((item) => [item.record.localId, item]));
  return (localId: string): TaskItem | undefined => fresh.get(localId) ?? table.get(localId);
}

/** The items of `ids` (an id without a record is left out). */
function itemsFor(ids: readonly string[], find: (localId: string) => TaskItem | undefined) {
  return ids.flatMap((localId) => find(localId) ?? []);
}

const idOf = (item: TaskItem): string => item.record.localId;

/** The ids with each batch's tasks in the order its submit made them (batch-order.ts). */
export function idsInBatchOrder(
  ids: string[],
  table: RecordsTable,
  page?: ListPage<string>,
): string[] {
  const items = itemsFor(ids, lookup(table, page ? recordsOfPage(page) : []));
  const arranged = inBatchOrder(items);
  return arranged === items && items.length === ids.length ? ids : arranged.map(idOf);
}

/**
 * The ids with the new tasks of `incoming` placed in the history's order (see `upsertItems`:
 * one older than the loaded tail waits for its page); how many were added.
 */
export function idsWithNew(
  ids: string[],
  incoming: readonly TaskItem[],
  table: RecordsTable,
  complete: boolean,
): { ids: string[]; added: number } {
  const known = new Set(ids);
  const fresh = incoming.filter((item) => !known.has(idOf(item)));
  if (fresh.length === 0) return { ids, added: 0 };
  const merged = upsertItems(itemsFor(ids, lookup(table, [])), fresh, complete);
  return merged.added === 0
    ? { ids, added: 0 }
    : { ids: merged.items.map(idOf), added: merged.added };
}
