/**
 * "Connect a service": the first-run banner's (and Settings') one form for a service. Choose the
 * service, its address (filled in for the known providers), the key, Test, Save, in that order;
 * the one question it may ask (weak storage, or "save without checking?") is asked in the form.
 * Once the key is stored the form closes, the compose form takes that service, and a
 * confirmation says whether the service checked the key. Logic: use-connect-form.ts.
 */
import { useId } from 'react';
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { t } from '../../i18n';
import type { Problem } from '../../lib/api';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { ADDRESS_INPUT } from './address-field';
import { ConnectionReport } from './connection-test';
import { askingConsent, uncheckedWhy } from './key-form';
import { KeyInput } from './key-input';
import { ConsentPanel } from './key-section';
import { ServiceStateBadge } from './service-state-badge';
import { useConnectForm, type ConnectForm } from './use-connect-form';
import './settings.css';

function ServiceChoice({
  provider,
  onChange,
}: {
  provider: ProviderId;
  onChange: (provider: ProviderId) => void;
}) {
  return (
    <Field label={t('settings.connect.service')} hint={<ServiceStateBadge provider={provider} />}>
      {(control) => (
        <select
          {...control}
          data-autofocus
          className="select"
          value={provider}
          onChange={(event) => {
            const chosen = PROVIDER_IDS.find((id) => id === event.target.value);
            if (chosen) onChange(chosen);
          }}
        >
          {PROVIDER_IDS.map((id) => (
            <option key={id} value={id}>
              {serviceLabel(id)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function AddressField({ provider, connect }: { provider: ProviderId; connect: ConnectForm }) {
  const own = PROVIDERS[provider].defaultBaseUrl;
  return (
    <TextField
      label={t('settings.connect.address')}
      hint={own ? t('settings.connect.addressHint', { address: own }) : t('settings.baseUrl.hint')}
      error={connect.addressProblem}
      {...ADDRESS_INPUT}
      value={connect.address}
      placeholder={own ?? t('settings.baseUrl.placeholder')}
      onChange={connect.setAddress}
    />
  );
}

/** The masked key field; over a stored key it says so (Test then tries the stored one). */
function KeyField({ provider, connect }: { provider: ProviderId; connect: ConnectForm }) {
  const { form, dispatch } = connect.keyForm;
  const fingerprint = useAppStore((state) => {
    const status = state.serviceKeys?.[provider];
    return status?.state === 'ready' ? status.fingerprint : null;
  });
  const asking = askingConsent(form.phase) || uncheckedWhy(form.phase) !== null;
  const label =
    // The service at the user's own address is the one the panel's address field names.
    PROVIDERS[provider].defaultBaseUrl === null
      ? t('settings.key.label')
      : t('settings.services.keyLabel', { service: serviceLabel(provider) });
  return (
    <Field
      label={label}
      hint={fingerprint ? t('settings.connect.keyStored', { fingerprint }) : t('settings.key.hint')}
      error={form.error}
    >
      {(control) => (
        <KeyInput
          control={control}
          value={form.text}
          // Read-only, not disabled, while a question is open: the focus stays in the dialog.
          readOnly={asking}
          onText={(text) => dispatch({ type: 'typed', text })}
        />
      )}
    </Field>
  );
}

/** "Save the key without checking it?", in the form: the service could not be asked. */
function UncheckedQuestion({ why, connect }: { why: Problem; connect: ConnectForm }) {
  const question = useId();
  const { dispatch, saveUnchecked } = connect.keyForm;
  return (
    <div className="consent" role="group" aria-labelledby={question}>
      <ErrorMessage
        tone="warning"
        message={`${why.message} ${t('settings.key.unchecked.body')}`}
        detail={why.detail}
      />
      <p className="consent__question" id={question}>
        {t('settings.key.unchecked.title')}
      </p>
      <div className="settings-actions">
        <Button variant="primary" onClick={() => void saveUnchecked()}>
          {t('settings.key.unchecked.confirm')}
        </Button>
        <Button onClick={() => dispatch({ type: 'declined' })}>{t('common.cancel')}</Button>
      </div>
    </div>
  );
}

/** Test and Save, what the test found, and the one question a save may ask. */
function ConnectActions({ provider, connect }: { provider: ProviderId; connect: ConnectForm }) {
  const { form } = connect.keyForm;
  const status = useAppStore((state) => state.serviceKeys?.[provider] ?? null);
  const { testing, report, testError } = connect.test;
  const saving = form.phase.name === 'saving';
  const unchecked = uncheckedWhy(form.phase);
  return (
    <>
      <div className="settings-actions">
        <Button icon="link" disabled={testing} onClick={() => void connect.runTest()}>
          {t('settings.test.button')}
        </Button>
        {/* Never disabled while saving: the focus would fall out of the dialog. */}
        <Button
          type="submit"
          variant="primary"
          // A service whose key is optional (a local ComfyUI) is saved by its address alone.
          disabled={form.text.trim() === '' && PROVIDERS[provider].keyOptional !== true}
        >
          {t('common.save')}
        </Button>
        {testing ? <Spinner label={t('settings.test.running')} /> : null}
        {saving ? <Spinner label={t('settings.key.saving')} /> : null}
      </div>
      <div className="connection-report" role="status">
        <ConnectionReport
          report={report}
          error={testError}
          showDetail={PROVIDERS[provider].defaultBaseUrl !== null}
        />
      </div>
      {status && askingConsent(form.phase) ? (
        <ConsentPanel status={status} busy={saving} keyForm={connect.keyForm} />
      ) : null}
      {unchecked ? <UncheckedQuestion why={unchecked} connect={connect} /> : null}
    </>
  );
}

/** One service's form; drawn again (emptied) when another service is chosen. */
function ConnectForm({ provider, onClose }: { provider: ProviderId; onClose: () => void }) {
  const confirm = useAppStore((state) => state.confirm);
  const choose = useAppStore((state) => state.composeChooseService);
  const onTasks = useAppStore((state) => state.view === 'tasks');
  const requestFocus = useAppStore((state) => state.requestFocus);
  const connect = useConnectForm(provider, (checked) => {
    const service = serviceLabel(provider);
    const said =
      checked === null
        ? 'settings.connect.doneKeyless'
        : checked
          ? 'settings.connect.doneChecked'
          : 'settings.connect.doneUnchecked';
    confirm(() => t(said, { service }));
    void choose(provider);
    onClose();
    // The banner that opened the panel is gone with the demo: the prompt is where to go on.
    if (onTasks) requestFocus('prompt');
  });
  return (
    <form
      className="connect__form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void connect.save();
      }}
    >
      <AddressField provider={provider} connect={connect} />
      <KeyField provider={provider} connect={connect} />
      <ConnectActions provider={provider} connect={connect} />
    </form>
  );
}

/** What the panel keeps over a new language (form-drafts.ts), forgotten when it closes. */
const CONNECT_DRAFTS = ['connect.provider', 'edit.connect.address'] as const;

function ConnectPanel() {
  const show = useAppStore((state) => state.connectShow);
  const drop = useAppStore((state) => state.formDraftDrop);
  // The compose form's service first: at first run, today's contract.
  const initial = useAppStore((state) => state.composeDraft.provider);
  const [provider, keepProvider] = useFormDraft('connect.provider', initial);
  // Another service's form starts empty, as it is drawn anew.
  const setProvider = (next: ProviderId): void => {
    drop('edit.connect.address');
    keepProvider(next);
  };
  const close = (): void => {
    for (const field of CONNECT_DRAFTS) drop(field);
    show(false);
  };
  return (
    <Dialog title={t('settings.connect.title')} onClose={close} size="large">
      <div className="connect">
        <p className="muted">{t('settings.connect.intro')}</p>
        <ServiceChoice provider={provider} onChange={setProvider} />
        <ConnectForm key={provider} provider={provider} onClose={close} />
      </div>
    </Dialog>
  );
}

/** The panel, wherever it was opened from (it outlives the banner that opened it). */
export function ConnectPanelHost() {
  const open = useAppStore((state) => state.connectOpen);
  return open ? <ConnectPanel /> : null;
}
