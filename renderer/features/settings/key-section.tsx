/**
 * The API key: pasted once into a masked field and never shown again; afterwards only its
 * fingerprint and how it is stored. Weak storage needs the user's explicit consent.
 */
import { useId, useRef, type RefObject } from 'react';
import type { KeyStatus } from '../../../shared/domain/key-status';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { serviceLabel } from '../../lib/service-label';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { formatDateTime, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useFocusRequest } from '../../store/use-focus-request';
import { ConnectionTest } from './connection-test';
import { askingConsent, uncheckedWhy } from './key-form';
import { KeyInput } from './key-input';
import { backendName, keyStatusText } from '../../lib/key-labels';
import { useKeyForm, type KeyForm } from './use-key-form';

/**
 * What the service said of the stored key when Pictor last asked it: a tick only beside a key it
 * accepted; a refusal as a warning; otherwise "not checked yet" (saved without a check, or before
 * checks were kept), until Save or Test connection asks.
 */
function KeyCheckLine({ check }: { check: KeyStatus['check'] }) {
  if (check?.outcome === 'accepted') {
    return (
      <p className="key-stored__line key-stored__check">
        <Icon name="check" className="key-stored__icon" />
        <span>{t('settings.key.checkAccepted', { time: formatDateTime(check.at) })}</span>
      </p>
    );
  }
  if (check?.outcome === 'refused') {
    const message = t('settings.key.checkRefused', { time: formatDateTime(check.at) });
    return <ErrorMessage role="none" tone="warning" message={message} />;
  }
  return (
    <p className="key-stored__line muted">
      <Icon name="clock" />
      <span>{t('settings.key.notChecked')}</span>
    </p>
  );
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
        <Icon name="key" />
        <span>{t('settings.key.stored', { fingerprint: status.fingerprint ?? '' })}</span>
      </p>
      <KeyCheckLine check={status.check} />
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
  /** The form asking: Accept stores its key anyway, Decline drops the question. */
  keyForm: KeyForm;
}

/** The question whether to store the key with weak protection (Settings and Connect a service). */
export function ConsentPanel({ status, busy, keyForm }: ConsentPanelProps) {
  const questionId = useId();
  const onAccept = () => void keyForm.store(true);
  const onDecline = () => keyForm.dispatch({ type: 'declined' });
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

interface KeyEntryProps {
  readonly status: KeyStatus;
  readonly keyForm: KeyForm;
  readonly input: RefObject<HTMLInputElement | null>;
  /** The field's label: "API key", or which service's key it is. */
  readonly label: string;
}

/**
 * The masked field with its Save (and Cancel, over a stored key); why the last save failed (the
 * service refused the key, say) beside it, until the key is edited.
 */
function KeyField({ keyForm, input, label }: Omit<KeyEntryProps, 'status'>) {
  const { form, dispatch } = keyForm;
  const busy = form.phase.name === 'saving' || form.phase.name === 'unchecked';
  const consent = askingConsent(form.phase);
  return (
    <Field label={label} hint={t('settings.key.hint')} error={form.error}>
      {(control) => (
        <div className="inline-controls">
          <KeyInput
            control={control}
            inputRef={input}
            value={form.text}
            disabled={consent || uncheckedWhy(form.phase) !== null}
            onText={(text) => dispatch({ type: 'typed', text })}
          />
          <Button
            type="submit"
            variant="primary"
            disabled={busy || consent || form.text.trim() === ''}
          >
            {t('settings.key.save')}
          </Button>
          {form.replacing ? (
            <Button onClick={() => dispatch({ type: 'cancelReplace' })}>
              {t('common.cancel')}
            </Button>
          ) : null}
          {/* The service is asked about the key first: that may take a moment. */}
          {form.phase.name === 'saving' ? <Spinner label={t('settings.key.saving')} /> : null}
        </div>
      )}
    </Field>
  );
}

/** The form that takes a new key: its warning, the field, the consent question, Remove. */
function KeyEntryForm({ status, keyForm, input, label }: KeyEntryProps) {
  const { form, dispatch, store } = keyForm;
  const busy = form.phase.name === 'saving' || form.phase.name === 'unchecked';
  const consent = askingConsent(form.phase);
  const warning =
    status.state !== 'not_set' && status.state !== 'ready' && !consent
      ? keyStatusText(status)
      : null;
  return (
    <form
      className="key-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void store(false);
      }}
    >
      {warning ? <ErrorMessage role="none" tone="warning" message={warning} /> : null}
      <KeyField keyForm={keyForm} input={input} label={label} />
      {consent ? <ConsentPanel status={status} busy={busy} keyForm={keyForm} /> : null}
      {status.fingerprint && status.state !== 'ready' ? (
        <div className="settings-actions">
          <Button variant="danger" onClick={() => dispatch({ type: 'askRemove' })}>
            {t('settings.key.remove')}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** The questions the section asks: save a key the service could not check; remove the key. */
function KeyDialogs({ keyForm }: { keyForm: KeyForm }) {
  const { form, dispatch, saveUnchecked, remove } = keyForm;
  const unchecked = uncheckedWhy(form.phase);
  return (
    <>
      {unchecked ? (
        <ConfirmDialog
          title={t('settings.key.unchecked.title')}
          body={`${unchecked.message} ${t('settings.key.unchecked.body')}`}
          confirmLabel={t('settings.key.unchecked.confirm')}
          onCancel={() => dispatch({ type: 'declined' })}
          onConfirm={() => void saveUnchecked()}
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
    </>
  );
}

/**
 * One service's key: today's contract's (`pictor`) or another service's, each with "Test
 * connection" (another service's, once its key is stored: it tests that key at the service's saved
 * address with a probe that creates no task).
 */
export function KeySection({
  active,
  provider = 'pictor',
}: {
  active: boolean;
  provider?: ProviderId;
}) {
  // The service at the user's own address: its key is tested where the address field points.
  const pictor = PROVIDERS[provider].defaultBaseUrl === null;
  const status = useAppStore((state) => state.serviceKeys?.[provider] ?? null);
  const keyForm = useKeyForm(provider);
  const { form, dispatch } = keyForm;
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest(`key:${provider}`, input, active);

  if (!status) return <Spinner label={t('settings.loading')} />;
  const showStored = status.state === 'ready' && !form.replacing;
  return (
    <div className="key-section">
      {showStored ? (
        <StoredKey
          status={status}
          onReplace={() => dispatch({ type: 'replace' })}
          onRemove={() => dispatch({ type: 'askRemove' })}
        />
      ) : (
        <KeyEntryForm
          status={status}
          keyForm={keyForm}
          input={input}
          label={
            pictor
              ? t('settings.key.label')
              : t('settings.services.keyLabel', { service: serviceLabel(provider) })
          }
        />
      )}
      {showStored && form.error ? (
        <ErrorMessage
          message={form.error.message}
          detail={form.error.detail}
          onDismiss={() => dispatch({ type: 'dismissError' })}
        />
      ) : null}
      {pictor || status.state === 'ready' ? (
        <ConnectionTest provider={provider} keyText={showStored || !pictor ? '' : form.text} />
      ) : null}
      <KeyDialogs keyForm={keyForm} />
    </div>
  );
}
