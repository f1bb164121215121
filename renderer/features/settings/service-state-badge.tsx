/**
 * A service's state at a glance (renderer/lib/service-key-state.ts): connected and checked, key
 * not checked, key refused, a key that needs attention, no key, or the built-in demo. An icon
 * and words, never colour alone.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import { Icon, type IconName } from '../../components/icon';
import { t } from '../../i18n';
import {
  SERVICE_STATE_LABELS,
  serviceKeyState,
  type ServiceKeyState,
} from '../../lib/service-key-state';
import { useAppStore } from '../../store/app-store';

const ICONS: Readonly<Record<ServiceKeyState, IconName>> = {
  checked: 'check',
  unchecked: 'clock',
  refused: 'warning',
  attention: 'warning',
  none: 'key',
  demo: 'demo',
};

/** The state of `provider`'s service now; null until its key status has come. */
export function useServiceKeyState(provider: ProviderId): ServiceKeyState | null {
  return useAppStore((state) => {
    if (provider !== 'pictor') return serviceKeyState(state.serviceKeys?.[provider]);
    if (!state.settings) return null;
    return serviceKeyState(state.keyStatus, state.settings.baseUrl.trim() === '');
  });
}

export function ServiceStateBadge({ provider }: { provider: ProviderId }) {
  const state = useServiceKeyState(provider);
  if (!state) return null;
  return (
    <span className={`service-state service-state--${state}`}>
      <Icon name={ICONS[state]} />
      <span>{t(SERVICE_STATE_LABELS[state])}</span>
    </span>
  );
}
