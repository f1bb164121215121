/**
 * Changing the gallery folder, after main's own dialog returned a folder:
 * the question (move this library there, open the library already there or start an empty one,
 * or cancel), the progress of a move with Cancel, and the report of what happened. The page
 * holds only the ticket main gave for the folder, never a path it could send back. The folder's
 * name was made by whoever made the folder: the path is shown by the rule for shown values.
 */
import type { FolderChange, FolderChoice } from '../../../shared/ipc/contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { IconButton } from '../../components/icon-button';
import { ErrorMessage } from '../../components/error-message';
import { shownValue } from '../../../shared/text/shown-value';
import { sentence } from '../../../shared/i18n/sentence';
import { formatBytes, sentenceShown, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { FolderChangeState } from '../../store/settings-slice';
import { LeftOutList } from './left-out-list';

function facts(library: FolderChoice['library']): string {
  return t('settings.folder.facts', {
    tasks: library.tasks,
    files: library.files,
    size: formatBytes(library.bytes),
  });
}

/** The folder chosen is the gallery folder already: nothing to move or open, only to say so. */
function SameFolderDialog({ path }: { path: string }) {
  const dismiss = useAppStore((state) => state.folderDismiss);
  return (
    <Dialog
      title={t('settings.folder.sameTitle')}
      onClose={dismiss}
      footer={
        <Button variant="primary" data-autofocus onClick={dismiss}>
          {t('settings.folder.sameOk')}
        </Button>
      }
    >
      <p className="folder-path mono">{shownValue(path)}</p>
      <p>{t('settings.folder.sameBody')}</p>
    </Dialog>
  );
}

function AskDialog({ choice }: { choice: FolderChoice }) {
  const apply = useAppStore((state) => state.folderApply);
  const dismiss = useAppStore((state) => state.folderDismiss);
  // Main says whether it is one folder (links, `..`, case): the page cannot tell from paths.
  if (choice.same) {
    return <SameFolderDialog path={choice.path} />;
  }
  const hasLibrary = choice.library.tasks > 0;
  const move = (
    <Button variant={hasLibrary ? 'secondary' : 'primary'} onClick={() => void apply('move')}>
      {t('settings.folder.move')}
    </Button>
  );
  const open = (
    <Button variant={hasLibrary ? 'primary' : 'secondary'} onClick={() => void apply('open')}>
      {t(hasLibrary ? 'settings.folder.openThere' : 'settings.folder.startEmpty')}
    </Button>
  );
  return (
    <Dialog
      title={t('settings.folder.title')}
      onClose={dismiss}
      footer={
        <>
          {hasLibrary ? open : move}
          {hasLibrary ? move : open}
          <Button onClick={dismiss}>{t('common.cancel')}</Button>
        </>
      }
    >
      <p className="folder-path mono">{shownValue(choice.path)}</p>
      <p>
        {hasLibrary
          ? t('settings.folder.hasLibrary', { facts: facts(choice.library) })
          : t('settings.folder.noLibrary')}
      </p>
      <p>
        {t('settings.folder.current', { path: choice.current.path, facts: facts(choice.current) })}
      </p>
      <p className="field__hint">{t('settings.folder.moveHint')}</p>
      <p className="field__hint">
        {t(hasLibrary ? 'settings.folder.openHint' : 'settings.folder.emptyHint')}
      </p>
    </Dialog>
  );
}

function ProgressDialog({ state }: { state: Extract<FolderChangeState, { step: 'working' }> }) {
  const cancel = useAppStore((state) => state.folderCancel);
  const { progress, action, cancelling } = state;
  const moving = action === 'move';
  const label = t(moving ? 'settings.folder.moving' : 'settings.folder.opening');
  return (
    <Dialog
      title={label}
      // Escape during a move asks to cancel it; opening cannot be stopped half-way.
      onClose={() => void (moving ? cancel() : undefined)}
      footer={
        moving ? (
          <Button variant="danger" disabled={cancelling} onClick={() => void cancel()}>
            {t(cancelling ? 'settings.folder.cancelling' : 'settings.folder.cancelMove')}
          </Button>
        ) : null
      }
    >
      <p className="folder-path mono">{shownValue(state.choice.path)}</p>
      {progress ? (
        <>
          <progress
            aria-label={label}
            max={Math.max(progress.bytes, 1)}
            value={progress.bytesDone}
          />
          <p aria-live="polite">
            {t('settings.folder.progress', {
              filesDone: progress.filesDone,
              files: progress.files,
              bytesDone: formatBytes(progress.bytesDone),
              bytes: formatBytes(progress.bytes),
            })}
          </p>
        </>
      ) : (
        <p aria-live="polite">{t('settings.folder.starting')}</p>
      )}
    </Dialog>
  );
}

function reportSentence(result: FolderChange): string {
  if (result.outcome === 'cancelled') return t('settings.folder.cancelled', { path: result.path });
  if (result.outcome === 'opened')
    return t('settings.folder.opened', {
      path: result.path,
      imported: result.imported,
    });
  const moved = t('settings.folder.moved', {
    path: result.path,
    moved: result.moved,
  });
  return result.leftBehind > 0
    ? `${moved} ${t('settings.folder.leftBehind', { count: result.leftBehind })}`
    : moved;
}

/**
 * What opening a library left out, as `pictor rebuild` prints it: how many, and a list of each
 * with its reason; under it, once, what to do about a task folder left out for its name (the
 * rule it breaks is its reason), whose files were not changed.
 */
function LeftOut({ result }: { result: FolderChange }) {
  const named = result.skipped.some(
    (item) => item.reasonSentence?.key === 'error.library.pathRefused',
  );
  return (
    <LeftOutList
      items={result.skipped}
      total={result.skippedTotal}
      heading={t('settings.folder.leftOut', { count: result.skippedTotal })}
    >
      {named ? <p>{sentenceShown(sentence('error.library.taskFolderLeftOut'))}</p> : null}
    </LeftOutList>
  );
}

/** The question or the progress, as a dialog over Settings. */
export function GalleryFolderFlow() {
  const state = useAppStore((store) => store.folderChange);
  if (state.step === 'ask') return <AskDialog choice={state.choice} />;
  if (state.step === 'working') return <ProgressDialog state={state} />;
  return null;
}

/** What the last change did, under the folder field, until dismissed. */
export function GalleryFolderReport({ errorId }: { errorId: string }) {
  const state = useAppStore((store) => store.folderChange);
  const dismiss = useAppStore((store) => store.folderDismiss);
  if (state.step === 'failed')
    return (
      <ErrorMessage
        id={errorId}
        message={state.error.message}
        detail={state.error.detail}
        onDismiss={dismiss}
      />
    );
  if (state.step !== 'done') return null;
  const { result } = state;
  const tone = result.outcome === 'cancelled' || result.skippedTotal > 0 ? 'warning' : 'success';
  return (
    <div className={`message message--${tone}`} role="status">
      <div className="message__body">
        <p className="message__text">{reportSentence(result)}</p>
        <LeftOut result={result} />
      </div>
      <IconButton icon="close" size="small" label={t('common.dismiss')} onClick={dismiss} />
    </div>
  );
}
