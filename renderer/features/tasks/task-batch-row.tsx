/**
 * The tasks of one submit ("Generate 10") as one card of the history, read as one job: the prompt
 * first (the whole of it a click away), how far the batch is, its settings, its own Rerun (the
 * same request as a new batch, on the batch's own service) and "Use this prompt" (the form filled
 * with its request, service and number of tasks); then its results as a grid that shows them all,
 * or as many lines as fit and a "+N" that opens the rest (batch-geometry.ts sizes it, so the feed
 * knows its height). Each task stays an article (named by the prompt, with its position in the
 * history), so the keyboard, screen readers and selection treat it as the task it is, with a
 * task's own buttons (batch-tile.tsx).
 */
import { memo, useId, useLayoutEffect, useRef, type CSSProperties, type RefObject } from 'react';
import { TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { isoDate, t } from '../../i18n';
import type { BatchGeometry } from './batch-geometry';
import { BatchPrompt } from './batch-prompt';
import { BatchTile } from './batch-tile';
import { createdLine, parametersLine } from './task-meta';
import { useRerun, useReusePrompt } from './task-row-actions';
import { BatchSelectBox } from './task-select';
import './batch-card.css';

export interface TaskBatchRowProps {
  /** The batch's tasks, in the history's order. */
  items: readonly TaskItem[];
  /** The history index of the first one. */
  start: number;
  total: number;
  /** The history index of the task in the tab order, if it is one of these. */
  current: number;
  top: number;
  /** Its card: columns, the results shown, its height. */
  card: BatchGeometry;
  /** Opens or closes the card's "+N". */
  onToggle: (batchId: string) => void;
  /** The card's head was drawn `height` px tall (its words wrap to the width). */
  onHead: (batchId: string, height: number) => void;
  onRemove: (record: TaskRecord) => void;
}

const FAILED = new Set(['failed', 'not_found', 'submit_failed']);

/** How far the batch is, while it is not all done: "7 of 10 done", "1 failed". */
function progressLine(items: readonly TaskItem[]): string | null {
  const done = items.filter((item) => item.record.status === 'completed').length;
  if (done === items.length) return null;
  const failed = items.filter((item) => FAILED.has(item.record.status)).length;
  const parts = [t('tasks.batch.done', { done, count: items.length })];
  if (failed > 0) parts.push(t('tasks.batch.failed', { count: failed }));
  return parts.join(' · ');
}

/** A task still at work: being submitted, made by the service, or its images being saved. */
function isBusy({ record }: TaskItem): boolean {
  if (record.status === 'submitting') return true;
  if (record.status === 'processing') return record.hold === null;
  return record.images.some((image) => image.state === 'pending');
}

/**
 * The form's "Number of tasks" the batch was submitted with: a template's batch holds each of its
 * prompts that many times (its prompts × the count), any other batch its one request `size` times.
 */
function tasksPerPrompt(records: readonly TaskRecord[]): number {
  if (!records[0]?.template) return records.length;
  const prompts = new Set(records.map((record) => record.request.prompt));
  return Math.max(1, Math.round(records.length / prompts.size));
}

/** The batch's own actions: the same request again as a new batch, or back into the form. */
function BatchActions(props: { record: TaskRecord; size: number; perPrompt: number }) {
  const { record, size, perPrompt } = props;
  const rerun = useRerun();
  const reuse = useReusePrompt();
  // A batch made by the command line may be larger than one submit from the window may be.
  const count = Math.min(size, TASKS_PER_SUBMIT.max);
  // "Run again with…" a template's batch: its template and values, and the count per prompt
  // (the batch's size would send each prompt that many times over).
  const reuseCount = Math.min(perPrompt, TASKS_PER_SUBMIT.max);
  return (
    <div className="task-batch__actions">
      <Button
        size="small"
        icon="retry"
        title={t('tasks.batch.rerunHint', { count })}
        onClick={() => rerun(record.localId, count)}
      >
        <span className="task-batch__action-text">{t('tasks.action.rerun')}</span>
      </Button>
      <Button
        size="small"
        icon="send"
        title={t('tasks.batch.reuseHint', { count: reuseCount })}
        onClick={() => reuse(record, reuseCount)}
      >
        <span className="task-batch__action-text">{t('tasks.action.reuse')}</span>
      </Button>
    </div>
  );
}

interface BatchHeadProps {
  readonly record: TaskRecord;
  /** The batch's tasks, by local id, joined by spaces (a string, so memo can compare it). */
  readonly localIds: string;
  /** How far the batch is ({@link progressLine}). */
  readonly progress: string | null;
  /** Some task of the batch is at work. */
  readonly busy: boolean;
  /** The "Number of tasks" of its submit ({@link tasksPerPrompt}). */
  readonly perPrompt: number;
  readonly promptId: string;
  readonly box: RefObject<HTMLDivElement | null>;
}

/**
 * The card's head: its checkbox, the prompt and the batch's line, its actions. Drawn again only
 * when what it shows changes: not for a poll that moved a task's bookkeeping (a new record object
 * with the same request), which comes several times a second while a batch works.
 */
const BatchHead = memo(
  function BatchHead(props: BatchHeadProps) {
    const { record, localIds, progress, busy, perPrompt, promptId, box } = props;
    return (
      <div className="task-batch__head" ref={box}>
        <BatchSelectBox localIds={localIds.split(' ')} />
        <div className="task-batch__text">
          <BatchPrompt prompt={record.request.prompt} id={promptId} />
          <p className="task-row__meta muted">
            <span className="task-batch__size">
              {t('tasks.batch.size', { count: localIds.split(' ').length })}
            </span>
            {progress ? (
              <>
                <span aria-hidden="true"> · </span>
                {busy ? <Spinner /> : null}
                <span>{progress}</span>
              </>
            ) : null}
            <span aria-hidden="true"> · </span>
            <span>{parametersLine(record)}</span>
            <span aria-hidden="true"> · </span>
            <time dateTime={isoDate(record.createdAt)}>{createdLine(record)}</time>
          </p>
        </div>
        <BatchActions record={record} size={localIds.split(' ').length} perPrompt={perPrompt} />
      </div>
    );
  },
  (before, after) =>
    before.record.request === after.record.request &&
    before.record.createdAt === after.record.createdAt &&
    before.record.localId === after.record.localId &&
    before.record.provider === after.record.provider &&
    before.localIds === after.localIds &&
    before.progress === after.progress &&
    before.busy === after.busy &&
    before.perPrompt === after.perPrompt &&
    before.promptId === after.promptId &&
    before.box === after.box,
);

/** "+N" on a closed card that hides some results; "Show fewer" on an opened one. */
function BatchToggle({ card, onClick }: { card: BatchGeometry; onClick: () => void }) {
  const more = card.toggle === 'more';
  return (
    <button
      type="button"
      className={more ? 'task-batch__toggle' : 'task-batch__toggle task-batch__toggle--fewer'}
      aria-expanded={!more}
      {...(more ? { 'aria-label': t('tasks.batch.showMore', { count: card.hidden }) } : {})}
      onClick={onClick}
    >
      {more ? (
        <span aria-hidden="true">{t('tasks.image.moreShort', { count: card.hidden })}</span>
      ) : (
        t('tasks.batch.showFewer')
      )}
    </button>
  );
}

/**
 * Says how tall the head in `box` is drawn, before the first paint and whenever it changes (its
 * words wrap differently at another width, zoom or language, or its progress line grows).
 */
function useHeadHeight(
  box: RefObject<HTMLElement | null>,
  batchId: string | undefined,
  onHead: (batchId: string, height: number) => void,
): void {
  useLayoutEffect(() => {
    const element = box.current;
    if (!element || !batchId) return undefined;
    const read = (): void => onHead(batchId, element.getBoundingClientRect().height);
    read();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [box, batchId, onHead]);
}

/** The card's sizes for its stylesheet: the very numbers its height was counted from. */
function cardStyle(card: BatchGeometry, top: number): CSSProperties {
  const { tile, gap, head, pad } = card.metrics;
  return {
    height: card.height,
    transform: `translateY(${top}px)`,
    '--batch-tile': `${tile}px`,
    '--batch-gap': `${gap}px`,
    '--batch-head': `${head}px`,
    '--batch-pad': `${pad}px`,
    '--batch-columns': String(card.columns),
  } as CSSProperties;
}

export function TaskBatchRow({
  items,
  start,
  total,
  current,
  top,
  card,
  onToggle,
  onHead,
  onRemove,
}: TaskBatchRowProps) {
  const promptId = useId();
  const head = useRef<HTMLDivElement>(null);
  const first = items[0];
  const batchId = first?.record.batchId;
  useHeadHeight(head, batchId, onHead);
  if (!first) return null;
  // The task in the tab order may be behind the "+N": the first result takes its place there.
  const currentHidden = current >= start + card.shown && current < start + items.length;
  return (
    // An article of the feed itself (a feed holds only articles), named without the prompt so
    // that only the tasks answer to it; its tasks are the articles inside.
    <article
      className="task-batch"
      style={cardStyle(card, top)}
      data-batch-id={batchId}
      aria-label={t('tasks.batch.label', { count: items.length })}
    >
      <BatchHead
        record={first.record}
        localIds={items.map((item) => item.record.localId).join(' ')}
        progress={progressLine(items)}
        busy={items.some(isBusy)}
        perPrompt={tasksPerPrompt(items.map((item) => item.record))}
        promptId={promptId}
        box={head}
      />
      <div className="task-batch__grid">
        {items.slice(0, card.shown).map((item, offset) => (
          <BatchTile
            key={item.record.localId}
            item={item}
            index={start + offset}
            total={total}
            current={start + offset === current || (offset === 0 && currentHidden)}
            promptId={promptId}
            batchPrompt={first.record.request.prompt}
            onRemove={onRemove}
          />
        ))}
        {card.toggle && batchId ? (
          <BatchToggle card={card} onClick={() => onToggle(batchId)} />
        ) : null}
      </div>
    </article>
  );
}
