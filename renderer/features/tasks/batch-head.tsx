/**
 * The head of a batch's card (task-batch-row.tsx): its checkbox, what the batch is, its line (how
 * many tasks, how far, its settings, when), and its own actions. A batch of one request is named
 * by its prompt; a template's batch, which holds one prompt per combination, by its template and
 * how many prompts it made (its prompts, in the order it made them, a click away; each task is
 * named by its own). Rerun sends every task's own request again as one new batch on the batch's
 * service; "Use this prompt" fills the form with the request, its service and number of tasks
 * (a template's batch: its template and values, and the count per prompt).
 */
import { memo, type RefObject } from 'react';
import { TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { announce } from '../../components/live-region';
import { Spinner } from '../../components/spinner';
import { isoDate, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { BatchPrompt } from './batch-prompt';
import { createdLine, parametersLine } from './task-meta';
import { useReusePrompt } from './task-row-actions';
import { BatchSelectBox } from './task-select';

/**
 * The distinct prompts of a batch's tasks, in the batch's order: one for a batch of one request,
 * one per combination for a template's.
 */
export function promptsOf(records: readonly TaskRecord[]): string[] {
  return [...new Set(records.map((record) => record.request.prompt))];
}

/**
 * The form's "Number of tasks" the batch was submitted with: a template's batch holds each of its
 * prompts that many times (its prompts × the count), any other batch its one request `size` times.
 */
function tasksPerPrompt(record: TaskRecord, size: number, prompts: number): number {
  if (!record.template) return size;
  return Math.max(1, Math.round(size / Math.max(1, prompts)));
}

/** A batch's Rerun: its tasks sent again, each with its own request, as one new batch. */
function useRerunBatch(): (localIds: readonly string[]) => void {
  const resend = useAppStore((state) => state.tasksResend);
  return (localIds) =>
    void resend(localIds, 'batch').then(
      (sent) => sent && announce(t('tasks.batch.rerunSent', { count: localIds.length })),
    );
}

/** The batch's own actions: its tasks again as a new batch, or its request back into the form. */
function BatchActions(props: {
  record: TaskRecord;
  localIds: readonly string[];
  perPrompt: number;
}) {
  const { record, localIds, perPrompt } = props;
  const rerun = useRerunBatch();
  const reuse = useReusePrompt();
  // "Use this prompt" on a batch the command line made may ask for more than the form allows.
  const reuseCount = Math.min(perPrompt, TASKS_PER_SUBMIT.max);
  return (
    <div className="task-batch__actions">
      <Button
        size="small"
        icon="retry"
        title={t('tasks.batch.rerunHint', { count: localIds.length })}
        onClick={() => rerun(localIds)}
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

/** What the batch is called: its prompt, or its template and how many prompts it made. */
function BatchName(props: { record: TaskRecord; prompts: readonly string[]; id: string }) {
  const { record, prompts, id } = props;
  const { template } = record;
  if (!template) return <BatchPrompt prompt={record.request.prompt} id={id} />;
  const name = t('tasks.batch.template', { name: template.name, count: prompts.length });
  return <BatchPrompt prompt={name} prompts={prompts} id={id} />;
}

export interface BatchHeadProps {
  /** The batch's first task (its request, service and settings stand for the batch's). */
  readonly record: TaskRecord;
  /** The batch's tasks, by local id, joined by spaces (a string, so memo can compare it). */
  readonly localIds: string;
  /** The batch's distinct prompts, in its order ({@link promptsOf}). */
  readonly prompts: readonly string[];
  /** How far the batch is ("7 of 10 done · 1 failed"), or null once it is all done. */
  readonly progress: string | null;
  /** Some task of the batch is at work. */
  readonly busy: boolean;
  readonly promptId: string;
  readonly box: RefObject<HTMLDivElement | null>;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((one, n) => one === b[n]));
}

/**
 * The card's head. Drawn again only when what it shows changes: not for a poll that moved a
 * task's bookkeeping (a new record object with the same request), which comes several times a
 * second while a batch works.
 */
export const BatchHead = memo(
  function BatchHead(props: BatchHeadProps) {
    const { record, localIds, prompts, progress, busy, promptId, box } = props;
    const ids = localIds.split(' ');
    return (
      <div className="task-batch__head" ref={box}>
        <BatchSelectBox localIds={ids} />
        <div className="task-batch__text">
          <BatchName record={record} prompts={prompts} id={promptId} />
          <p className="task-row__meta muted">
            <span className="task-batch__size">{t('tasks.batch.size', { count: ids.length })}</span>
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
        <BatchActions
          record={record}
          localIds={ids}
          perPrompt={tasksPerPrompt(record, ids.length, prompts.length)}
        />
      </div>
    );
  },
  (before, after) =>
    before.record.request === after.record.request &&
    before.record.createdAt === after.record.createdAt &&
    before.record.localId === after.record.localId &&
    before.record.provider === after.record.provider &&
    before.record.template?.name === after.record.template?.name &&
    before.localIds === after.localIds &&
    sameList(before.prompts, after.prompts) &&
    before.progress === after.progress &&
    before.busy === after.busy &&
    before.promptId === after.promptId &&
    before.box === after.box,
);
