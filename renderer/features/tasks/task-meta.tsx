/** The service, parameters and time of a task as short lines. */
import type { ReactNode } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { IsolatedName } from '../../components/isolated-name';
import { formatDateTime, formatSize, t } from '../../i18n';
import { recordServiceLabel } from '../../lib/service-label';
import { qualityLabel } from '../../lib/request-options';

/**
 * The service the task lives on, then what it asked for (its defaults when nothing was). The
 * model is a name from the record, which may have come from a file: isolated in the line.
 */
export function parametersLine(record: TaskRecord): ReactNode {
  const { model, size, quality } = record.request;
  const rest = [size && formatSize(size), quality && qualityLabel(quality)].filter(
    (part): part is string => Boolean(part),
  );
  if (!model && rest.length === 0) {
    return `${recordServiceLabel(record)} · ${t('tasks.meta.defaults')}`;
  }
  return (
    <>
      {recordServiceLabel(record)}
      {model ? (
        <>
          {' · '}
          <IsolatedName name={model} />
        </>
      ) : null}
      {rest.map((part) => ` · ${part}`).join('')}
    </>
  );
}

export function createdLine(record: TaskRecord): string {
  return formatDateTime(record.createdAt);
}
