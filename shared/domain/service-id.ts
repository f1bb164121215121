/**
 * One name per service wherever a service is named by id (`--provider`, `list --json`, `costs`,
 * the ledger's CSV): a provider's id, or `demo` for Pictor's built-in demo service. The demo
 * speaks a provider's dialect, so its tasks carry that provider; their endpoint (`demo:`,
 * `demo:fal`, …: submit-target.ts) or, in
 * the ledger (which keeps no endpoint), their cost (only the demo's tasks are free) tells them
 * apart; a gallery item carries the endpoint's answer (`demo`, gallery-item.ts). The window names
 * a service by these ids too (renderer/lib/service-label.ts), so a task's service reads the same
 * in the task list, the viewer, the Costs screen and its CSV.
 */
import type { LedgerEntry } from './cost-ledger';
import type { GalleryItem } from './gallery-item';
import { providerOf, type ProviderId } from './providers';
import { isDemoEndpoint } from './submit-target';

/** The id of Pictor's built-in demo service. */
export const DEMO_SERVICE_ID = 'demo';

/** A service by id: a provider's, or the built-in demo's. */
export type ServiceId = ProviderId | typeof DEMO_SERVICE_ID;

/** The service a task is on: `demo` for the built-in demo's tasks, else its provider's id. */
export function serviceIdOf(record: {
  readonly provider?: ProviderId | undefined;
  readonly endpoint: string;
}): ServiceId {
  return isDemoEndpoint(record.endpoint) ? DEMO_SERVICE_ID : providerOf(record);
}

/** The service of a ledger entry: `demo` for the built-in demo's (free) tasks. */
export function ledgerServiceOf(entry: Pick<LedgerEntry, 'provider' | 'cost'>): ServiceId {
  return entry.cost.source === 'free' ? DEMO_SERVICE_ID : entry.provider;
}

/** The service of a gallery item's task: `demo` for the built-in demo's images. */
export function galleryServiceOf(item: Pick<GalleryItem, 'provider' | 'demo'>): ServiceId {
  return item.demo === true ? DEMO_SERVICE_ID : providerOf(item);
}
