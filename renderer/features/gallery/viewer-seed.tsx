/**
 * The seed the image's service used, read from its task's record, with "Use this seed" as the
 * task's details offer it (components/task-seed.tsx). Nothing while the record is read, nor when
 * the service said no seed ("Vary", which needs none, is among the viewer's actions).
 */
import { useEffect, useState } from 'react';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { TaskSeed } from '../../components/task-seed';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

/** The task's record, read once per task shown; null until read, or when it is gone. */
function useTaskRecord(localId: string): TaskRecord | null {
  const [record, setRecord] = useState<TaskRecord | null>(null);
  useEffect(() => {
    let current = true;
    setRecord(null);
    useAppStore
      .getState()
      .taskRecordOf(localId)
      .then(
        (found) => current && setRecord(found),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [localId]);
  return record;
}

/** "Use this seed" from the viewer: the form takes the request, the viewer closes onto it. */
function seedFromViewer(record: TaskRecord): void {
  const state = useAppStore.getState();
  state.galleryCloseViewer();
  state.setView('tasks');
  state.useTaskSeed(record);
}

export function ViewerSeed({ localId }: { readonly localId: string }) {
  const record = useTaskRecord(localId);
  if (record?.seed === undefined) return null;
  return (
    <div className="viewer-details__row">
      <dt>{t('tasks.details.seed')}</dt>
      <dd>
        <TaskSeed record={record} onUse={seedFromViewer} />
      </dd>
    </div>
  );
}
