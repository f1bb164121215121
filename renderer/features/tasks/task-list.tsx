/**
 * The history as a virtualized feed of fixed-height rows, only a window of them in the DOM, pages
 * loaded with the cursor as the user scrolls. A row is a task alone or the tasks of one submit
 * side by side (task-list-model.ts groups them); a task not loaded yet is a placeholder row of its
 * own. Every task is an article of the feed: arrow keys, Page Up/Down, Home and End move between
 * tasks, Enter opens a task's details; Space, Shift+arrows, Ctrl/Cmd+A and Escape select.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { t } from '../../i18n';
import { feedTopOf, scrollFeedTo } from '../../lib/feed-scroll';
import { useAfterFirstPaint } from '../../lib/use-after-first-paint';
import { useAppStore } from '../../store/app-store';
import { selectTaskItems } from '../../store/record-selectors';
import { rowOfTask } from '../../store/task-list-model';
import { rememberedFeedBox, rememberFeedBox } from '../../store/feed-box-memory';
import { useKeptFeedTop } from '../../store/use-kept-feed-top';
import {
  FeedRow,
  feedRowKey,
  lastTaskOf,
  useContentWidth,
  useLayout,
  type Layout,
} from './task-feed';
import { useFeedKeys } from './use-feed-keys';
import { useFixedRows, type FixedRows, type RowPlaces } from './use-fixed-rows';
import { useCurrentTask } from './use-current-task';
import { useFeedMetrics, type FeedMetrics } from './use-row-height';

/** Rows rendered beyond the visible ones, in each direction (from the second frame with rows on). */
const OVERSCAN = 6;
/** Start loading the next page this many rows before the loaded end. */
const LOAD_AHEAD = 30;

/**
 * When the rows change size (the window crossed the wide width, its width moved a batch's results
 * to more or fewer lines, a batch's head was drawn taller or shorter), the row at the top stays at
 * the top.
 */
function useKeepTopRow(
  scroller: RefObject<HTMLElement | null>,
  places: RowPlaces,
  sizes: string,
): void {
  const previous = useRef({ places, sizes });
  useLayoutEffect(() => {
    const element = scroller.current;
    const before = previous.current;
    if (element && before.sizes !== sizes && element.scrollTop > 0) {
      const top = feedTopOf(element, before.places.total);
      const row = before.places.rowAt(top);
      const within = (top - before.places.startOf(row)) / before.places.heightOf(row);
      scrollFeedTo(element, places.total, places.startOf(row) + within * places.heightOf(row));
    }
    previous.current = { places, sizes };
  }, [scroller, places, sizes]);
}

const rememberWidth = (width: number): void => rememberFeedBox({ width });
const rememberHeight = (height: number): void => rememberFeedBox({ height });

/**
 * The feed's layout at the list's width and the rows of it to draw. Until the list is measured
 * (in the commit that first draws it) they are those of the box remembered for a window of this
 * size (store/feed-box-memory.ts), so the first render draws the rows in view.
 */
function useFeedWindow(
  scroller: RefObject<HTMLElement | null>,
  metrics: FeedMetrics,
  overscan: number,
): FixedRows & { layout: Layout } {
  const [remembered] = useState(rememberedFeedBox);
  const width = useContentWidth(scroller, remembered.width, rememberWidth);
  const layout = useLayout(width, metrics);
  useKeepTopRow(scroller, layout.places, `${metrics.rowHeight}:${width}:${layout.measured}`);
  useKeptFeedTop('tasks', scroller, layout.places.total);
  const fixed = useFixedRows({
    scroller,
    places: layout.places,
    overscan,
    initialViewport: remembered.height,
    onViewport: rememberHeight,
  });
  return { ...fixed, layout };
}

export interface TaskListProps {
  /** Asks to remove one task (its button, Delete on it). */
  readonly onRemove: (record: TaskRecord) => void;
  /** Asks to remove the `count` selected tasks (Delete on one of them). */
  readonly onRemoveSelected: (count: number) => void;
}

export function TaskList({ onRemove, onRemoveSelected }: TaskListProps) {
  const items = useAppStore(selectTaskItems);
  const total = useAppStore((state) => state.tasksTotal);
  const loading = useAppStore((state) => state.tasksStatus === 'loading' || state.tasksLoadingMore);
  const failed = useAppStore((state) => state.tasksError !== null);
  const loadUntil = useAppStore((state) => state.tasksLoadUntil);
  const scroller = useRef<HTMLDivElement>(null);
  const metrics = useFeedMetrics();
  const { rowHeight } = metrics;
  // The first frame with rows draws only those on screen; the overscan follows a frame later.
  const painted = useAfterFirstPaint(items.length > 0);
  const { layout, rows, totalSize, scrollToIndex } = useFeedWindow(
    scroller,
    metrics,
    painted ? OVERSCAN : 0,
  );
  const lastRow = rows.at(-1)?.index ?? -1;
  const lastIndex = lastRow < 0 ? -1 : lastTaskOf(layout, lastRow);

  // From the second frame on, so the next page's request is not sent before the first rows paint.
  useEffect(() => {
    if (painted && lastIndex >= items.length - LOAD_AHEAD) void loadUntil(lastIndex + LOAD_AHEAD);
  }, [painted, lastIndex, items.length, loading, failed, loadUntil]);

  const {
    current: safeCurrent,
    setCurrent,
    moveTo,
  } = useCurrentTask(scroller, layout, total, scrollToIndex);
  // Keep one task in the tab order even when the current one is scrolled out of the DOM.
  const currentRow = rowOfTask(layout.groups, layout.loaded, safeCurrent);
  const firstShown = rows.find((row) => row.index < layout.groups.length);
  const tabTask = rows.some((row) => row.index === currentRow)
    ? safeCurrent
    : firstShown
      ? (layout.groups[firstShown.index]?.start ?? -1)
      : -1;
  const onKeyDown = useFeedKeys({
    items,
    total,
    scroller,
    rowHeight,
    current: safeCurrent,
    moveTo,
    onRemove,
    onRemoveSelected,
  });

  return (
    <div className="task-list" ref={scroller} onKeyDown={onKeyDown}>
      <div
        className="task-list__feed"
        role="feed"
        aria-label={t('tasks.list.label')}
        aria-busy={loading}
        style={{ height: totalSize }}
        onFocus={(event) => {
          const row = (event.target as HTMLElement).closest<HTMLElement>('article[data-index]');
          if (row) setCurrent(Number(row.dataset.index));
        }}
      >
        {rows.map((row) => (
          <FeedRow
            key={feedRowKey(layout, items, row.index)}
            row={row}
            layout={layout}
            items={items}
            total={total}
            tabTask={tabTask}
            onRemove={onRemove}
          />
        ))}
      </div>
    </div>
  );
}
