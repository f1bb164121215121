/**
 * A batch's tasks in the order its submit made them (a template's prompts as it expanded them,
 * each prompt's copies side by side). The history lists tasks by creation time and then by local
 * id, a random one, so the tasks of one submit come together but in no useful order; each record
 * keeps its place in its batch (`batchIndex`), and the loaded list puts every run of neighbours of
 * one batch in that order, so the card, the keyboard and the selection all see the same order.
 */
import type { TaskItem } from '../../shared/ipc/contract';

// Records reach the page through the contract's schema (a damaged place is dropped there), so
// the fields are read as typed.
const batchOf = (item: TaskItem): string | null => item.record.batchId ?? null;

/** Its place in its batch; a task without one (made before places were kept) goes last. */
const placeOf = (item: TaskItem): number => item.record.batchIndex ?? Number.POSITIVE_INFINITY;

function inOrder(run: readonly TaskItem[]): boolean {
  return run.every((item, n) => n === 0 || placeOf(run[n - 1] as TaskItem) <= placeOf(item));
}

/**
 * `items` with each run of neighbours of one batch in the batch's own order (a stable sort: tasks
 * without a place keep theirs among themselves); the same array when every run already is.
 */
export function inBatchOrder(items: TaskItem[]): TaskItem[] {
  let next: TaskItem[] | null = null;
  let start = 0;
  while (start < items.length) {
    const batchId = batchOf(items[start] as TaskItem);
    let end = start + 1;
    while (batchId !== null && end < items.length && batchOf(items[end] as TaskItem) === batchId) {
      end += 1;
    }
    const run = end - start > 1 ? items.slice(start, end) : null;
    if (run && !inOrder(run)) {
      next ??= [...items];
      next.splice(start, run.length, ...run.sort((a, b) => placeOf(a) - placeOf(b)));
    }
    start = end;
  }
  return next ?? items;
}
