/**
 * How a service is named in the window: the user's own service (today's contract) by the name the
 * user gave it in Settings, else the catalogue's name in the shown language (an address alone
 * renames nothing: Settings offers its host as the name, {@link suggestedServiceName}); a task of the built-in demo as the demo; a provider by its own name. The settings
 * slice tells this module the saved settings ({@link nameOwnService}), as applyLocale tells t()
 * the language.
 */
import { targetLabel } from '../../shared/domain/compare';
import { PROVIDERS, providerOf, type ProviderId } from '../../shared/domain/providers';
import type { Settings } from '../../shared/domain/settings';
import { demoEndpointOf } from '../../shared/domain/submit-target';
import { t } from '../i18n';

let ownName = '';

/** The host of a typed address ('' when it is not a URL). */
function hostOf(address: string): string {
  try {
    return new URL(address.trim()).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}

/** Takes the user's own service's name from saved settings. */
export function nameOwnService(settings: Pick<Settings, 'serviceName'>): void {
  ownName = settings.serviceName.trim();
}

/** The name Settings offers for the user's own service: its address's host, or ''. */
export function suggestedServiceName(settings: Pick<Settings, 'baseUrl'> | null): string {
  return hostOf(settings?.baseUrl ?? '');
}

export function serviceLabel(provider: ProviderId): string {
  if (provider !== 'pictor') return PROVIDERS[provider].label;
  return ownName !== '' ? ownName : t('service.pictor');
}

/**
 * The service a task went to: a task of the built-in demo (its endpoint the demo's for the task's
 * provider) as the demo, others by {@link serviceLabel}.
 */
export function recordServiceLabel(record: {
  readonly provider?: ProviderId | undefined;
  readonly endpoint: string;
}): string {
  const provider = providerOf(record);
  return record.endpoint === demoEndpointOf(provider)
    ? t('tasks.details.demo')
    : serviceLabel(provider);
}

/** A model on a service as the window names it ("fal.ai · fal-ai/flux-pro/kontext"), service first. */
export function targetName(target: {
  readonly provider: ProviderId;
  readonly model: string;
}): string {
  return targetLabel(serviceLabel(target.provider), target.model);
}
