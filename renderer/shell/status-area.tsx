/**
 * The window's one status area, at its foot: in the layout, not over it, so it never covers a
 * selection bar, a row or a button. It says one thing at a time, the newest: the progress of a
 * long action (after a moment, so a quick one does not flash; main's deletes and Undos say theirs
 * as they run, trash-progress.tsx), a confirmation with its way back
 * (Undo), or an error with its details. A confirmation goes after a few seconds; with the focus
 * on it (a keyboard user reaching Undo) it stays a while longer, never for good; the pointer over
 * it changes nothing. An error stays until dismissed; a newer one shows first. The image viewer
 * covers the window, so it shows the area in its own frame (`placement="viewer"`) and the
 * window's stays empty meanwhile. Confirmations are said politely (the region is their
 * announcement); words follow a change of language. The window's area also takes Ctrl/Cmd+Z,
 * which runs the same steps as its Undo buttons (undo-key.ts).
 */
import { useEffect, useState } from 'react';
import { Button } from '../components/button';
import { ErrorMessage } from '../components/error-message';
import { Icon } from '../components/icon';
import { IconButton } from '../components/icon-button';
import { provideViewerStatus } from '../components/viewer-status';
import { t } from '../i18n';
import { useAppStore } from '../store/app-store';
import type { AppState } from '../store/app-state';
import { ExportProgress, TrashProgress } from './trash-progress';
import { useUndoKey } from './undo-key';
import { wordsOf, type StatusEntry, type StatusProgress } from '../store/status-slice';

/** How long a confirmation stays: long enough to read two lines. */
export const CONFIRMATION_MS = 6_000;
/** One with a way back (Undo) stays longer. */
export const ACTION_MS = 12_000;
/** The focus on it holds it, up to this long after it appeared: never for good. */
export const MAX_HOLD_MS = 30_000;
/** Progress shows only for an action that takes longer than this. */
const PROGRESS_AFTER_MS = 300;

/** Whether an image viewer covers the window now (it then shows the status area itself). */
function viewerCovers(state: AppState): boolean {
  return (
    (state.view === 'gallery' && state.galleryViewerKey !== null) ||
    (state.view === 'tasks' && state.tasksViewer !== null)
  );
}

/**
 * When a confirmation goes: its time, longer while the focus is on it, never past the cap; a
 * job's entry stays while the job runs, its time counted from when it ended.
 */
function useExpiry(entry: StatusEntry, held: boolean, dismiss: (id: number) => void): void {
  const running = entry.progress !== undefined;
  const [shownAt] = useState(() => Date.now());
  // Read in the same render as the entry's end, so no timer of the time it ran can fire first.
  const since = entry.endedAt ?? shownAt;
  useEffect(() => {
    if (running) return undefined;
    const age = Date.now() - since;
    const left = held
      ? MAX_HOLD_MS - age
      : Math.max(entry.action ? ACTION_MS : CONFIRMATION_MS, 0) - age;
    const timer = setTimeout(() => dismiss(entry.id), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [entry.id, entry.action, running, since, held, dismiss]);
}

/** How far a job is: a bar, and its count for the eye (the region says the sentence only). */
function JobProgress({ progress }: { progress: NonNullable<StatusEntry['progress']> }) {
  const count = t('status.progress', { done: progress.done, total: progress.total });
  return (
    <>
      <progress aria-label={count} max={Math.max(1, progress.total)} value={progress.done} />
      <span className="muted" aria-hidden="true">
        {count}
      </span>
    </>
  );
}

function Confirmation({ entry }: { entry: StatusEntry }) {
  const dismiss = useAppStore((state) => state.dismissStatus);
  const [held, setHeld] = useState(false);
  useExpiry(entry, held, dismiss);
  const { action, progress } = entry;
  return (
    <div
      className="status-area__entry message message--success"
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <Icon name={progress ? 'clock' : 'check'} className="message__icon" />
      <p className="message__body message__text">{wordsOf(entry.text)}</p>
      {progress ? <JobProgress progress={progress} /> : null}
      {action ? (
        <Button
          size="small"
          onClick={() => {
            // A job's entry stays to say how its Undo goes; a plain confirmation has said it.
            if (!progress) dismiss(entry.id);
            action.run();
          }}
        >
          {wordsOf(action.label)}
        </Button>
      ) : null}
      {progress ? null : (
        <IconButton
          icon="close"
          size="small"
          label={t('common.dismiss')}
          onClick={() => dismiss(entry.id)}
        />
      )}
    </div>
  );
}

/** Whether `progress` has lasted long enough to be worth saying. */
function useLasting(progress: StatusProgress | null): boolean {
  const [lasting, setLasting] = useState<number | null>(null);
  const id = progress?.id ?? null;
  useEffect(() => {
    if (id === null) return undefined;
    const timer = setTimeout(() => setLasting(id), PROGRESS_AFTER_MS);
    return () => clearTimeout(timer);
  }, [id]);
  return id !== null && lasting === id;
}

function ProgressLine({ progress }: { progress: StatusProgress }) {
  const words = wordsOf(progress.text);
  return (
    <div className="status-area__entry status-area__progress">
      <span className="status-area__progress-text">{words}</span>
      <progress aria-label={words} max={Math.max(1, progress.total)} value={progress.done} />
      <span className="muted">
        {t('status.progress', { done: progress.done, total: progress.total })}
      </span>
    </div>
  );
}

export function StatusArea({ placement = 'window' }: { placement?: 'window' | 'viewer' }) {
  const entries = useAppStore((state) => state.statusEntries);
  const progress = useAppStore((state) => state.statusProgress);
  const covered = useAppStore(viewerCovers);
  const dismiss = useAppStore((state) => state.dismissStatus);
  const lasting = useLasting(progress);
  useUndoKey(placement === 'window');
  if (placement === 'window' && covered) return null;
  const showProgress = progress !== null && lasting;
  const current = showProgress ? undefined : entries.at(-1);
  // Jobs under way stay in view (with their Undo) under whatever is newer.
  const said = entries.filter(
    (entry) => entry.kind === 'done' && (entry === current || entry.progress !== undefined),
  );
  return (
    <div className={`status-area status-area--${placement}`}>
      <TrashProgress />
      <ExportProgress />
      {showProgress ? <ProgressLine progress={progress} /> : null}
      <div
        className="status-area__slot"
        role="status"
        aria-live="polite"
        aria-label={t('toasts.confirmationsLabel')}
      >
        {said.map((entry) => (
          <Confirmation key={entry.id} entry={entry} />
        ))}
      </div>
      <section className="status-area__slot" aria-label={t('toasts.label')}>
        {current?.kind === 'error' ? (
          <div className="status-area__entry">
            <ErrorMessage
              message={wordsOf(current.text)}
              detail={current.detail}
              onDismiss={() => dismiss(current.id)}
            />
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** The area as the image viewer shows it in its frame (components/viewer-status.tsx). */
function ViewerStatusArea() {
  return <StatusArea placement="viewer" />;
}
provideViewerStatus(ViewerStatusArea);
