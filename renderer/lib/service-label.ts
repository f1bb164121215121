/**
 * How a service is named in the window: the user's own service (today's contract) by what the user
 * calls it, and until they type a name by its address's host (shared/domain/service-name.ts, the
 * one home of that rule); the catalogue's name in the shown language only while it has no address;
 * a task, image or cost of the built-in demo as the demo (one name on every screen); a provider by
 * its own name. The settings slice tells this module the saved settings ({@link nameOwnService}),
 * as applyLocale tells t() the language.
 */
import { targetLabel, type CompareField, type TargetName } from '../../shared/domain/compare';
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { DEFAULT_PROVIDER, PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import {
  DEMO_SERVICE_ID,
  galleryServiceOf,
  ledgerServiceOf,
  serviceIdOf,
  type ServiceId,
} from '../../shared/domain/service-id';
import { addressHost, ownServiceName } from '../../shared/domain/service-name';
import type { Settings } from '../../shared/domain/settings';
import type { CostLedgerEntry } from '../../shared/ipc/cost-contract';
import { t } from '../i18n';
import { lacksKey, SERVICE_CHOICE_LABELS, type ServiceKeyState } from './service-key-state';

let ownName = '';

/** Takes the user's own service's name from saved settings. */
export function nameOwnService(settings: Pick<Settings, 'serviceName' | 'serviceBaseUrls'>): void {
  ownName = ownServiceName(settings);
}

/** What the user's own service is called while its name is left empty: its address's host, or ''. */
export function defaultServiceName(settings: Pick<Settings, 'serviceBaseUrls'> | null): string {
  return addressHost(settings?.serviceBaseUrls[DEFAULT_PROVIDER] ?? '');
}

export function serviceLabel(provider: ProviderId): string {
  // A service with an address of its own has its provider's name; one at the user's address, the user's.
  if (PROVIDERS[provider].defaultBaseUrl !== null) return PROVIDERS[provider].label;
  return ownName !== '' ? ownName : t('service.pictor');
}

/**
 * A service as a choice to send new tasks to, in its state now (store/use-service-key-state.ts
 * decides it for Settings' badge and this name alike; the words: service-key-state.ts).
 */
export function serviceChoiceLabel(id: ProviderId, state: ServiceKeyState | null): string {
  const words = state === null ? null : SERVICE_CHOICE_LABELS[state];
  return words === null ? serviceLabel(id) : t(words, { service: serviceLabel(id) });
}

/**
 * A service by its id (shared/domain/service-id.ts, the one home of which service a task, an
 * image or a ledger entry is on): the built-in demo as the demo, others by {@link serviceLabel}.
 */
export function serviceIdLabel(id: ServiceId): string {
  return id === DEMO_SERVICE_ID ? t('tasks.details.demo') : serviceLabel(id);
}

/** The service a task went to: a task of the built-in demo as the demo. */
export function recordServiceLabel(record: {
  readonly provider?: ProviderId | undefined;
  readonly endpoint: string;
}): string {
  return serviceIdLabel(serviceIdOf(record));
}

/** The service of a gallery image's task, named as its task is in the task list. */
export function imageServiceLabel(item: Pick<GalleryItem, 'provider' | 'demo'>): string {
  return serviceIdLabel(galleryServiceOf(item));
}

/** The service of a Costs screen entry (the ledger keeps no endpoint: its cost tells the demo). */
export function ledgerServiceLabel(entry: Pick<CostLedgerEntry, 'provider' | 'cost'>): string {
  return serviceIdLabel(ledgerServiceOf(entry));
}

/**
 * A model on a service as the window names it ("fal.ai · fal-ai/flux-pro/kontext"), service first;
 * with the service's state `now` (serviceStateOf), as a choice to send to is named
 * ({@link serviceChoiceLabel}: "fal.ai (no key) · …", "… (no key: demo) · …"), as the compose
 * form's and compare's Service boxes name it.
 */
export function targetName(
  target: { readonly provider: ProviderId; readonly model: string },
  now: ServiceKeyState | null = null,
): string {
  return targetLabel(serviceChoiceLabel(target.provider, now), target.model);
}

/**
 * A fan-out's target (a compare's, an edit's) as its Service box or checkbox named it when it was
 * chosen, in the shown language and by the service's name now (shared/domain/compare.ts keeps the
 * facts): the service, "(demo)" where the built-in demo stood in ({@link serviceChoiceLabel}'s
 * `demo` words: what made the task, not the box's present reason such as "no key"), its model, and
 * #1/#2 of a target chosen twice. A target named before the facts by its label. One name for a
 * compare's cells and for the plan's lines of the compare dialog and the edit panel. A plan's
 * target is named with its service's state `now` (serviceStateOf) where that says it has no key
 * ("fal.ai (no key) · …", as its Service box says it): the facts keep no key state, the page knows.
 */
export function fanOutTargetName(name: TargetName, now?: ServiceKeyState | null): string {
  if (name.service === undefined) return name.label;
  const state = name.demo === true ? 'demo' : lacksKey(now ?? null) ? (now ?? null) : null;
  const service = serviceChoiceLabel(name.service, state);
  const named = targetLabel(service, name.model);
  return name.nth === undefined ? named : `${named} #${String(name.nth)}`;
}

/** A compare's task named by its target ({@link fanOutTargetName}); a task of none by its model. */
export function compareTargetName(record: {
  readonly compare?: CompareField | undefined;
  readonly request: { readonly model?: string | undefined };
}): string {
  const { compare } = record;
  return compare === undefined ? (record.request.model ?? '') : fanOutTargetName(compare);
}
