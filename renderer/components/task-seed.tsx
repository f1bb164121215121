/**
 * The seed a task's service said it used, with "Use this seed" (the form takes the task's request
 * with that seed, locked) and, where asked for, "Vary" (the same request with a new seed): the
 * task's details and the gallery's image viewer show it alike.
 */
import { shippedParamSchema } from '../../shared/domain/model-param-schemas';
import { commonParam } from '../../shared/domain/model-params';
import { providerOf } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { t } from '../i18n';
import { Button } from './button';

/** Whether the task's model takes a seed on its service (else a new one would change nothing). */
export function takesSeed(record: TaskRecord): boolean {
  const schema = shippedParamSchema(providerOf(record), record.request.model?.trim());
  return commonParam(schema, 'seed') !== undefined;
}

interface TaskSeedProps {
  readonly record: TaskRecord;
  readonly onUse: (record: TaskRecord) => void;
  /** Absent: no "Vary" here (the task's details offer it among the request's actions). */
  readonly onVary?: ((record: TaskRecord) => void) | undefined;
}

/** Nothing when the service said no seed. */
export function TaskSeed({ record, onUse, onVary }: TaskSeedProps) {
  if (record.seed === undefined) return null;
  return (
    <>
      <span className="mono">{String(record.seed)}</span>{' '}
      <Button size="small" icon="send" onClick={() => onUse(record)}>
        {t('tasks.action.useSeed')}
      </Button>
      {onVary && takesSeed(record) ? (
        <Button
          size="small"
          icon="retry"
          title={t('tasks.action.vary.hint')}
          onClick={() => onVary(record)}
        >
          {t('tasks.action.vary')}
        </Button>
      ) : null}
    </>
  );
}
