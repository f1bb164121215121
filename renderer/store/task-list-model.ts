/**
 * Pure helpers of the task list: status groups for the filter chips, the filter as main takes
 * it, and how pages and live updates merge into the loaded items. Whether a task belongs under
 * the filter is main's to say (shared/ipc/task-changes.ts, `views`), never judged here.
 */
import type { ServiceId } from '../../shared/domain/service-id';
import { listedAt, type TaskRecord, type TaskStatus } from '../../shared/domain/task-record';
import type { TaskItem } from '../../shared/ipc/contract';
import { inBatchOrder } from './batch-order';
import { fresher } from './records-table';

/** The filter chips, each standing for one or more statuses. */
const STATUS_GROUPS = {
  active: ['submitting', 'processing'],
  completed: ['completed'],
  failed: ['failed', 'not_found'],
  notSent: ['submit_failed', 'submit_unknown'],
} as const satisfies Record<string, readonly TaskStatus[]>;
export type StatusGroup = keyof typeof STATUS_GROUPS;
export const STATUS_GROUP_NAMES = Object.keys(STATUS_GROUPS) as StatusGroup[];

export interface TaskFilter {
  /** Words of the prompt, each anywhere and in any order (main's search); '' for all. */
  readonly search: string;
  /** Chips switched on; none means every status. */
  readonly groups: readonly StatusGroup[];
  readonly favourite: boolean;
  /** Only the tasks of one service (a provider's, or the demo's); '' for all. */
  readonly provider: ServiceId | '';
}

export const EMPTY_FILTER: TaskFilter = { search: '', groups: [], favourite: false, provider: '' };

export function isFiltered(filter: TaskFilter): boolean {
  return (
    filter.search.trim() !== '' ||
    filter.groups.length > 0 ||
    filter.favourite ||
    filter.provider !== ''
  );
}

/** The statuses of the chosen groups, or undefined for all. */
function statusesOf(filter: TaskFilter): TaskStatus[] | undefined {
  if (filter.groups.length === 0) return undefined;
  return filter.groups.flatMap((group) => [...STATUS_GROUPS[group]]);
}

/** The `tasks:list` filter fields for a {@link TaskFilter}. */
export function listQuery(filter: TaskFilter): {
  search?: string;
  statuses?: TaskStatus[];
  favourite?: boolean;
  provider?: ServiceId;
} {
  const search = filter.search.trim();
  const statuses = statusesOf(filter);
  return {
    ...(search ? { search } : {}),
    ...(statuses ? { statuses } : {}),
    ...(filter.favourite ? { favourite: true } : {}),
    ...(filter.provider ? { provider: filter.provider } : {}),
  };
}

/** Newest first, like the history: by the time a task lists by (listedAt), then local id. */
function newerFirst(a: TaskRecord, b: TaskRecord): number {
  const [at, bt] = [listedAt(a), listedAt(b)];
  if (at !== bt) return bt - at;
  return a.localId < b.localId ? 1 : a.localId > b.localId ? -1 : 0;
}

/**
 * Merges items into the loaded list. Known items are replaced (if not older); unknown ones (that
 * belong to the list: the caller knows from main) newer than the loaded tail are inserted in
 * order (a batch's tasks in the order they were made: batch-order.ts). Returns the new list and
 * how many items were added.
 */
export function upsertItems(
  items: readonly TaskItem[],
  incoming: readonly TaskItem[],
  complete: boolean,
): { items: TaskItem[]; added: number } {
  const next = [...items];
  const index = new Map(next.map((item, position) => [item.record.localId, position]));
  const fresh: TaskItem[] = [];
  for (const item of incoming) {
    const position = index.get(item.record.localId);
    const known = position === undefined ? undefined : next[position];
    if (position !== undefined && known) next[position] = fresher(known, item);
    else fresh.push(item);
  }
  const tail = next[next.length - 1];
  // An unknown item older than everything loaded belongs to a page not loaded yet.
  const placeable = fresh.filter(
    (item) => complete || !tail || newerFirst(item.record, tail.record) < 0,
  );
  if (placeable.length === 0) return { items: next, added: 0 };
  const merged = [...next, ...placeable].sort((a, b) => newerFirst(a.record, b.record));
  return { items: inBatchOrder(merged), added: placeable.length };
}

/**
 * One row of the history as the list draws it: the tasks one submit created ("Generate 3") side
 * by side, or a task alone. `start` is the index of its first task in the loaded items.
 */
export interface TaskGroup {
  readonly start: number;
  readonly size: number;
  /** The batch the tasks share; null for a task alone (a submit of one, a tracked task). */
  readonly batchId: string | null;
}

/** The batch id of an item, read defensively: a damaged record may have anything there. */
function batchOf(item: TaskItem | undefined): string | null {
  const batchId = (item?.record as { batchId?: unknown } | undefined)?.batchId;
  return typeof batchId === 'string' && batchId !== '' ? batchId : null;
}

/**
 * The loaded items as rows: neighbours of the same batch form one group (a batch's tasks share
 * their creation time, so the history lists them together). A batch split by a page boundary is
 * one group again once the next page is in; an item `groupable` refuses (a damaged record) stays
 * alone, and `groupable` is asked only of items that have a batch. O(items).
 */
export function groupItems(
  items: readonly TaskItem[],
  groupable: (item: TaskItem) => boolean = () => true,
): TaskGroup[] {
  const groups: TaskGroup[] = [];
  // The batch first: `groupable` may be dear (the feed's is a schema check of the record), and a
  // task without a batch stays alone whatever it says. At start-up that check of every loaded
  // record came before the first rows were drawn.
  const batchAt = (index: number): string | null => {
    const item = items[index];
    const batchId = batchOf(item);
    return batchId !== null && item !== undefined && groupable(item) ? batchId : null;
  };
  for (let start = 0; start < items.length;) {
    const batchId = batchAt(start);
    let end = start + 1;
    while (batchId !== null && end < items.length && batchAt(end) === batchId) end += 1;
    groups.push({ start, size: end - start, batchId });
    start = end;
  }
  return groups;
}

/**
 * The row that shows task `index`: a loaded task's group, or for a task not loaded yet its own
 * placeholder row after the groups (`loaded` items were grouped into `groups`).
 */
export function rowOfTask(groups: readonly TaskGroup[], loaded: number, index: number): number {
  if (index >= loaded) return groups.length + (index - loaded);
  let low = 0;
  let high = groups.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((groups[middle]?.start ?? 0) <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}
