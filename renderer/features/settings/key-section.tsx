/**
 * The API key: pasted once into a masked field and never shown again; afterwards only its
 * fingerprint and how it is stored. Weak storage needs the user's explicit consent.
 */
import { useId, useReducer, useRef } from 'react';
import type { KeyStatus } from '../../../shared/domain/key-status';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { errorText, t } from '../../i18n';
import { problemOf, type Problem } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFocusRequest } from '../shell/use-focus-request';
import { ConnectionTest } from './connection-test';
import { INITIAL_KEY_FORM, askingConsent, canSave, keyFormReducer, uncheckedWhy } from './key-form';
import { backendName, keyStatusText, needsConsent } from './key-labels';

/** A report's technical detail, when it has one, for a {@link Problem}. */
function detailOf(report: { readonly detail?: string | undefined }): Pick<Problem, 'detail'> {
  return report.detail === undefined ? {} : { detail: report.detail };
}

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
        {status.baseUrl
          ? t('settings.key.boundTo', { address: status.baseUrl })
          : t('settings.key.unbound')}
      </p>
      {status.weak ? (
        <ErrorMessage
          role="none"
          tone="warning"
          message={keyStatusText(status) ?? t('settings.key.weakWarning')}
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
        message={keyStatusText(status) ?? t('settings.key.weakWarning')}
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
  const status = useAppStore((state) => state.keyStatus);
  const keySet = useAppStore((state) => state.keySet);
  const keyClear = useAppStore((state) => state.keyClear);
  const confirm = useAppStore((state) => state.confirm);
  const testService = useAppStore((state) => state.serviceTest);
  const [form, dispatch] = useReducer(keyFormReducer, INITIAL_KEY_FORM);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('key', input, active);
  const { text, replacing, error } = form;
  const busy = form.phase.name === 'saving' || form.phase.name === 'unchecked';
  const consent = askingConsent(form.phase);

  const savedBaseUrl = useAppStore((state) => state.settings?.baseUrl ?? '');
  /**
   * Checks the key with the service it will be bound to (the saved address) before storing it:
   * a refused key is not stored; when the service cannot be asked, the user decides.
   */
  const check = async (): Promise<'save' | 'stop'> => {
    if (savedBaseUrl === '') return 'save';
    const report = await testService(savedBaseUrl, text);
    if (report.outcome === 'key_refused') {
      const message = t('settings.key.notSavedRefused', { reason: errorText(report) });
      dispatch({ type: 'failed', error: { message, ...detailOf(report) } });
      return 'stop';
    }
    if (report.outcome === 'unreachable' || report.outcome === 'failed') {
      dispatch({ type: 'uncheckable', why: { message: errorText(report), ...detailOf(report) } });
      return 'stop';
    }
    return 'save';
  };
  const store = async (weak: boolean, checked = false): Promise<void> => {
    if (!checked && !canSave(form, weak)) return;
    if (!checked) dispatch({ type: 'save', weak });
    try {
      if (!weak && !checked && (await check()) === 'stop') return;
      const next = await keySet(text, weak);
      if (!weak && needsConsent(next)) {
        dispatch({ type: 'consentNeeded' });
        return;
      }
      dispatch({ type: 'saved' });
      confirm(() => t('settings.key.savedAnnounce'));
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };
  const unchecked = uncheckedWhy(form.phase);
  const remove = async (): Promise<void> => {
    dispatch({ type: 'closeRemove' });
    try {
      await keyClear();
      confirm(() => t('settings.key.removedAnnounce'));
    } catch (caught) {
      dispatch({ type: 'failed', error: problemOf(caught) });
    }
  };

  if (!status) return <Spinner label={t('settings.loading')} />;
  const showStored = status.state === 'ready' && !replacing;
  const warning =
    !showStored && status.state !== 'not_set' && status.state !== 'ready' && !consent
      ? keyStatusText(status)
      : null;
  return (
    <div className="key-section">
      {showStored ? (
        <StoredKey
          status={status}
          onReplace={() => dispatch({ type: 'replace' })}
          onRemove={() => dispatch({ type: 'askRemove' })}
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
          <Field label={t('settings.key.label')} hint={t('settings.key.hint')}>
            {(control) => (
              <div className="inline-controls">
                <input
                  {...control}
                  ref={input}
                  className="input mono"
                  type="password"
                  value={text}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={t('settings.key.placeholder')}
                  disabled={consent || unchecked !== null}
                  onChange={(event) => dispatch({ type: 'typed', text: event.target.value })}
                />
                <Button
                  type="submit"
                  variant="primary"
                  disabled={busy || consent || text.trim() === ''}
                >
                  {t('settings.key.save')}
                </Button>
                {replacing ? (
                  <Button onClick={() => dispatch({ type: 'cancelReplace' })}>
                    {t('common.cancel')}
                  </Button>
                ) : null}
              </div>
            )}
          </Field>
          {consent ? (
            <ConsentPanel
              status={status}
              busy={busy}
              onAccept={() => void store(true)}
              onDecline={() => dispatch({ type: 'declined' })}
            />
          ) : null}
          {status.fingerprint && status.state !== 'ready' ? (
            <div className="settings-actions">
              <Button variant="danger" onClick={() => dispatch({ type: 'askRemove' })}>
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
          onDismiss={() => dispatch({ type: 'dismissError' })}
        />
      ) : null}
      <ConnectionTest keyText={showStored ? '' : text} />
      {unchecked ? (
        <ConfirmDialog
          title={t('settings.key.unchecked.title')}
          body={`${unchecked.message} ${t('settings.key.unchecked.body')}`}
          confirmLabel={t('settings.key.unchecked.confirm')}
          onCancel={() => dispatch({ type: 'declined' })}
          onConfirm={() => {
            dispatch({ type: 'saveUnchecked' });
            void store(false, true);
          }}
        />
      ) : null}
      {form.confirmingRemove ? (
        <ConfirmDialog
          title={t('settings.key.removeConfirm.title')}
          body={t('settings.key.removeConfirm.body')}
          confirmLabel={t('settings.key.remove')}
          danger
          onCancel={() => dispatch({ type: 'closeRemove' })}
          onConfirm={() => void remove()}
        />
      ) : null}
    </div>
  );
}
