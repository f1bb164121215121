/**
 * The rows of the task feed: where each comes from (a group of loaded tasks, or a task not loaded
 * yet), where it sits (a batch's card is as tall as its results need), and how it is drawn.
 */
import { useCallback, useLayoutEffect, useMemo, useState, type RefObject } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { useAppStore } from '../../store/app-store';
import { selectTaskItems } from '../../store/record-selectors';
import { groupItems, rowOfTask, type TaskGroup } from '../../store/task-list-model';
import type { BatchGeometry } from './batch-geometry';
import { TaskBatchRow } from './task-batch-row';
import { useBatchCards } from './use-batch-cards';
import { PlaceholderRow, TaskRow } from './task-row';
import { recordProblem } from '../../store/record-problem';
import { UnreadableRow } from './unreadable-row';
import { rowPlaces, type FixedRow, type RowPlaces } from './use-fixed-rows';
import type { FeedMetrics } from './use-row-height';

type Items = readonly TaskItem[];

/** Where each row of the feed comes from: a group of loaded tasks, or a task not loaded yet. */
export interface Layout {
  readonly groups: readonly TaskGroup[];
  readonly loaded: number;
  readonly rowCount: number;
  /** Each row's top and height. */
  readonly places: RowPlaces;
  /** Each group's card when it is a batch (null for a task alone). */
  readonly cards: readonly (BatchGeometry | null)[];
  /** Changes whenever a drawn card's head changed its height (use-batch-cards.ts). */
  readonly measured: number;
  /** Opens or closes a batch's "+N". */
  readonly toggleBatch: (batchId: string) => void;
  /** A drawn card's head is `height` px tall. */
  readonly reportHead: (batchId: string, height: number) => void;
  /** Opens the batch whose "+N" hides task `index`, so the keys can move to it. */
  readonly reveal: (index: number) => void;
}

/** The history index of the last task row `row` shows. */
export function lastTaskOf(layout: Layout, row: number): number {
  const group = layout.groups[row];
  if (group) return group.start + group.size - 1;
  return layout.loaded + (row - layout.groups.length);
}

/** A record's problem decides whether it may join a group: a damaged one is drawn alone. */
const readable = (item: { record: unknown }): boolean => recordProblem(item.record) === null;

/**
 * The width the feed's rows have (the list's content box), and again whenever it changes;
 * `initial` (the remembered one, store/feed-box-memory.ts, or 0) until it is measured, in the first
 * commit. `onWidth` is told each width measured.
 */
export function useContentWidth(
  scroller: RefObject<HTMLElement | null>,
  initial = 0,
  onWidth?: (width: number) => void,
): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const read = (): void => {
      const style = getComputedStyle(element);
      const padding =
        (Number.parseFloat(style.paddingInlineStart) || 0) +
        (Number.parseFloat(style.paddingInlineEnd) || 0);
      const measured = Math.max(0, element.clientWidth - padding);
      onWidth?.(measured);
      setWidth(measured);
    };
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [scroller, onWidth]);
  return width;
}

export function useLayout(width: number, metrics: FeedMetrics): Layout {
  const items = useAppStore(selectTaskItems);
  const total = useAppStore((state) => state.tasksTotal);
  const groups = useMemo(() => groupItems(items, readable), [items]);
  const { cards, setOpen, reportHead, measured } = useBatchCards(groups, width, metrics.batch);
  const rowCount = groups.length + Math.max(0, total - items.length);
  const places = useMemo(
    () =>
      rowPlaces(
        cards.map((card) => card?.height ?? metrics.rowHeight),
        rowCount,
        metrics.rowHeight,
      ),
    [cards, rowCount, metrics.rowHeight],
  );
  const reveal = useCallback(
    (index: number) => {
      const row = rowOfTask(groups, items.length, index);
      const group = groups[row];
      const card = cards[row];
      if (group?.batchId && card && index - group.start >= card.shown) setOpen(group.batchId, true);
    },
    [groups, cards, items.length, setOpen],
  );
  return useMemo(
    () => ({
      groups,
      loaded: items.length,
      rowCount,
      places,
      cards,
      measured,
      toggleBatch: setOpen,
      reportHead,
      reveal,
    }),
    [groups, items.length, rowCount, places, cards, measured, setOpen, reportHead, reveal],
  );
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
  readonly onRemove: (record: TaskRecord) => void;
}

/** One row: a placeholder, a task alone or the tasks of one submit as one card. */
export function FeedRow({ row, layout, items, total, tabTask, onRemove }: FeedRowProps) {
  const group = layout.groups[row.index];
  if (!group) {
    const index = layout.loaded + (row.index - layout.groups.length);
    return <PlaceholderRow index={index} total={total} top={row.start} height={row.height} />;
  }
  const item = items[group.start];
  if (!item) return null;
  const card = layout.cards[row.index];
  const place = {
    index: group.start,
    total,
    current: group.start === tabTask,
    top: row.start,
    height: row.height,
  };
  return (
    // One row that throws while drawing says so; the list and the other rows stay.
    <ErrorBoundary
      resetKey={item}
      fallback={(error) => <UnreadableRow {...place} detail={errorDetail(error)} />}
    >
      {card ? (
        <TaskBatchRow
          items={items.slice(group.start, group.start + group.size)}
          start={group.start}
          total={total}
          current={tabTask}
          top={row.start}
          card={card}
          onToggle={layout.toggleBatch}
          onHead={layout.reportHead}
          onRemove={onRemove}
        />
      ) : (
        <TaskRow item={item} {...place} onRemove={onRemove} />
      )}
    </ErrorBoundary>
  );
}
