/** The service, parameters and time of a task as short lines. */
import { providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { formatDateTime, formatSize, t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';
import { qualityLabel } from '../compose/options';

/** The service the task lives on, then what it asked for (its defaults when nothing was). */
export function parametersLine(record: TaskRecord): string {
  const { model, size, quality } = record.request;
  const parts = [model, size && formatSize(size), quality && qualityLabel(quality)].filter(
    (part): part is string => Boolean(part),
  );
  const asked = parts.length > 0 ? parts.join(' · ') : t('tasks.meta.defaults');
  return `${serviceLabel(providerOf(record))} · ${asked}`;
}

export function createdLine(record: TaskRecord): string {
  return formatDateTime(record.createdAt);
}
