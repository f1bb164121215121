/**
 * The history as a virtualized feed of fixed-height rows, only a window of them in the DOM, pages
 * loaded with the cursor as the user scrolls. A row is a task alone or the tasks of one submit
 * side by side (task-list-model.ts groups them); a task not loaded yet is a placeholder row of its
 * own. Every task is an article of the feed: arrow keys, Page Up/Down, Home and End move between
 * tasks, Enter opens a task's details; Space, Shift+arrows, Ctrl/Cmd+A and Escape select.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { t } from '../../i18n';
import { useAfterFirstPaint } from '../../lib/use-after-first-paint';
import { useAppStore } from '../../store/app-store';
import { groupItems, rowOfTask, type TaskGroup } from '../../store/task-list-model';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { TaskBatchRow } from './task-batch-row';
import { PlaceholderRow, TaskRow } from './task-row';
import { UnreadableRow, recordProblem } from './unreadable-row';
import { useFixedRows } from './use-fixed-rows';
import { useRowHeight } from './use-row-height';
import { isUndoKey } from '../gallery/gallery-viewer';

/** Rows rendered beyond the visible ones, in each direction (from the second frame with rows on). */
const OVERSCAN = 6;
/** Start loading the next page this many rows before the loaded end. */
const LOAD_AHEAD = 30;

function nextIndex(key: string, index: number, total: number, pageRows: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(total - 1, index + 1);
    case 'ArrowUp':
      return Math.max(0, index - 1);
    case 'PageDown':
      return Math.min(total - 1, index + pageRows);
    case 'PageUp':
      return Math.max(0, index - pageRows);
    case 'Home':
      return 0;
    case 'End':
      return total - 1;
    default:
      return null;
  }
}

/** The row's React key: its local id, or its position when the record has none to give. */
function rowKey(record: unknown, index: number): string {
  const localId = (record as { localId?: unknown } | null)?.localId;
  return typeof localId === 'string' ? localId : `unreadable-${index}`;
}

/** Where each row of the feed comes from: a group of loaded tasks, or a task not loaded yet. */
interface Layout {
  readonly groups: readonly TaskGroup[];
  readonly loaded: number;
  readonly rowCount: number;
}

/** The history index of the last task row `row` shows. */
function lastTaskOf(layout: Layout, row: number): number {
  const group = layout.groups[row];
  if (group) return group.start + group.size - 1;
  return layout.loaded + (row - layout.groups.length);
}

/** A record's problem decides whether it may join a group: a damaged one is drawn alone. */
const readable = (item: { record: unknown }): boolean => recordProblem(item.record) === null;

function useLayout(): Layout {
  const items = useAppStore((state) => state.tasksItems);
  const total = useAppStore((state) => state.tasksTotal);
  const groups = useMemo(() => groupItems(items, readable), [items]);
  return {
    groups,
    loaded: items.length,
    rowCount: groups.length + Math.max(0, total - items.length),
  };
}

/** Space, Shift+arrows, Ctrl/Cmd+A, Escape: what the key did to the selection, if anything. */
function useSelectionKeys() {
  return useCallback(
    (event: KeyboardEvent<HTMLElement>, from: string | null, to: string | null) => {
      const state = useAppStore.getState();
      if (event.key === ' ' && from !== null) {
        state.tasksSelectClick(from, { ctrlKey: true });
        return true;
      }
      if (event.shiftKey && to !== null && from !== null && to !== from) {
        if (state.tasksSelection.anchor === null) state.tasksSelectClick(from, {});
        state.tasksSelectClick(to, { shiftKey: true });
        return false;
      }
      return state.tasksSelectKey(event);
    },
    [],
  );
}

/** When the row height changes (the window crossed the wide width), the top row stays on top. */
function useKeepTopRow(scroller: RefObject<HTMLElement | null>, rowHeight: number): void {
  const previous = useRef(rowHeight);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && previous.current !== rowHeight) {
      element.scrollTop = (element.scrollTop / previous.current) * rowHeight;
    }
    previous.current = rowHeight;
  }, [scroller, rowHeight]);
}

