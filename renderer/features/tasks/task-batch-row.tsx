/**
 * The tasks of one submit ("Generate 10") as one card of the history, read as one job: its head
 * first (batch-head.tsx: the prompt, or a template's name and its number of prompts; how far the
 * batch is, its settings, its own Rerun and "Use this prompt"); then its results, in the order the
 * submit made them, as a grid that shows them all, or as many lines as fit and a "+N" that opens
 * the rest (batch-geometry.ts sizes it, so the feed knows its height). Each task stays an article
 * (named by its prompt, with its position in the history), so the keyboard, screen readers and
 * selection treat it as the task it is, with a task's own buttons (batch-tile.tsx).
 */
import { useId, useLayoutEffect, useRef, type CSSProperties, type RefObject } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskItem } from '../../../shared/ipc/contract';
import { t } from '../../i18n';
import type { BatchGeometry } from './batch-geometry';
import { BatchHead, promptsOf } from './batch-head';
import { BatchTile } from './batch-tile';
import './batch-card.css';

export interface TaskBatchRowProps {
  /** The batch's tasks, in the order its submit made them (the loaded list's: batch-order.ts). */
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
        prompts={promptsOf(items.map((item) => item.record))}
        progress={progressLine(items)}
        busy={items.some(isBusy)}
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
            batchPrompt={first.record.template ? null : first.record.request.prompt}
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
