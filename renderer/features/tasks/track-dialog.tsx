/**
 * "Track a task id": paste an id created elsewhere (optionally its prompt); it is polled like ours.
 * Open, with what is typed, in the store (form-drafts.ts): a new language draws it anew as it was.
 */
import { useId, useState, type FormEvent } from 'react';
import { CancelAndAction, Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { announce } from '../../components/live-region';
import { t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { TrackDraft } from '../../store/form-drafts';
import { useFormDraft } from '../../store/use-form-draft';

const NOTHING_TYPED: TrackDraft = { taskId: '', prompt: '' };

/** The dialog open or not (what is typed in it while open), kept over a new language. */
export function useTrackOpen(): {
  readonly open: boolean;
  readonly show: () => void;
  readonly close: () => void;
} {
  const [draft, setDraft] = useFormDraft('track.dialog', null);
  return {
    open: draft !== null,
    show: () => setDraft(NOTHING_TYPED),
    close: () => setDraft(null),
  };
}

/** The form's fields and its submit: tracks the task, says so and closes; or shows why not. */
function useTrackForm(onClose: () => void) {
  const track = useAppStore((state) => state.tasksTrack);
  const [draft, setDraft] = useFormDraft('track.dialog', NOTHING_TYPED);
  const { taskId, prompt } = draft ?? NOTHING_TYPED;
  const setTaskId = (text: string) => setDraft({ taskId: text, prompt });
  const setPrompt = (text: string) => setDraft({ taskId, prompt: text });
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const missing = taskId.trim() === '';

  const submit = async (event: FormEvent): Promise<void> => {
    // No page load: the task is tracked through main.
    event.preventDefault();
    setAttempted(true);
    if (missing) return;
    setBusy(true);
    setError(null);
    try {
      await track(taskId, prompt);
      announce(t('tasks.track.done'));
      onClose();
    } catch (caught) {
      setError(toApiError(caught));
      setBusy(false);
    }
  };
  return { taskId, setTaskId, prompt, setPrompt, error, busy, attempted, missing, submit };
}

export function TrackDialog({ onClose }: { onClose: () => void }) {
  const ids = { form: useId(), hint: useId() };
  const entry = useTrackForm(onClose);
  return (
    <Dialog
      title={t('tasks.track.title')}
      onClose={onClose}
      footer={
        <CancelAndAction
          label={t('tasks.track.submit')}
          onCancel={onClose}
          go={{ form: ids.form }}
          disabled={entry.busy}
        />
      }
    >
      <form
        id={ids.form}
        className="track-form"
        noValidate
        onSubmit={(event) => void entry.submit(event)}
      >
        <p className="muted" id={ids.hint}>
          {t('tasks.track.explain')}
        </p>
        <Field
          label={t('tasks.track.taskId')}
          describedBy={ids.hint}
          error={entry.attempted && entry.missing ? t('tasks.track.taskIdMissing') : null}
        >
          {(control) => (
            <input
              {...control}
              className="input mono"
              value={entry.taskId}
              spellCheck={false}
              autoComplete="off"
              data-autofocus
              onChange={(event) => entry.setTaskId(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('tasks.track.prompt')}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={entry.prompt}
              onChange={(event) => entry.setPrompt(event.target.value)}
            />
          )}
        </Field>
        {entry.error ? (
          <ErrorMessage message={entry.error.message} detail={entry.error.detail} />
        ) : null}
      </form>
    </Dialog>
  );
}
