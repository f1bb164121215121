/**
 * One task in the list: fixed height (no jump when images arrive), its thumbnails, prompt,
 * parameters, time, live status and actions. The clock is read only by rows that tick.
 */
import { memo, useId, type CSSProperties } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { isoDate } from '../../i18n';
import { useNow } from '../../lib/use-now';
import { useAppStore } from '../../store/app-store';
import { selectTypicalDuration } from '../../store/typical-duration';
import { costLine } from '../../lib/cost-text';
import { createdLine, parametersLine } from './task-meta';
import { TaskMessage } from './task-message';
import { TaskRowActions } from './task-row-actions';
import { describeStatus, type StatusView } from './task-status';
import { SelectBox, useSelected, useSelectHandlers } from './task-select';
import { TaskThumbnails } from './task-thumbnails';
import { recordProblem } from '../../store/record-problem';
import { UnreadableRow } from './unreadable-row';

export interface TaskRowProps {
  item: TaskItem;
  index: number;
  total: number;
  /** The row in the tab order (roving focus). */
  current: boolean;
  /** Position and height in the feed, in px (numbers, so memo can skip unchanged rows). */
  top: number;
  height: number;
  onRemove: (record: TaskRecord) => void;
}

function placement(top: number, height: number): CSSProperties {
  return { height, transform: `translateY(${top}px)` };
}

function isTicking(item: TaskItem): boolean {
  return item.record.status === 'processing' && item.record.hold === null;
}

/**
 * The task's status now: its badge, sentence and tone. While it ticks it follows the window's
 * clock every second (a row's and a batch tile's alike).
 */
export function useStatusView(item: TaskItem): StatusView {
  const ticking = isTicking(item);
  const now = useNow(ticking);
  const typical = useAppStore(
    ticking ? selectTypicalDuration(item.record.request.model) : () => null,
  );
  const cancelling = useAppStore((state) => state.tasksCancelling.has(item.record.localId));
  return describeStatus(item, now, typical, cancelling);
}

function StatusLine({ item, id }: { item: TaskItem; id: string }) {
  const status = useStatusView(item);
  return (
    <p className={`task-row__status tone--${status.tone}`} id={id}>
      <span className="badge">{status.label}</span>
      <TaskMessage record={item.record} status={status} />
    </p>
  );
}

export const TaskRow = memo(function TaskRow({
  item,
  index,
  total,
  current,
  top,
  height,
  onRemove,
}: TaskRowProps) {
  const { record } = item;
  const problem = recordProblem(record);
  if (problem !== null) {
    const place = { index, total, current, top, height };
    return <UnreadableRow {...place} detail={problem} />;
  }
  return (
    <ReadableRow item={item} place={{ index, total, current, top, height }} onRemove={onRemove} />
  );
});

interface RowPlace {
  index: number;
  total: number;
  current: boolean;
  top: number;
  height: number;
}

function ReadableRow({
  item,
  place: { index, total, current, top, height },
  onRemove,
}: {
  item: TaskItem;
  place: RowPlace;
  onRemove: (record: TaskRecord) => void;
}) {
  const promptId = useId();
  const statusId = useId();
  const { record } = item;
  const selected = useSelected(record.localId);
  const handlers = useSelectHandlers(record.localId);
  return (
    <article
      className={`task-row${selected ? ' task-row--selected' : ''}`}
      style={placement(top, height)}
      data-index={index}
      data-local-id={record.localId}
      tabIndex={current ? 0 : -1}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-labelledby={promptId}
      aria-describedby={statusId}
      {...handlers}
    >
      <RowContent item={item} promptId={promptId} statusId={statusId} onRemove={onRemove} />
    </article>
  );
}

/**
 * What a row shows of its task, drawn again only when the task changes: the row's place, the
 * list's count (`aria-setsize`) and the tab stop are the article's alone. The count arrives just
 * after the first rows are drawn, and each page loaded before it moves it; the rows' contents (some
 * forty components each) were all drawn again for it.
 */
const RowContent = memo(function RowContent({
  item,
  promptId,
  statusId,
  onRemove,
}: {
  item: TaskItem;
  promptId: string;
  statusId: string;
  onRemove: (record: TaskRecord) => void;
}) {
  const { record } = item;
  return (
    <>
      <SelectBox localId={record.localId} />
      <TaskThumbnails record={record} />
      <div className="task-row__main">
        <p className="task-row__prompt" id={promptId} title={record.request.prompt}>
          {record.request.prompt}
        </p>
        <p className="task-row__meta muted">
          <span>{parametersLine(record)}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={isoDate(record.createdAt)}>{createdLine(record)}</time>
          {record.cost ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="task-row__cost">{costLine(record.cost)}</span>
            </>
          ) : null}
        </p>
        <StatusLine item={item} id={statusId} />
      </div>
      <TaskRowActions record={record} onRemove={onRemove} />
    </>
  );
});

/** A row not loaded yet: same size, no content. */
export function PlaceholderRow({
  index,
  total,
  top,
  height,
}: {
  index: number;
  total: number;
  top: number;
  height: number;
}) {
  return (
    <article
      className="task-row task-row--placeholder"
      style={placement(top, height)}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-busy="true"
    >
      <div className="thumbs" aria-hidden="true">
        <span className="thumbs__cell thumbs__cell--state" />
      </div>
      <div className="task-row__main" aria-hidden="true">
        <span className="skeleton skeleton--wide" />
        <span className="skeleton" />
      </div>
    </article>
  );
}
