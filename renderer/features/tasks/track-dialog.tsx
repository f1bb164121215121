/** "Track a task id": paste an id created elsewhere (optionally its prompt); it is polled like ours. */
import { useId, useState } from 'react';
import { Button, Dialog, ErrorMessage, announce } from '../../components';
import { t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store';

export function TrackDialog({ onClose }: { onClose: () => void }) {
  const ids = { form: useId(), taskId: useId(), prompt: useId(), hint: useId() };
  const track = useAppStore((state) => state.tasksTrack);
  const [taskId, setTaskId] = useState('');
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const missing = taskId.trim() === '';

  const submit = async (): Promise<void> => {
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

  return (
    <Dialog
      title={t('tasks.track.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={ids.form} variant="primary" disabled={busy}>
            {t('tasks.track.submit')}
          </Button>
        </>
      }
    >
      <form
        id={ids.form}
        className="track-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="muted" id={ids.hint}>
          {t('tasks.track.explain')}
        </p>
        <div className="field">
          <label className="field__label" htmlFor={ids.taskId}>
            {t('tasks.track.taskId')}
          </label>
          <input
            id={ids.taskId}
            className="input mono"
            value={taskId}
            spellCheck={false}
            autoComplete="off"
            data-autofocus
            aria-invalid={attempted && missing ? true : undefined}
            aria-describedby={ids.hint}
            onChange={(event) => setTaskId(event.target.value)}
          />
          {attempted && missing ? (
            <p className="field__error">{t('tasks.track.taskIdMissing')}</p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.prompt}>
            {t('tasks.track.prompt')}
          </label>
          <input
            id={ids.prompt}
            className="input"
            value={prompt}
            onChange={(event) => setPrompt(event.target.value)}
          />
        </div>
        {error ? <ErrorMessage message={error.message} detail={error.detail} /> : null}
      </form>
    </Dialog>
  );
}
