/**
 * A service's state at a glance (renderer/lib/service-key-state.ts): connected and checked, key
 * not checked, key refused, a key that needs attention, no key, or the built-in demo. An icon
 * and words, never colour alone.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import { Icon, type IconName } from '../../components/icon';
import { t } from '../../i18n';
import { SERVICE_STATE_LABELS, type ServiceKeyState } from '../../lib/service-key-state';
import { useServiceKeyState } from '../../store/use-service-key-state';

const ICONS: Readonly<Record<ServiceKeyState, IconName>> = {
  checked: 'check',
  unchecked: 'clock',
  refused: 'warning',
  attention: 'warning',
  none: 'key',
  keyless: 'link',
  demo: 'demo',
};

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
