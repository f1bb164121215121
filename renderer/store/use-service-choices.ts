/**
 * The services a new task can be sent to, each named as where its tasks would go now (the
 * settings and keys the page knows, serviceStateOf: the state Settings' badge shows): the built-in
 * demo standing in for it ("{service} (demo)", "{service} (no key: demo)"), a service without a
 * key ("{service} (no key)"), or the service itself. One list for every place that chooses a
 * service to send to: the compose form's Service box, each compare target's and the edit panel's
 * model checkboxes, so a target reads the same wherever it is chosen and as its tasks are named
 * after. The edit panel offers a model on the services {@link sendableServices} keeps (the others
 * shown with the service to set up): the same states, so a service whose tasks go to the demo for
 * want of a key is offered there as here, and one found unreachable is offered, marked (only a
 * call that answers tells it is back).
 */
import { useMemo } from 'react';
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { lacksKey, type ServiceKeyState } from '../lib/service-key-state';
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

/**
 * The services a new task can be sent to now, from their standings ({@link useServiceStandings}):
 * every one whose state is known and that does not lack a key (lacksKey), its own key, none
 * needed, or the built-in demo standing in for it (`demo`, `demoNoKey`), as main's endpointOf
 * sends it.
 */
export function sendableServices(
  standing: Readonly<Record<ProviderId, ServiceKeyState | null>>,
): ProviderId[] {
  return PROVIDER_IDS.filter((id) => {
    const state = standing[id];
    return state !== null && !lacksKey(state);
  });
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
