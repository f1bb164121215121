/**
 * The seed a task's service said it used, with "Use this seed" (the form takes the task's request
 * with that seed, locked): the task's details and the gallery's image viewer show it alike. "Vary"
 * is not here: it needs no reported seed, and stands among each place's actions (lib/can-vary.ts).
 */
import type { TaskRecord } from '../../shared/domain/task-record';
import { t } from '../i18n';
import { Button } from './button';

interface TaskSeedProps {
  readonly record: TaskRecord;
  readonly onUse: (record: TaskRecord) => void;
}

/** Nothing when the service said no seed. */
export function TaskSeed({ record, onUse }: TaskSeedProps) {
  if (record.seed === undefined) return null;
  return (
    <>
      <span className="mono">{String(record.seed)}</span>{' '}
      <Button size="small" icon="send" onClick={() => onUse(record)}>
        {t('tasks.action.useSeed')}
      </Button>
    </>
  );
}
