/**
 * One name per service wherever a service is named by id (`--provider`, `list --json`, `costs`,
 * the ledger's CSV): a provider's id, or `demo` for Pictor's built-in demo service. The demo
 * speaks a provider's dialect, so its tasks carry that provider; their endpoint (`demo:`,
 * `demo:fal`, …: submit-target.ts) tells them apart, in the history's and the ledger's rows
 * alike (core/history/service-filter.ts filters by it); a gallery item and a ledger entry carry
 * the endpoint's answer (`demo`). A filter by service is by these ids too: `pictor` is today's
 * contract's tasks without the demo's, `demo` the demo's whatever dialect it spoke. The window names
 * a service by these ids too (renderer/lib/service-label.ts), so a task's service reads the same
 * in the task list, the viewer, the Costs screen and its CSV.
 */
import { z } from 'zod';
import type { LedgerEntry } from './cost-ledger';
import type { GalleryItem } from './gallery-item';
import { lazySchema } from './lazy-schema';
import { PROVIDER_IDS, PROVIDERS, providerOf, type ProviderId } from './providers';
import { demoEndpointOf, isDemoEndpoint } from './submit-target';

/** The id of Pictor's built-in demo service. */
export const DEMO_SERVICE_ID = 'demo';

/** A service by id: a provider's, or the built-in demo's. */
export type ServiceId = ProviderId | typeof DEMO_SERVICE_ID;

/** Every service by id, the order services are listed in to choose or filter by: the demo last. */
export const SERVICE_IDS: readonly ServiceId[] = [...PROVIDER_IDS, DEMO_SERVICE_ID];

/**
 * A service to filter by (the task list's, the gallery's, a smart board's rule, the CLI's
 * `--service`): the demo's tasks are the demo's, not the provider whose dialect it spoke.
 */
export const serviceIdSchema = lazySchema(() =>
  z.enum([...PROVIDER_IDS, DEMO_SERVICE_ID] as const),
);

/** The demo's endpoints, one per dialect: what a query tests a row's endpoint against. */
export const DEMO_ENDPOINTS: readonly string[] = PROVIDER_IDS.map(demoEndpointOf);

/** The service a task is on: `demo` for the built-in demo's tasks, else its provider's id. */
export function serviceIdOf(record: {
  readonly provider?: ProviderId | undefined;
  readonly endpoint: string;
}): ServiceId {
  return isDemoEndpoint(record.endpoint) ? DEMO_SERVICE_ID : providerOf(record);
}

/**
 * The service an image file's recorded origin names (its XMP's `service`: the demo's endpoint,
 * `demo:` or `demo:fal`, else `scheme://host:port`: gallery/metadata/provenance.ts), by
 * {@link serviceIdOf}'s rule: `demo` for the demo's, the provider whose own address it is; null
 * for any other origin (an address of the user's own, today's contract's or a local engine's:
 * the origin alone does not tell which).
 */
export function serviceIdAtOrigin(origin: string): ServiceId | null {
  if (isDemoEndpoint(origin)) return DEMO_SERVICE_ID;
  return (
    PROVIDER_IDS.find((id) => {
      const own = PROVIDERS[id].defaultBaseUrl;
      return own !== null && URL.canParse(own) && new URL(own).origin === origin;
    }) ?? null
  );
}

/** The service of a ledger entry: `demo` for the built-in demo's tasks (by their endpoint). */
export function ledgerServiceOf(entry: Pick<LedgerEntry, 'provider' | 'demo'>): ServiceId {
  return entry.demo === true ? DEMO_SERVICE_ID : entry.provider;
}

/** The service of a gallery item's task: `demo` for the built-in demo's images. */
export function galleryServiceOf(item: Pick<GalleryItem, 'provider' | 'demo'>): ServiceId {
  return item.demo === true ? DEMO_SERVICE_ID : providerOf(item);
}
