/**
 * The API key: pasted once into a masked field and never shown again; afterwards only its
 * fingerprint and how it is stored. Weak storage needs the user's explicit consent.
 */
import { useId, useRef, useState } from 'react';
import type { KeyStatus } from '../../../shared/domain/key-status';
import { Button, ConfirmDialog, ErrorMessage, Icon, Spinner, announce } from '../../components';
import { t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store';
import { useFocusRequest } from '../shell/use-focus-request';
import { backendName, needsConsent } from './key-labels';

function StoredKey({
  status,
  onReplace,
  onRemove,
}: {
  status: KeyStatus;
  onReplace: () => void;
  onRemove: () => void;
}) {
  return (
    <div className="key-stored">
      <p className="key-stored__line">
        <Icon name="check" className="key-stored__icon" />
        <span>{t('settings.key.stored', { fingerprint: status.fingerprint ?? '' })}</span>
      </p>
      <p className="muted">
        {t('settings.key.storedWith', { backend: backendName(status.backend) })}
      </p>
      <p className="muted">
        {status.origin
          ? t('settings.key.boundTo', { origin: status.origin })
          : t('settings.key.unbound')}
      </p>
      {status.weak ? (
        <ErrorMessage
          role="none"
          tone="warning"
          message={status.message ?? t('settings.key.weakWarning')}
        />
      ) : null}
      <div className="settings-actions">
        <Button onClick={onReplace}>{t('settings.key.replace')}</Button>
        <Button variant="danger" onClick={onRemove}>
          {t('settings.key.remove')}
        </Button>
      </div>
    </div>
  );
}

interface ConsentPanelProps {
  status: KeyStatus;
  busy: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

function ConsentPanel({ status, busy, onAccept, onDecline }: ConsentPanelProps) {
  const questionId = useId();
  return (
    <div className="consent" role="group" aria-labelledby={questionId}>
      <ErrorMessage
        role="alert"
        tone="warning"
        message={status.message ?? t('settings.key.weakWarning')}
      />
      <p className="consent__question" id={questionId}>
        {t('settings.key.consent.question')}
      </p>
      <div className="settings-actions">
        <Button variant="danger" disabled={busy} onClick={onAccept}>
          {t('settings.key.consent.accept')}
        </Button>
        <Button disabled={busy} onClick={onDecline}>
          {t('settings.key.consent.decline')}
        </Button>
      </div>
    </div>
  );
}

export function KeySection({ active }: { active: boolean }) {
  const ids = { input: useId(), hint: useId(), error: useId() };
  const status = useAppStore((state) => state.keyStatus);
  const keySet = useAppStore((state) => state.keySet);
  const keyClear = useAppStore((state) => state.keyClear);
  const [text, setText] = useState('');
  const [replacing, setReplacing] = useState(false);
  const [consent, setConsent] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('key', input, active);

  const store = async (allowWeakStorage: boolean): Promise<void> => {
    if (text.trim() === '') return;
    setBusy(true);
    setError(null);
    try {
      const next = await keySet(text, allowWeakStorage);
      if (!allowWeakStorage && needsConsent(next)) {
        setConsent(true);
        return;
      }
      setText('');
      setConsent(false);
      setReplacing(false);
      announce(t('settings.key.savedAnnounce'));
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (): Promise<void> => {
    setConfirmRemove(false);
    try {
      await keyClear();
      announce(t('settings.key.removedAnnounce'));
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  if (!status) return <Spinner label={t('settings.loading')} />;
  const showStored = status.state === 'ready' && !replacing;
  const warning =
    !showStored && status.state !== 'not_set' && status.state !== 'ready' && !consent
      ? status.message
      : null;
  return (
    <div className="key-section">
      {showStored ? (
        <StoredKey
          status={status}
          onReplace={() => setReplacing(true)}
          onRemove={() => setConfirmRemove(true)}
        />
      ) : (
        <form
          className="key-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void store(false);
          }}
        >
          {warning ? <ErrorMessage role="none" tone="warning" message={warning} /> : null}
          <div className="field">
            <label className="field__label" htmlFor={ids.input}>
              {t('settings.key.label')}
            </label>
            <div className="inline-controls">
              <input
                id={ids.input}
                ref={input}
                className="input mono"
                type="password"
                value={text}
                autoComplete="off"
                spellCheck={false}
                placeholder={t('settings.key.placeholder')}
                aria-describedby={ids.hint}
                disabled={consent}
                onChange={(event) => setText(event.target.value)}
              />
              <Button
                type="submit"
                variant="primary"
                disabled={busy || consent || text.trim() === ''}
              >
                {t('settings.key.save')}
              </Button>
              {replacing ? (
                <Button
                  onClick={() => {
                    setReplacing(false);
                    setText('');
                  }}
                >
                  {t('common.cancel')}
                </Button>
              ) : null}
            </div>
            <p className="field__hint" id={ids.hint}>
              {t('settings.key.hint')}
            </p>
          </div>
          {consent ? (
            <ConsentPanel
              status={status}
              busy={busy}
              onAccept={() => void store(true)}
              onDecline={() => {
                setConsent(false);
                setText('');
              }}
            />
          ) : null}
          {status.fingerprint && status.state !== 'ready' ? (
            <div className="settings-actions">
              <Button variant="danger" onClick={() => setConfirmRemove(true)}>
                {t('settings.key.remove')}
              </Button>
            </div>
          ) : null}
        </form>
      )}
      {error ? (
        <ErrorMessage
          message={error.message}
          detail={error.detail}
          onDismiss={() => setError(null)}
        />
      ) : null}
      {confirmRemove ? (
        <ConfirmDialog
          title={t('settings.key.removeConfirm.title')}
          body={t('settings.key.removeConfirm.body')}
          confirmLabel={t('settings.key.remove')}
          danger
          onCancel={() => setConfirmRemove(false)}
          onConfirm={() => void remove()}
        />
      ) : null}
    </div>
  );
}
