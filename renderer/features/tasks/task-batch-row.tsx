/**
 * The tasks of one submit ("Generate 3") as one row of the history: their results side by side
 * in a strip that takes the width there is (scrolling sideways, with buttons at its ends, past
 * it), the prompt and settings said once beside them (the whole prompt a click away). Each task
 * stays an article (named by the prompt, with its position in the history), so the keyboard,
 * screen readers and selection treat it as the task it is, with a task row's own actions.
 */
import { memo, useId, type CSSProperties } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { isoDate, t } from '../../i18n';
import { BatchPrompt } from './batch-prompt';
import { BatchStrip } from './batch-strip';
import { createdLine, parametersLine } from './task-meta';
import { TaskIconButtons } from './task-row-actions';
import { StatusLine } from './task-row';
import { BatchSelectBox, SelectBox, useSelected, useSelectHandlers } from './task-select';
import { TaskThumbnails } from './task-thumbnails';

export interface TaskBatchRowProps {
  /** The batch's tasks, in the history's order. */
  items: readonly TaskItem[];
  /** The history index of the first one. */
  start: number;
  total: number;
  /** The history index of the task in the tab order, if it is one of these. */
  current: number;
  top: number;
  height: number;
  onRemove: (record: TaskRecord) => void;
}

interface TileProps {
  item: TaskItem;
  index: number;
  total: number;
  current: boolean;
  promptId: string;
  onRemove: (record: TaskRecord) => void;
}

const TaskTile = memo(function TaskTile({
  item,
  index,
  total,
  current,
  promptId,
  onRemove,
}: TileProps) {
  const statusId = useId();
  const { record } = item;
  const selected = useSelected(record.localId);
  const handlers = useSelectHandlers(record.localId);
  return (
    <article
      className={`task-tile${selected ? ' task-tile--selected' : ''}`}
      data-index={index}
      data-local-id={record.localId}
      tabIndex={current ? 0 : -1}
      aria-posinset={index + 1}
      aria-setsize={total}
      aria-labelledby={promptId}
      aria-describedby={statusId}
      {...handlers}
    >
      <TaskThumbnails record={record} />
      <div className="task-tile__side">
        <div className="task-tile__tools">
          <SelectBox localId={record.localId} />
          <TaskIconButtons record={record} onRemove={onRemove} withCopy={false} />
        </div>
        <StatusLine item={item} id={statusId} />
      </div>
    </article>
  );
});

export function TaskBatchRow({
  items,
  start,
  total,
  current,
  top,
  height,
  onRemove,
}: TaskBatchRowProps) {
  const promptId = useId();
  const first = items[0];
  if (!first) return null;
  const { record } = first;
  const style: CSSProperties = { height, transform: `translateY(${top}px)` };
  return (
    // An article of the feed itself (a feed holds only articles), named without the prompt so
    // that only the tasks answer to it; its tasks are the articles inside.
    <article
      className="task-batch"
      style={style}
      data-batch-id={record.batchId}
      aria-label={t('tasks.batch.label', { count: items.length })}
    >
      <BatchStrip>
        {items.map((item, offset) => (
          <TaskTile
            key={item.record.localId}
            item={item}
            index={start + offset}
            total={total}
            current={start + offset === current}
            promptId={promptId}
            onRemove={onRemove}
          />
        ))}
      </BatchStrip>
      <div className="task-batch__info">
        <BatchPrompt prompt={record.request.prompt} id={promptId} />
        <p className="task-row__meta muted">
          <span>{parametersLine(record)}</span>
          <span aria-hidden="true"> · </span>
          <time dateTime={isoDate(record.createdAt)}>{createdLine(record)}</time>
        </p>
        <p className="task-batch__size">
          <BatchSelectBox localIds={items.map((item) => item.record.localId)} />
          <span>{t('tasks.batch.size', { count: items.length })}</span>
        </p>
      </div>
    </article>
  );
}
