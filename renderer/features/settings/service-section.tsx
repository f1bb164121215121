/**
 * The service's base URL. What is typed here, saved or not, is what "Test connection" (after the
 * key field, connection-test.tsx) tests. Then its name, and its models' options (it publishes
 * none: own-model-options.tsx).
 */
import { useRef } from 'react';
import { Icon } from '../../components/icon';
import { t } from '../../i18n';
import type { ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import { DEFAULT_SETTINGS } from '../../../shared/domain/settings';
import { typedAddress, withAddress } from '../../../shared/domain/submit-target';
import { USERS_CHOICE_SENTENCES } from '../../../shared/i18n/errors/settings';
import { AddressSaveForm } from './address-field';
import { ServiceNameField } from './service-name-field';
import { OwnModelOptions } from './own-model-options';
import { useFocusRequest } from '../../store/use-focus-request';
import { useKeptEdit } from '../../store/use-form-draft';
import type { SettingSaver } from './use-setting-save';

/**
 * A refusal that is the user's own answer (they cancelled main's question whether to send the
 * key to the new address): said plainly beside the field, not as an error.
 */
function isUsersChoice(error: ApiError | null): boolean {
  return error?.sentenceKey !== undefined && USERS_CHOICE_SENTENCES.has(error.sentenceKey);
}

/** The user's own choice not to change the address: said as a statement, not an error. */
function DeclinedNotice({ refusal }: { refusal: ApiError }) {
  return (
    <p className="message message--info" role="status">
      <Icon name="info" className="message__icon" />
      <span className="message__body message__text">{refusal.text()}</span>
    </p>
  );
}

export function ServiceSection({ saver, active }: { saver: SettingSaver; active: boolean }) {
  const settings = useAppStore((state) => state.settings) ?? DEFAULT_SETTINGS;
  const saved = typedAddress(settings, DEFAULT_PROVIDER);
  const demo = useAppStore((state) => state.demo);
  // A newly saved address replaces what was typed; "Test connection" tests what is shown here
  // (connection-test.tsx's useTypedBaseUrl reads the same draft).
  const [text, setText] = useKeptEdit('baseUrl', saved);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('baseUrl', input, active);
  const refusal = saver.errorOf('baseUrl');
  const declined = isUsersChoice(refusal);
  const error = declined ? null : refusal;
  const changed = text.trim() !== saved;

  const save = async (): Promise<void> => {
    // The field shows the address as saved (normalised), even when that equals the one before.
    const { serviceBaseUrls } = withAddress(settings, DEFAULT_PROVIDER, text.trim());
    if (await saver.save('baseUrl', { serviceBaseUrls })) setText(saved);
  };

  return (
    <div className="service-section">
      <AddressSaveForm
        label={t('settings.baseUrl.label')}
        hint={t(demo ? 'settings.baseUrl.hintDemo' : 'settings.baseUrl.hint')}
        error={error}
        value={text}
        placeholder={t('settings.baseUrl.placeholder')}
        inputRef={input}
        onText={(value) => {
          setText(value);
          saver.clearError('baseUrl');
        }}
        changed={changed}
        onSave={() => void save()}
      >
        {declined && refusal ? <DeclinedNotice refusal={refusal} /> : null}
      </AddressSaveForm>
      <ServiceNameField saver={saver} />
      <OwnModelOptions />
    </div>
  );
}
