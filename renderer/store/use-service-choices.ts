/**
 * The services a new task can be sent to, each named as where its tasks would go now (the
 * settings and keys the page knows, serviceStateOf: the state Settings' badge shows): the built-in
 * demo standing in for it ("{service} (demo)", "{service} (no key: demo)"), a service without a
 * key ("{service} (no key)"), or the service itself. One list for every place that chooses a
 * service to send to: the compose form's Service box and each compare target's, so a target
 * reads the same wherever it is chosen and as its tasks are named after.
 */
import { useMemo } from 'react';
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import type { ServiceKeyState } from '../lib/service-key-state';
import { serviceChoiceLabel } from '../lib/service-label';
import { useAppStore } from './app-store';
import type { AppState } from './app-state';
import { serviceStateOf } from './use-service-key-state';

/** How each service stands now (serviceStateOf, as Settings' badge reads it), joined by spaces. */
function standings(state: AppState): string {
  return PROVIDER_IDS.map((id) => serviceStateOf(state, id) ?? 'unknown').join(' ');
}

/** How each service stands now (serviceStateOf), read again only when a standing changes. */
export function useServiceStandings(): Readonly<Record<ProviderId, ServiceKeyState | null>> {
  // A string, so a change elsewhere in the store draws nothing again.
  const now = useAppStore(standings);
  return useMemo(() => {
    const said = now.split(' ');
    const of = (at: number) => (said[at] === 'unknown' ? null : (said[at] as ServiceKeyState));
    return Object.fromEntries(PROVIDER_IDS.map((id, at) => [id, of(at)])) as Record<
      ProviderId,
      ServiceKeyState | null
    >;
  }, [now]);
}

/** Every service, in the order they are offered, with its name as a choice to send to. */
export function useServiceChoices(): ReadonlyArray<{ value: ProviderId; label: string }> {
  const standing = useServiceStandings();
  // The names follow the settings too (the user's own service's name: nameOwnService).
  const settings = useAppStore((state) => state.settings);
  return useMemo(
    () => PROVIDER_IDS.map((id) => ({ value: id, label: serviceChoiceLabel(id, standing[id]) })),
    [standing, settings],
  );
}
