/**
 * How far a delete or an Undo in main is, in the status area where its Undo was offered: a
 * sentence and a progress bar while it runs (unless the window's own entry for it says so, with
 * its Undo: store/trash-job.ts), and, when the app waits for it to quit, that too.
 * An export of a selection says how far it is the same way.
 */
import { t } from '../i18n';
import { useAppStore } from '../store/app-store';

const LABEL = {
  'restore-images': 'trash.progress.restoreImages',
  'restore-tasks': 'trash.progress.restoreTasks',
  'delete-images': 'trash.progress.deleteImages',
  'delete-tasks': 'trash.progress.deleteTasks',
} as const;

export function TrashProgress() {
  const progress = useAppStore((state) => state.trashProgress);
  const quitting = useAppStore((state) => state.trashQuitting);
  // A delete or Undo the window asked for says how far it is in its own entry, with its Undo.
  const saidByJob = useAppStore((state) =>
    state.statusEntries.some((entry) => entry.progress !== undefined),
  );
  if (progress === null || (saidByJob && !quitting)) return null;
  const label = t(LABEL[`${progress.operation}-${progress.items}`], {
    done: progress.done,
    total: progress.total,
  });
  return (
    <div className="status-area__entry status-area__progress" role="group" aria-label={label}>
      <span className="status-area__progress-text">{label}</span>
      <progress max={Math.max(1, progress.total)} value={progress.done} aria-label={label} />
      {quitting ? <span className="muted">{t('trash.quitting')}</span> : null}
    </div>
  );
}

/** How far main's copy of an exported selection is, while it runs. */
export function ExportProgress() {
  const progress = useAppStore((state) => state.exportProgress);
  if (progress === null) return null;
  const label = t('export.progress', { done: progress.done, total: progress.total });
  return (
    <div className="status-area__entry status-area__progress" role="group" aria-label={label}>
      <span className="status-area__progress-text">{label}</span>
      <progress max={Math.max(1, progress.total)} value={progress.done} aria-label={label} />
    </div>
  );
}
