/**
 * The services besides today's contract (the Service and API key sections above): each with its
 * key, its default model and its address, the provider's own unless the user gives another (a
 * proxy, a regional host), checked by main like the service address. Each key is sent only to
 * its own service's address.
 */
import { useId } from 'react';
import { PROVIDER_IDS, PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import type { ServiceBaseUrls } from '../../../shared/domain/settings';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useKeptEdit } from '../../store/use-form-draft';
import { AddressSaveForm } from './address-field';
import { fieldProblem } from './field-error';
import { KeySection } from './key-section';
import { ServiceStateBadge } from './service-state-badge';
import { WorkflowsPanel } from './workflows-panel';
import { serviceSectionId } from '../../lib/settings-sections';
import type { SettingSaver } from './use-setting-save';

const NO_ADDRESSES: ServiceBaseUrls = {};

/** The services with an address of their own (the user's own service is above). */
const OTHER_SERVICES = PROVIDER_IDS.filter((id) => PROVIDERS[id].defaultBaseUrl !== null);

function AddressForm({ provider, saver }: { provider: ProviderId; saver: SettingSaver }) {
  const addresses = useAppStore((state) => state.settings?.serviceBaseUrls ?? NO_ADDRESSES);
  const saved = addresses[provider] ?? '';
  // A newly saved address (normalised by main) replaces what was typed.
  const [text, setText] = useKeptEdit(`serviceBaseUrls.${provider}`, saved);
  const field = `serviceBaseUrls.${provider}`;
  const own = PROVIDERS[provider].defaultBaseUrl ?? '';
  return (
    <AddressSaveForm
      label={t('settings.services.address')}
      hint={t('settings.services.addressHint', { address: own })}
      error={fieldProblem(undefined, saver.errorOf(field))}
      value={text}
      placeholder={own}
      onText={(value) => {
        setText(value);
        saver.clearError(field);
      }}
      changed={text.trim() !== saved}
      onSave={() =>
        void saver.save(field, { serviceBaseUrls: { ...addresses, [provider]: text.trim() } })
      }
    />
  );
}

interface EntryProps {
  readonly provider: ProviderId;
  readonly saver: SettingSaver;
  /** Settings is the screen shown: a request to focus this service's key field is taken. */
  readonly active: boolean;
}

function ServiceEntry({ provider, saver, active }: EntryProps) {
  const heading = useId();
  const facts = PROVIDERS[provider];
  return (
    <section
      className="service-entry"
      aria-labelledby={heading}
      id={serviceSectionId(provider)}
      tabIndex={-1}
    >
      <div className="service-entry__heading">
        <h3 id={heading}>{facts.label}</h3>
        <ServiceStateBadge provider={provider} />
      </div>
      <p className="muted">
        {t('settings.services.defaultModel', { model: facts.defaultModel ?? '' })}
      </p>
      <AddressForm provider={provider} saver={saver} />
      <KeySection active={active} provider={provider} />
      {facts.modelsAreWorkflows ? <WorkflowsPanel /> : null}
    </section>
  );
}

export function ServicesSection({ saver, active }: { saver: SettingSaver; active: boolean }) {
  return (
    <div className="services-section">
      {OTHER_SERVICES.map((provider) => (
        <ServiceEntry key={provider} provider={provider} saver={saver} active={active} />
      ))}
    </div>
  );
}
