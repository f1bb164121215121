/**
 * The history as a virtualized feed: `total` rows of fixed height, only a window of them in the
 * DOM, pages loaded with the cursor as the user scrolls. Arrow keys, Page Up/Down, Home and End
 * move between rows; Enter opens a row's details.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { t } from '../../i18n';
import { useAfterFirstPaint } from '../../lib/use-after-first-paint';
import { useAppStore } from '../../store/app-store';
import { ErrorBoundary, errorDetail } from '../../components/error-boundary';
import { PlaceholderRow, TaskRow } from './task-row';
import { UnreadableRow, recordProblem } from './unreadable-row';
import { useFixedRows } from './use-fixed-rows';

/** Rows rendered beyond the visible ones, in each direction (from the second frame with rows on). */
const OVERSCAN = 6;
/** Start loading the next page this many rows before the loaded end. */
const LOAD_AHEAD = 30;
const ROW_REM = 6.5;

function rowHeightPx(): number {
  const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Math.round((Number.isFinite(root) && root > 0 ? root : 16) * ROW_REM);
}

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

export function TaskList({ onRemove }: { onRemove: (record: TaskRecord) => void }) {
  const items = useAppStore((state) => state.tasksItems);
  const total = useAppStore((state) => state.tasksTotal);
  const loading = useAppStore((state) => state.tasksStatus === 'loading' || state.tasksLoadingMore);
  const failed = useAppStore((state) => state.tasksError !== null);
  const loadUntil = useAppStore((state) => state.tasksLoadUntil);
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  const scroller = useRef<HTMLDivElement>(null);
  const [rowHeight] = useState(rowHeightPx);
  const [current, setCurrent] = useState(0);
  const focusPending = useRef(false);
  // The first frame with rows draws only those on screen; the overscan follows a frame later.
  const painted = useAfterFirstPaint(items.length > 0);

  const { rows, totalSize, scrollToIndex } = useFixedRows({
    scroller,
    count: total,
    rowHeight,
    overscan: painted ? OVERSCAN : 0,
  });
  const lastIndex = rows.at(-1)?.index ?? -1;

  // From the second frame on, so the next page's request is not sent before the first rows paint.
  useEffect(() => {
    if (painted && lastIndex >= items.length - LOAD_AHEAD) void loadUntil(lastIndex + LOAD_AHEAD);
  }, [painted, lastIndex, items.length, loading, failed, loadUntil]);

  const safeCurrent = Math.min(current, Math.max(0, total - 1));
  // Keep one row in the tab order even when the current one is scrolled out of the DOM.
  const tabRow = rows.some((row) => row.index === safeCurrent)
    ? safeCurrent
    : (rows.find((row) => items[row.index])?.index ?? -1);
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
      if (event.key === 'Enter' && isRow) {
        const item = items[Number(target.dataset.index)];
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
      const from = isRow ? Number(target.dataset.index) : safeCurrent;
      const next = nextIndex(event.key, from, total, pageRows);
      // Arrow keys inside a row's buttons still move between rows; typing elsewhere is left alone.
      if (next === null || target.matches('input, textarea, select')) return;
      event.preventDefault();
      setCurrent(next);
      focusPending.current = true;
      scrollToIndex(next);
    },
    [items, openDetails, rowHeight, safeCurrent, total, scrollToIndex],
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
          const item = items[row.index];
          const place = {
            index: row.index,
            total,
            current: row.index === tabRow,
            top: row.start,
            height: rowHeight,
          };
          return item ? (
            // One row that throws while drawing says so; the list and the other rows stay.
            <ErrorBoundary
              key={rowKey(item.record, row.index)}
              resetKey={item}
              fallback={(error) => <UnreadableRow {...place} detail={errorDetail(error)} />}
            >
              <TaskRow item={item} {...place} onRemove={onRemove} />
            </ErrorBoundary>
          ) : (
            <PlaceholderRow
              key={`placeholder-${row.index}`}
              index={row.index}
              total={total}
              top={row.start}
              height={rowHeight}
            />
          );
        })}
      </div>
    </div>
  );
}
