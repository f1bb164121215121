/** How a service is named in the window: today's contract in the shown language, a provider by its own name. */
import { targetLabel } from '../../shared/domain/compare';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { t } from '../i18n';

export function serviceLabel(provider: ProviderId): string {
  return provider === 'pictor' ? t('service.pictor') : PROVIDERS[provider].label;
}

/** A model on a service as the window names it ("fal.ai · fal-ai/flux-pro/kontext"), service first. */
export function targetName(target: {
  readonly provider: ProviderId;
  readonly model: string;
}): string {
  return targetLabel(serviceLabel(target.provider), target.model);
}
