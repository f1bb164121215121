/** A service's key state as the page shows it (Settings' badges, the compose form's notice). */
import type { ProviderId } from '../../shared/domain/providers';
import { serviceKeyState, type ServiceKeyState } from '../lib/service-key-state';
import { useAppStore } from './app-store';

/** The state of `provider`'s service now; null until its key status has come. */
export function useServiceKeyState(provider: ProviderId): ServiceKeyState | null {
  return useAppStore((state) => {
    if (provider !== 'pictor') return serviceKeyState(state.serviceKeys?.[provider]);
    if (!state.settings) return null;
    return serviceKeyState(state.serviceKeys?.[provider], state.settings.baseUrl.trim() === '');
  });
}
