/** A service's key state as the page shows it (Settings' badges, the compose form's notice). */
import { demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import { typedAddress } from '../../shared/domain/submit-target';
import { keyStorageWait, serviceKeyState, type ServiceKeyState } from '../lib/service-key-state';
import { useAppStore } from './app-store';

/** The state of `provider`'s service now; null until its key status has come. */
export function useServiceKeyState(provider: ProviderId): ServiceKeyState | null {
  return useAppStore((state) => {
    const status = state.serviceKeys?.[provider];
    if (!demoStandsIn(provider)) return serviceKeyState(status, false, provider);
    if (!state.settings) return null;
    return serviceKeyState(status, typedAddress(state.settings, provider) === '');
  });
}

/** The storage (`keychain`, `gnome_libsecret`…) a stored key waits on now (keyStorageWait), or null. */
export function useKeyStorageWait(): string | null {
  return useAppStore((state) => keyStorageWait(state.serviceKeys)?.backend ?? null);
}
