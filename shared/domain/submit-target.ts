/**
 * Where a new task goes: a service (its provider) at an address. A target travels with the
 * request that needs it, as data: the compose form names the service chosen in it (at the
 * address Settings gives that service), "Submit again" and "Rerun" the service of the task they
 * repeat. Nothing a submit does is read from whatever the settings say when it runs. The main
 * process checks every target it is given: it sends a key only to the address the key was entered
 * for, with tasks of the service it was entered for (electron/core/engine/target-check.ts).
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { MAX_ENDPOINT_CHARS } from './limits';
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  demoStandsIn,
  PROVIDER_IDS,
  providerIdSchema,
  providerOf,
  type ProviderId,
} from './providers';
import { serviceAt } from './service-name';
import type { Settings } from './settings';

/**
 * The endpoint of tasks sent to the built-in demo service speaking today's contract (its port
 * changes every launch). The demo speaking another provider's dialect has its own:
 * {@link demoEndpointOf}. This file is the one home of the demo's endpoints.
 */
export const DEMO_ENDPOINT = 'demo:';

/**
 * The endpoint of the built-in demo speaking `provider`'s dialect: `demo:` for today's contract
 * (as it always was), `demo:fal`, `demo:replicate`, … for the others. Records keep it, so a task
 * is polled again on a demo of its own dialect, free, with the demo's key only.
 */
export function demoEndpointOf(provider: ProviderId): string {
  return provider === DEFAULT_PROVIDER ? DEMO_ENDPOINT : `${DEMO_ENDPOINT}${provider}`;
}

/** The provider whose dialect a demo endpoint speaks; null for any other endpoint. */
export function demoProviderOf(endpoint: string): ProviderId | null {
  return PROVIDER_IDS.find((provider) => demoEndpointOf(provider) === endpoint) ?? null;
}

/** True for the built-in demo's endpoints (`demo:`, `demo:fal`, …), whatever its dialect. */
export function isDemoEndpoint(endpoint: string): boolean {
  return demoProviderOf(endpoint) !== null;
}

/**
 * True for an endpoint written as a demo's (`demo:…`) that names no dialect the demo speaks:
 * refused, never read as an address.
 */
export function isUnknownDemoEndpoint(endpoint: string): boolean {
  return endpoint.startsWith(DEMO_ENDPOINT) && !isDemoEndpoint(endpoint);
}

/** Built on first use (lazy-schema.ts): a command that sends nothing builds none. */
export const submitTargetSchema = lazySchema(() =>
  z
    .object({
      /** The kind of service: how the request is sent, and whose key may go with it. */
      provider: providerIdSchema(),
      /** Its base URL (main normalises it), or the built-in demo's ({@link demoEndpointOf}). */
      endpoint: z.string().trim().min(1).max(MAX_ENDPOINT_CHARS),
    })
    .strict(),
);
/** Where a submit goes (see the file comment). */
export type SubmitTarget = z.infer<ReturnType<typeof submitTargetSchema>>;

/** How a sentence names the built-in demo service (its tasks speak today's contract, free). */
export const DEMO_SERVICE_LABEL = 'Pictor’s built-in demo service';

/**
 * How a sentence names the service a target is on: the built-in demo as itself (not as the
 * provider whose contract it speaks), every other its provider's label.
 */
export function targetLabel(target: Pick<SubmitTarget, 'provider' | 'endpoint'>): string {
  return isDemoEndpoint(target.endpoint)
    ? DEMO_SERVICE_LABEL
    : serviceAt(target.provider, target.endpoint);
}

/** The settings a service's address depends on. */
export type AddressSettings = Pick<Settings, 'serviceBaseUrls'>;

/**
 * The address `provider`'s service has in `settings`, as typed (not normalised; '' for none): the
 * one the user gave it, or else its provider's own (the user's own service has none).
 */
export function typedAddress(settings: AddressSettings, provider: ProviderId): string {
  const given = settings.serviceBaseUrls[provider]?.trim() ?? '';
  return given === '' ? (PROVIDERS[provider].defaultBaseUrl ?? '') : given;
}

/** `settings` with `provider`'s address set to `address` (as typed; '' for its default). */
export function withAddress<T extends AddressSettings>(
  settings: T,
  provider: ProviderId,
  address: string,
): T {
  return { ...settings, serviceBaseUrls: { ...settings.serviceBaseUrls, [provider]: address } };
}

/**
 * The target of a new task of `provider`, as the compose form names it: the service's address in
 * `settings`; for today's contract, the built-in demo until both its key is ready and an address
 * is set (as the app always did).
 */
export function formTarget(
  settings: AddressSettings,
  provider: ProviderId,
  contractKeyReady: boolean,
): SubmitTarget {
  const address = typedAddress(settings, provider);
  const demo = demoStandsIn(provider) && (!contractKeyReady || address === '');
  return { provider, endpoint: demo || address === '' ? DEMO_ENDPOINT : address };
}

/** The target of a stored task: its own service and address, for "Submit again" and "Rerun". */
export function recordTarget(record: {
  readonly provider?: ProviderId | undefined;
  readonly endpoint: string;
}): SubmitTarget {
  return { provider: providerOf(record), endpoint: record.endpoint };
}
