/**
 * A task's request used again beyond Rerun: "Vary" (the same request with a new seed, where the
 * model takes a seed) and "Copy as command" (the `pictor generate …` and cURL lines that send it
 * again as it ran, with its seed, never the key).
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Button } from '../../components/button';
import { t } from '../../i18n';
import { canVary } from '../../lib/can-vary';
import { useAppStore } from '../../store/app-store';

export function RequestActions({ record }: { record: TaskRecord }) {
  const vary = useAppStore((state) => state.tasksVary);
  const copy = useAppStore((state) => state.copyTaskCommand);
  return (
    <>
      {canVary(record) ? (
        <Button icon="retry" title={t('tasks.action.vary.hint')} onClick={() => void vary(record)}>
          {t('tasks.action.vary')}
        </Button>
      ) : null}
      <Button icon="copy" onClick={() => void copy(record)}>
        {t('compose.command.copy')}
      </Button>
    </>
  );
}
