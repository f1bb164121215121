/**
 * Settings › Library: export the whole library to one archive, import an archive or a folder.
 * The main process shows its own save and open dialogs (the page never names a path), sends
 * progress as `library:progress`, and answers with a summary; Cancel stops a running operation.
 */
import { useEffect, useId, useState } from 'react';
import type {
  ExportSummaryView,
  ImportSummaryView,
  LibraryProgressView,
} from '../../../shared/ipc/library-contract';
import { Button } from '../../components/button';
import { errorText, formatBytes, t } from '../../i18n';
import { call, listen, toApiError, type ApiError } from '../../lib/api';
import { FieldError } from './field-error';

type Outcome =
  | { readonly kind: 'export'; readonly summary: ExportSummaryView }
  | { readonly kind: 'import'; readonly summary: ImportSummaryView };

/**
 * Exports the tasks named (or, without ids, the whole library) through main's save dialog.
 * Resolves to null when the user cancelled the dialog. For any view with a selection.
 */
async function exportToArchive(localIds?: readonly string[]): Promise<ExportSummaryView | null> {
  const { summary } = await call('library:export', localIds ? { localIds: [...localIds] } : {});
  return summary;
}

function Refusals({
  items,
  total,
  heading,
}: {
  items: ExportSummaryView['skipped'];
  total: number;
  heading: string;
}) {
  if (total === 0) return null;
  return (
    <details className="library-refusals">
      <summary>{heading}</summary>
      <ul>
        {items.map((item) => (
          <li key={item.path}>
            <span className="mono">{item.path}</span>{' '}
            {errorText({ message: item.reason, sentence: item.reasonSentence })}
          </li>
        ))}
      </ul>
      {total > items.length ? (
        <p>{t('settings.library.refusedMore', { count: total - items.length })}</p>
      ) : null}
    </details>
  );
}

function Summary({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'export') {
    const { summary } = outcome;
    return (
      <div role="status">
        <p>
          {t('settings.library.exported', {
            tasks: summary.tasks,
            images: summary.images,
            size: formatBytes(summary.bytes),
            file: summary.file,
          })}
        </p>
        <Refusals
          items={summary.skipped}
          total={summary.skippedTotal}
          heading={t('settings.library.exportSkipped', { count: summary.skippedTotal })}
        />
      </div>
    );
  }
  const { summary } = outcome;
  return (
    <div role="status">
      {summary.cancelled ? <p>{t('settings.library.cancelled')}</p> : null}
      <p>
        {t('settings.library.imported', { tasks: summary.addedTasks, images: summary.addedImages })}
      </p>
      {summary.duplicateTasks + summary.duplicateImages > 0 ? (
        <p>
          {t('settings.library.duplicates', {
            tasks: summary.duplicateTasks,
            images: summary.duplicateImages,
          })}
        </p>
      ) : null}
      <Refusals
        items={summary.refused}
        total={summary.refusedTotal}
        heading={t('settings.library.refused', { count: summary.refusedTotal })}
      />
    </div>
  );
}

function Progress({ progress }: { progress: LibraryProgressView }) {
  const label = t('settings.library.progressLabel', { operation: progress.operation });
  return (
    <div className="library-progress">
      <progress aria-label={label} max={Math.max(progress.total, 1)} value={progress.done} />
      <p className="muted" aria-live="polite">
        {t('settings.library.progress', {
          operation: progress.operation,
          done: progress.done,
          total: progress.total,
          size: formatBytes(progress.bytes),
        })}
      </p>
    </div>
  );
}

export function LibrarySection() {
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<LibraryProgressView | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => listen('library:progress', setProgress), []);

  const run = async (work: () => Promise<Outcome | null>): Promise<void> => {
    setBusy(true);
    setError(null);
    setOutcome(null);
    setProgress(null);
    try {
      setOutcome(await work());
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  const exportAll = () =>
    run(async () => {
      const summary = await exportToArchive();
      return summary ? { kind: 'export', summary } : null;
    });
  const importFrom = (from: 'archive' | 'folder') =>
    run(async () => {
      const { summary } = await call('library:import', { from });
      return summary ? { kind: 'import', summary } : null;
    });

  return (
    <div className="field">
      <div className="settings-actions">
        <Button disabled={busy} onClick={() => void exportAll()}>
          {t('settings.library.export')}
        </Button>
        <Button icon="folder" disabled={busy} onClick={() => void importFrom('archive')}>
          {t('settings.library.importArchive')}
        </Button>
        <Button icon="folder" disabled={busy} onClick={() => void importFrom('folder')}>
          {t('settings.library.importFolder')}
        </Button>
        {busy ? (
          <Button
            variant="danger"
            onClick={() => void call('library:cancel').catch(() => undefined)}
          >
            {t('settings.library.cancel')}
          </Button>
        ) : null}
      </div>
      {busy && progress ? <Progress progress={progress} /> : null}
      {outcome ? <Summary outcome={outcome} /> : null}
      <p className="field__hint">{t('settings.library.hint')}</p>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
