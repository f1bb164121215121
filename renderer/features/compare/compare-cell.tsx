/**
 * One cell of the compare view: the target's image(s), its label (service · model, #1/#2, which
 * names the cell), the prompt it was sent, its
 * status (live, with the reason of a failure), the time from submit to saved, its cost labelled
 * reported or estimated, the seed when the service said one, the Content Credentials mark as a
 * gallery tile shows it, and the triage it has (pick, reject, stars).
 */
import { useId, type Ref } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { flagOf, ratingOf } from '../../../shared/domain/triage';
import { CredentialsMark } from '../../components/content-credentials';
import { errorText, formatDuration, t, type MessageKey } from '../../i18n';
import { imageUrl } from '../../lib/api';
import { costLine, formatCost } from '../../lib/cost-text';
import { savedImages } from '../../lib/saved-images';
import { compareTargetName } from '../../lib/service-label';

interface CompareCellProps {
  readonly record: TaskRecord;
  readonly focused: boolean;
  readonly cellRef: Ref<HTMLDivElement>;
  readonly onFocus: () => void;
}

/** The time from the submit to the last image saved; null while not all are saved. */
function submitToSaved(record: TaskRecord): number | null {
  const saved = savedImages(record);
  if (saved.length === 0 || record.status !== 'completed') return null;
  const last = Math.max(...saved.map((image) => image.savedAt ?? 0));
  const start = record.submittedAt ?? record.createdAt;
  return last > 0 ? Math.max(0, last - start) : null;
}

function statusText(record: TaskRecord): string {
  const canceled = record.status === 'failed' && record.error?.kind === 'canceled';
  const status = t(
    (canceled ? 'tasks.status.canceled' : `tasks.status.${record.status}`) as MessageKey,
  );
  return record.error && !canceled ? `${status}: ${errorText(record.error)}` : status;
}

/**
 * The cost as the task rows say it where no amount is known ("free (demo)", "not billed"), and
 * with its amount and source where one is.
 */
function costText(record: TaskRecord): string {
  const { cost } = record;
  if (!cost) return t('compare.cost.none');
  if (!('micros' in cost)) return costLine(cost);
  const amount = formatCost(cost.micros, cost.unit);
  if (cost.source === 'reported') return t('compare.cost.reported', { cost: amount });
  return t('compare.cost.estimated', { cost: amount });
}

export function CompareCell({ record, focused, cellRef, onFocus }: CompareCellProps) {
  const slot = record.compare?.slot ?? 0;
  const label = compareTargetName(record);
  const images = savedImages(record);
  const time = submitToSaved(record);
  const labelId = useId();
  return (
    <div
      ref={cellRef}
      className={`compare-cell${focused ? ' compare-cell--focused' : ''}`}
      role="gridcell"
      tabIndex={focused ? 0 : -1}
      aria-selected={focused}
      // Named by its visible label (service · model, #1/#2), so what a voice user reads is its name.
      aria-labelledby={labelId}
      data-slot={slot}
      data-status={record.status}
      onFocus={onFocus}
    >
      <div className="compare-cell__images">
        {images.length === 0 ? (
          <span className="compare-cell__none">{t('compare.noImage')}</span>
        ) : null}
        {images.map((image) => (
          <div key={image.index} className="compare-cell__image">
            {image.file ? (
              <img
                src={imageUrl(image.thumbnail ?? image.file)}
                alt={record.request.prompt}
                draggable={false}
              />
            ) : null}
            <CredentialsMark credentials={image.contentCredentials} corner />
            <TriageMarks flag={flagOf(image)} rating={ratingOf(image)} />
          </div>
        ))}
      </div>
      <div className="compare-cell__facts">
        <strong className="compare-cell__label" id={labelId}>
          {label}
        </strong>
        <span className="compare-cell__prompt" dir="auto">
          {record.request.prompt}
        </span>
        <span className="compare-cell__status">{statusText(record)}</span>
        <span>
          {time === null
            ? t('compare.timeNone')
            : t('compare.time', { duration: formatDuration(time) })}
        </span>
        <span>{costText(record)}</span>
        {record.seed === undefined ? null : (
          // A seed is an identifier to copy into another request, as a task id: its own digits,
          // never grouped or in the language's numerals.
          <span className="compare-cell__seed">
            {t('compare.seed', { seed: String(record.seed) })}
          </span>
        )}
      </div>
    </div>
  );
}

function TriageMarks({ flag, rating }: { flag: string; rating: number }) {
  if (flag === 'none' && rating === 0) return null;
  return (
    <span className="compare-cell__marks">
      {flag === 'pick' ? t('triage.flag.pick') : null}
      {flag === 'reject' ? t('triage.flag.reject') : null}
      {rating > 0 ? ` ${'★'.repeat(rating)}` : null}
    </span>
  );
}
