/**
 * A service's state at a glance (renderer/lib/service-key-state.ts): connected and checked, key
 * not checked, key refused, a key that needs attention, no key, the built-in demo (with no
 * address, or with no key), offline since its key was last checked, unreachable (its last call
 * found no such host, a refused connection or a TLS failure), or its stored key waiting for the
 * OS's storage. An icon and words, never colour alone.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import { Icon, type IconName } from '../../components/icon';
import { formatDateTime, t } from '../../i18n';
import { SERVICE_STATE_LABELS, type ServiceKeyState } from '../../lib/service-key-state';
import { useAppStore } from '../../store/app-store';
import { useServiceKeyState } from '../../store/use-service-key-state';

const ICONS: Readonly<Record<ServiceKeyState, IconName>> = {
  checked: 'check',
  unchecked: 'clock',
  refused: 'warning',
  attention: 'warning',
  none: 'key',
  keyless: 'link',
  demo: 'demo',
  demoNoKey: 'demo',
  offline: 'offline',
  unreachable: 'offline',
  waiting: 'hourglass',
};

export function ServiceStateBadge({ provider }: { provider: ProviderId }) {
  const state = useServiceKeyState(provider);
  const checkedAt = useAppStore((app) => app.serviceKeys?.[provider]?.check?.at ?? null);
  if (!state) return null;
  return (
    <span className={`service-state service-state--${state}`}>
      <Icon name={ICONS[state]} />
      <span>
        {t(SERVICE_STATE_LABELS[state], {
          when: checkedAt === null ? t('format.unknownDate') : formatDateTime(checkedAt),
        })}
      </span>
    </span>
  );
}
