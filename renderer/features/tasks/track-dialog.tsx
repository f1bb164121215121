/** "Track a task id": paste an id created elsewhere (optionally its prompt); it is polled like ours. */
import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { announce } from '../../components/live-region';
import { t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';

export function TrackDialog({ onClose }: { onClose: () => void }) {
  const ids = { form: useId(), hint: useId() };
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
        <Field
          label={t('tasks.track.taskId')}
          describedBy={ids.hint}
          error={attempted && missing ? t('tasks.track.taskIdMissing') : null}
        >
          {(control) => (
            <input
              {...control}
              className="input mono"
              value={taskId}
              spellCheck={false}
              autoComplete="off"
              data-autofocus
              onChange={(event) => setTaskId(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('tasks.track.prompt')}>
          {(control) => (
            <input
              {...control}
              className="input"
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
            />
          )}
        </Field>
        {error ? <ErrorMessage message={error.message} detail={error.detail} /> : null}
      </form>
    </Dialog>
  );
}
