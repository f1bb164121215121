/** The parameters and time of a task as one short line. */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { formatDateTime, formatSize, t } from '../../i18n';
import { qualityLabel } from '../compose/options';

export function parametersLine(record: TaskRecord): string {
  const { model, size, quality } = record.request;
  const parts = [model, size && formatSize(size), quality && qualityLabel(quality)].filter(
    (part): part is string => Boolean(part),
  );
  return parts.length > 0 ? parts.join(' · ') : t('tasks.meta.defaults');
}

export function createdLine(record: TaskRecord): string {
  return formatDateTime(record.createdAt);
}
