/** How a service is named in the window: today's contract in the shown language, a provider by its own name. */
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { t } from '../i18n';

export function serviceLabel(provider: ProviderId): string {
  return provider === 'pictor' ? t('service.pictor') : PROVIDERS[provider].label;
}
