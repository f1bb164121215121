/**
 * Settings › Library: export the whole library to one archive, import an archive or a folder.
 * The main process shows its own save and open dialogs (the page never names a path), sends
 * progress as `archive:progress`, and answers with a summary; Cancel stops a running operation.
 * The paths it lists come from folders and archives anyone could have written (a task folder a
 * rebuild kept as it was named): each is shown by the rule for shown values.
 */
import { useId } from 'react';
import type { ArchiveProgressView } from '../../../shared/ipc/archive-contract';
import { Button } from '../../components/button';
import { errorText, formatBytes, sentenceShown, t } from '../../i18n';
import { keyRemovedExportedSentence } from '../../../shared/i18n/key-removed';
import { useAppStore } from '../../store/app-store';
import type { ArchiveOutcome as Outcome } from '../../store/archive-slice';
import { FieldError } from './field-error';
import { LeftOutList } from './left-out-list';

function Summary({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'export') {
    const { summary } = outcome;
    return (
      <div role="status">
        <p>
          {t('settings.archive.exported', {
            tasks: summary.tasks,
            images: summary.images,
            size: formatBytes(summary.bytes),
            file: summary.file,
          })}
        </p>
        {summary.keyRemoved > 0 ? (
          <p>{sentenceShown(keyRemovedExportedSentence(summary.keyRemoved))}</p>
        ) : null}
        <LeftOutList
          items={summary.skipped}
          total={summary.skippedTotal}
          heading={t('settings.archive.exportSkipped', { count: summary.skippedTotal })}
        />
      </div>
    );
  }
  const { summary } = outcome;
  return (
    <div role="status">
      {summary.cancelled ? <p>{t('settings.archive.cancelled')}</p> : null}
      <p>
        {t('settings.archive.imported', { tasks: summary.addedTasks, images: summary.addedImages })}
      </p>
      {summary.duplicateTasks + summary.duplicateImages > 0 ? (
        <p>
          {t('settings.archive.duplicates', {
            tasks: summary.duplicateTasks,
            images: summary.duplicateImages,
          })}
        </p>
      ) : null}
      {summary.notes.map((note) => (
        <p key={note.key + JSON.stringify(note.params ?? {})}>
          {errorText({ message: '', sentence: note })}
        </p>
      ))}
      <LeftOutList
        items={summary.refused}
        total={summary.refusedTotal}
        heading={t('settings.archive.refused', { count: summary.refusedTotal })}
      />
    </div>
  );
}

function Progress({ progress }: { progress: ArchiveProgressView }) {
  const label = t('settings.archive.progressLabel', { operation: progress.operation });
  return (
    <div className="library-progress">
      <progress aria-label={label} max={Math.max(progress.total, 1)} value={progress.done} />
      <p className="muted" aria-live="polite">
        {t('settings.archive.progress', {
          operation: progress.operation,
          done: progress.done,
          total: progress.total,
          size: formatBytes(progress.bytes),
        })}
      </p>
    </div>
  );
}

export function ArchiveSection() {
  const errorId = useId();
  const { busy, progress, outcome, error } = useAppStore((state) => state.archive);
  const exportAll = useAppStore((state) => state.archiveExport);
  const importFrom = useAppStore((state) => state.archiveImport);
  const cancel = useAppStore((state) => state.archiveCancel);

  return (
    <div className="field">
      <div className="settings-actions">
        <Button disabled={busy} onClick={() => void exportAll()}>
          {t('settings.archive.export')}
        </Button>
        <Button icon="folder" disabled={busy} onClick={() => void importFrom('archive')}>
          {t('settings.archive.importArchive')}
        </Button>
        <Button icon="folder" disabled={busy} onClick={() => void importFrom('folder')}>
          {t('settings.archive.importFolder')}
        </Button>
        {busy ? (
          <Button variant="danger" onClick={() => void cancel()}>
            {t('settings.archive.cancel')}
          </Button>
        ) : null}
      </div>
      {busy && progress ? <Progress progress={progress} /> : null}
      {outcome ? <Summary outcome={outcome} /> : null}
      <p className="field__hint">{t('settings.archive.hint')}</p>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
