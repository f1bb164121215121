/**
 * A task row's status sentence, cut to one line in the row, with a way to read all of it: a
 * "Read all" button, shown only when the line is actually cut, opens Task details, where the
 * whole sentence, the error and its technical detail are shown as selectable text. The service's
 * own words follow Pictor's sentence quoted, in a box of their own that cuts them at their end.
 */
import { useRef } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { Quoted } from '../../components/quoted';
import { t } from '../../i18n';
import { useIsCut } from '../../lib/use-is-cut';
import { useAppStore } from '../../store/app-store';
import type { StatusView } from './task-status';

/** The status's words as one line of text (a tooltip, a screen reader's name). */
export function statusText(status: Pick<StatusView, 'sentence' | 'quote'>): string {
  return status.quote === undefined
    ? status.sentence
    : t('tasks.failed.quoted', { sentence: status.sentence, words: status.quote });
}

/** The sentence and, after it, the service's words quoted. */
export function StatusWords({
  status,
  quoteClass,
}: {
  status: Pick<StatusView, 'sentence' | 'quote'>;
  quoteClass?: string;
}) {
  if (status.quote === undefined) return <>{status.sentence}</>;
  return (
    <>
      <span className="status-words__lead">{status.sentence}</span>{' '}
      <Quoted text={status.quote} {...(quoteClass ? { className: quoteClass } : {})} />
    </>
  );
}

export function TaskMessage({ record, status }: { record: TaskRecord; status: StatusView }) {
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  const line = useRef<HTMLSpanElement>(null);
  const cut = useIsCut(line, '.task-row__quote');
  const quoted = status.quote !== undefined;
  return (
    <>
      <span
        ref={line}
        className={quoted ? 'task-row__sentence task-row__sentence--quoted' : 'task-row__sentence'}
        title={statusText(status)}
      >
        <StatusWords status={status} quoteClass="task-row__quote" />
      </span>
      {cut ? (
        <Button
          size="small"
          variant="ghost"
          className="task-row__read-all"
          aria-label={t('tasks.message.readAll.label')}
          onClick={() => openDetails(record.localId)}
        >
          {t('tasks.message.readAll')}
        </Button>
      ) : null}
    </>
  );
}