export function TaskList({ onRemove }: { onRemove: (record: TaskRecord) => void }) {
  const items = useAppStore((state) => state.tasksItems);
  const total = useAppStore((state) => state.tasksTotal);
  const loading = useAppStore((state) => state.tasksStatus === 'loading' || state.tasksLoadingMore);
  const failed = useAppStore((state) => state.tasksError !== null);
  const loadUntil = useAppStore((state) => state.tasksLoadUntil);
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  const scroller = useRef<HTMLDivElement>(null);
  const rowHeight = useRowHeight();
  const [current, setCurrent] = useState(0);
  const focusPending = useRef(false);
  // The first frame with rows draws only those on screen; the overscan follows a frame later.
  const painted = useAfterFirstPaint(items.length > 0);
  const layout = useLayout();
  const selectionKeys = useSelectionKeys();
  useKeepTopRow(scroller, rowHeight);

  const { rows, totalSize, scrollToIndex } = useFixedRows({
    scroller,
    count: layout.rowCount,
    rowHeight,
    overscan: painted ? OVERSCAN : 0,
  });
  const lastRow = rows.at(-1)?.index ?? -1;
  const lastIndex = lastRow < 0 ? -1 : lastTaskOf(layout, lastRow);

  // From the second frame on, so the next page's request is not sent before the first rows paint.
  useEffect(() => {
    if (painted && lastIndex >= items.length - LOAD_AHEAD) void loadUntil(lastIndex + LOAD_AHEAD);
  }, [painted, lastIndex, items.length, loading, failed, loadUntil]);

  const safeCurrent = Math.min(current, Math.max(0, total - 1));
  // Keep one task in the tab order even when the current one is scrolled out of the DOM.
  const currentRow = rowOfTask(layout.groups, layout.loaded, safeCurrent);
  const firstShown = rows.find((row) => row.index < layout.groups.length);
  const tabTask = rows.some((row) => row.index === currentRow)
    ? safeCurrent
    : firstShown
      ? (layout.groups[firstShown.index]?.start ?? -1)
      : -1;
  useLayoutEffect(() => {
    if (!focusPending.current) return;
    const row = scroller.current?.querySelector<HTMLElement>(`[data-index="${safeCurrent}"]`);
    if (row) {
      focusPending.current = false;
      row.focus({ preventScroll: true });
    }
  });

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      const isRow = target.matches('article[data-index]');
      if (target.matches('input:not([type="checkbox"]), textarea, select')) return;
      // Ctrl/Cmd+Z over the list puts back the last removal, as in the gallery.
      if (isUndoKey(event) && useAppStore.getState().tasksUndoable !== null) {
        event.preventDefault();
        void useAppStore.getState().tasksUndoRemove();
        return;
      }
      const from = isRow ? Number(target.dataset.index) : safeCurrent;
      const fromId = items[from]?.record.localId ?? null;
      if (event.key === 'Enter' && isRow) {
        const item = items[from];
        if (item && recordProblem(item.record) === null) {
          event.preventDefault();
          openDetails(item.record.localId);
        }
        return;
      }
      const pageRows = Math.max(
        1,
        Math.floor((scroller.current?.clientHeight ?? rowHeight) / rowHeight) - 1,
      );
      const next = nextIndex(event.key, from, total, pageRows);
      const toId = next === null ? null : (items[next]?.record.localId ?? null);
      if ((event.key !== ' ' || isRow) && selectionKeys(event, isRow ? fromId : null, toId)) {
        event.preventDefault();
        return;
      }
      // Arrow keys inside a row's buttons still move between rows.
      if (next === null) return;
      event.preventDefault();
      setCurrent(next);
      focusPending.current = true;
      scrollToIndex(rowOfTask(layout.groups, layout.loaded, next));
    },
    [items, openDetails, rowHeight, safeCurrent, total, scrollToIndex, layout, selectionKeys],
  );

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
        {rows.map((row) => {
          const group = layout.groups[row.index];
          if (!group) {
            const index = layout.loaded + (row.index - layout.groups.length);
            return (
              <PlaceholderRow
                key={`placeholder-${index}`}
                index={index}
                total={total}
                top={row.start}
                height={rowHeight}
              />
            );
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
              key={rowKey(item.record, group.start)}
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
        })}
      </div>
    </div>
  );
}
