/**
 * The rows of the task feed: where each comes from (a group of loaded tasks, or a task not loaded
 * yet) and how it is drawn.
 */
import { useMemo } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { useAppStore } from '../../store/app-store';
import type { AppState } from '../../store/app-state';
import { groupItems, type TaskGroup } from '../../store/task-list-model';
import { TaskBatchRow } from './task-batch-row';
import { PlaceholderRow, TaskRow } from './task-row';
import { UnreadableRow, recordProblem } from './unreadable-row';
import type { FixedRow } from './use-fixed-rows';

type Items = AppState['tasksItems'];

/** Where each row of the feed comes from: a group of loaded tasks, or a task not loaded yet. */
export interface Layout {
  readonly groups: readonly TaskGroup[];
  readonly loaded: number;
  readonly rowCount: number;
}

/** The history index of the last task row `row` shows. */
export function lastTaskOf(layout: Layout, row: number): number {
  const group = layout.groups[row];
  if (group) return group.start + group.size - 1;
  return layout.loaded + (row - layout.groups.length);
}

/** A record's problem decides whether it may join a group: a damaged one is drawn alone. */
const readable = (item: { record: unknown }): boolean => recordProblem(item.record) === null;

export function useLayout(): Layout {
  const items = useAppStore((state) => state.tasksItems);
  const total = useAppStore((state) => state.tasksTotal);
  const groups = useMemo(() => groupItems(items, readable), [items]);
  return {
    groups,
    loaded: items.length,
    rowCount: groups.length + Math.max(0, total - items.length),
  };
}

/** The row's React key: its first task's local id, its position when the record has none to give. */
export function feedRowKey(layout: Layout, items: Items, row: number): string {
  const group = layout.groups[row];
  if (!group) return `placeholder-${layout.loaded + (row - layout.groups.length)}`;
  const localId = (items[group.start]?.record as { localId?: unknown } | null)?.localId;
  return typeof localId === 'string' ? localId : `unreadable-${group.start}`;
}

interface FeedRowProps {
  readonly row: FixedRow;
  readonly layout: Layout;
  readonly items: Items;
  readonly total: number;
  /** The task in the tab order. */
  readonly tabTask: number;
  readonly rowHeight: number;
  readonly onRemove: (record: TaskRecord) => void;
}

/** One row: a placeholder, a task alone or the tasks of one submit side by side. */
export function FeedRow({ row, layout, items, total, tabTask, rowHeight, onRemove }: FeedRowProps) {
  const group = layout.groups[row.index];
  if (!group) {
    const index = layout.loaded + (row.index - layout.groups.length);
    return <PlaceholderRow index={index} total={total} top={row.start} height={rowHeight} />;
  }
  const item = items[group.start];
  if (!item) return null;
  const place = {
    index: group.start,
    total,
    current: group.start === tabTask,
    top: row.start,
    height: rowHeight,
  };
  return (
    // One row that throws while drawing says so; the list and the other rows stay.
    <ErrorBoundary
      resetKey={item}
      fallback={(error) => <UnreadableRow {...place} detail={errorDetail(error)} />}
    >
      {group.size > 1 ? (
        <TaskBatchRow
          items={items.slice(group.start, group.start + group.size)}
          start={group.start}
          total={total}
          current={tabTask}
          top={row.start}
          height={rowHeight}
          onRemove={onRemove}
        />
      ) : (
        <TaskRow item={item} {...place} onRemove={onRemove} />
      )}
    </ErrorBoundary>
  );
}
