/**
 * A task row's status sentence, cut to one line in the row, with a way to read all of it: a
 * "Read all" button opens Task details, where the whole sentence, the
 * error and its technical detail are shown as selectable text.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

/** Sentences longer than this may be cut in a row at common widths; shorter ones always fit. */
export const ROW_SENTENCE_FITS = 60;

/** Whether a row's sentence needs its "Read all" (it may be cut, or there is more to read). */
export function needsFullMessage(record: TaskRecord, sentence: string): boolean {
  return sentence.length > ROW_SENTENCE_FITS || record.error?.detail !== undefined;
}

export function TaskMessage({ record, sentence }: { record: TaskRecord; sentence: string }) {
  const openDetails = useAppStore((state) => state.tasksOpenDetails);
  return (
    <>
      <span className="task-row__sentence" title={sentence}>
        {sentence}
      </span>
      {needsFullMessage(record, sentence) ? (
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
