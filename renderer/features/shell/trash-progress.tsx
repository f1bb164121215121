/**
 * How far a delete or an Undo in main is, where its Undo was offered (the confirmations' corner):
 * a sentence and a progress bar while it runs, and, when the app waits for it to quit, that too.
 */
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

const LABEL = {
  'restore-images': 'trash.progress.restoreImages',
  'restore-tasks': 'trash.progress.restoreTasks',
  'delete-images': 'trash.progress.deleteImages',
  'delete-tasks': 'trash.progress.deleteTasks',
} as const;

export function TrashProgress() {
  const progress = useAppStore((state) => state.trashProgress);
  const quitting = useAppStore((state) => state.trashQuitting);
  if (progress === null) return null;
  const label = t(LABEL[`${progress.operation}-${progress.items}`], {
    done: progress.done,
    total: progress.total,
  });
  return (
    <div className="toast message trash-progress" role="group" aria-label={label}>
      <p className="message__body message__text">{label}</p>
      <progress
        className="trash-progress__bar"
        max={Math.max(1, progress.total)}
        value={progress.done}
        aria-label={label}
      />
      {quitting ? <p className="message__text">{t('trash.quitting')}</p> : null}
    </div>
  );
}
