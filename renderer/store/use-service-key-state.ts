/**
 * A service's state as the page shows it: Settings' badges and index, the compose form's service
 * list and its missing-key notice all read {@link serviceStateOf}, so a service the built-in demo
 * answers for is told so alike everywhere, and a check made before going offline is not shown as
 * a connection now.
 */
import { demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import { isDemoEndpoint, typedAddress } from '../../shared/domain/submit-target';
import { keyStorageWait, serviceKeyState, type ServiceKeyState } from '../lib/service-key-state';
import { useAppStore } from './app-store';
import type { AppState } from './app-state';
import { composeTarget } from './compose-model';

/**
 * The state of `provider`'s service in `state`; null until its key status (or, for today's
 * contract, the settings) has come. Where a new task would go is composeTarget's rule: a service
 * whose tasks go to the built-in demo is `demo` (no address) or `demoNoKey` (an address, no key
 * ready); a stored key still waiting for the OS's storage is `waiting`, its tasks the service's
 * (composeTarget counts it, as main's endpointOf does). A key accepted when last checked is `offline` while the computer is (state.offline, the
 * banner's). A service tasks would go to (a key stored, or none needed) is `unreachable` while
 * online when main's last call to its address's origin could not reach it (state.unreachable).
 */
export function serviceStateOf(
  state: Pick<AppState, 'settings' | 'serviceKeys' | 'offline' | 'unreachable'>,
  provider: ProviderId,
): ServiceKeyState | null {
  const status = state.serviceKeys?.[provider];
  if (demoStandsIn(provider)) {
    if (!state.settings) return null;
    if (isDemoEndpoint(composeTarget(state, provider).endpoint))
      return typedAddress(state.settings, provider) === '' ? 'demo' : 'demoNoKey';
  }
  const known = serviceKeyState(status, false, provider);
  if (state.offline) return known === 'checked' ? 'offline' : known;
  return known !== null && SENDS_TO_SERVICE.has(known) && unreached(state, provider)
    ? 'unreachable'
    : known;
}

/** The states whose tasks go to the service's own address. */
const SENDS_TO_SERVICE: ReadonlySet<ServiceKeyState> = new Set([
  'checked',
  'unchecked',
  'refused',
  'keyless',
  'waiting',
]);

/** Whether main's last call to `provider`'s address could not reach its origin. */
function unreached(state: Pick<AppState, 'settings' | 'unreachable'>, provider: ProviderId) {
  if (!state.settings || state.unreachable.length === 0) return false;
  try {
    return state.unreachable.includes(new URL(typedAddress(state.settings, provider)).origin);
  } catch {
    return false;
  }
}

/** The state of `provider`'s service now ({@link serviceStateOf}). */
export function useServiceKeyState(provider: ProviderId): ServiceKeyState | null {
  return useAppStore((state) => serviceStateOf(state, provider));
}

/** The storage (`keychain`, `gnome_libsecret`…) a stored key waits on now (keyStorageWait), or null. */
export function useKeyStorageWait(): string | null {
  return useAppStore((state) => keyStorageWait(state.serviceKeys)?.backend ?? null);
}
