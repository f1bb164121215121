/**
 * The image services Pictor speaks: today's contract (`pictor`, docs/SERVICE.md) and the async
 * services whose own words electron/core/service/providers maps onto it. What the window, the
 * records and the CLI need to know about each: its id, its name, its address and its models.
 * How to talk to it lives in main only.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';

export const PROVIDER_IDS = ['pictor', 'fal', 'replicate', 'dashscope', 'bfl', 'comfyui'] as const;
/** Built on first use (lazy-schema.ts): a command that reads no provider id builds none. */
export const providerIdSchema = lazySchema(() => z.enum(PROVIDER_IDS));
export type ProviderId = (typeof PROVIDER_IDS)[number];

/**
 * One entry per provider of `ids`, each `make(id)`: every per-service record and zod shape in
 * shared/ and the demo is built from PROVIDER_IDS, so a new service is named in one list
 * (docs/ARCHITECTURE.md, "Adding a service"; tests/unit/shared/provider-lists.test.ts).
 */
export function perProvider<const K extends ProviderId, T>(
  ids: readonly K[],
  make: (id: K) => T,
): Record<K, T> {
  return Object.fromEntries(ids.map((id) => [id, make(id)])) as Record<K, T>;
}

/** Records written before services had profiles are today's contract's. */
export const DEFAULT_PROVIDER: ProviderId = 'pictor';

export interface ProviderFacts {
  readonly id: ProviderId;
  /** The service's name, as its provider writes it. */
  readonly label: string;
  /** Where its documented paths live; the user may override it (a proxy, a regional host). */
  readonly defaultBaseUrl: string | null;
  /** The model a new task asks for unless the user picks another. */
  readonly defaultModel: string | null;
  /** Models offered in the compose form (the user may type another). */
  readonly models: readonly string[];
  /** How long the service keeps a finished task's results, as its documentation says. */
  readonly resultLifetimeMs: number | null;
  /** The service can cancel a task (Pictor does only when the user asks). */
  readonly canCancel: boolean;
  /** Its request takes a `quality` word (the seed's interface does; the others have none). */
  readonly takesQuality: boolean;
  /** Its models are workflows the user imports (ComfyUI's; core/workflows), besides its own. */
  readonly modelsAreWorkflows?: boolean;
  /**
   * It works with no key (a local engine): with none stored, its requests carry no key header;
   * a key, when the user gives one (a proxy in front of it), is bound to its origin as any key.
   */
  readonly keyOptional?: boolean;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const PROVIDERS: Readonly<Record<ProviderId, ProviderFacts>> = {
  pictor: {
    id: 'pictor',
    label: 'Image task service',
    defaultBaseUrl: null,
    defaultModel: null,
    models: [],
    resultLifetimeMs: null,
    canCancel: false,
    takesQuality: true,
  },
  fal: {
    id: 'fal',
    label: 'fal.ai',
    defaultBaseUrl: 'https://queue.fal.run',
    defaultModel: 'fal-ai/flux/schnell',
    models: ['fal-ai/flux/schnell', 'fal-ai/flux/dev', 'fal-ai/flux-pro/v1.1'],
    // fal keeps queue results for a limited time; the shortest documented retention is taken.
    resultLifetimeMs: 6 * MINUTE,
    canCancel: true,
    takesQuality: false,
  },
  replicate: {
    id: 'replicate',
    label: 'Replicate',
    defaultBaseUrl: 'https://api.replicate.com',
    defaultModel: 'black-forest-labs/flux-schnell',
    models: ['black-forest-labs/flux-schnell', 'black-forest-labs/flux-dev'],
    resultLifetimeMs: HOUR,
    canCancel: true,
    takesQuality: false,
  },
  dashscope: {
    id: 'dashscope',
    label: 'Alibaba Cloud DashScope',
    defaultBaseUrl: 'https://dashscope.aliyuncs.com',
    defaultModel: 'wanx2.1-t2i-turbo',
    models: ['wanx2.1-t2i-turbo', 'wanx2.1-t2i-plus', 'wan2.2-t2i-flash'],
    resultLifetimeMs: 24 * HOUR,
    canCancel: true,
    takesQuality: false,
  },
  bfl: {
    id: 'bfl',
    label: 'Black Forest Labs',
    defaultBaseUrl: 'https://api.bfl.ai',
    defaultModel: 'flux-pro-1.1',
    // FLUX.2 and Kontext beside FLUX1.1 [pro], the default until a test says otherwise.
    models: [
      'flux-pro-1.1',
      'flux-2-pro',
      'flux-2-max',
      'flux-2-flex',
      'flux-kontext-pro',
      'flux-dev',
    ],
    resultLifetimeMs: 10 * MINUTE,
    canCancel: false,
    takesQuality: false,
  },
  comfyui: {
    id: 'comfyui',
    label: 'ComfyUI',
    // A local engine: no key (a Bearer key only behind a proxy that asks for one).
    defaultBaseUrl: 'http://127.0.0.1:8188',
    // ComfyUI's own default graph; an imported workflow is a model of its own (comfy-workflow.ts).
    defaultModel: 'text-to-image',
    models: ['text-to-image'],
    // Its outputs stay in its output folder until someone deletes them.
    resultLifetimeMs: null,
    canCancel: true,
    takesQuality: false,
    modelsAreWorkflows: true,
    keyOptional: true,
  },
};

/** The provider of a record or request that may predate providers. */
export function providerOf(value: { readonly provider?: ProviderId | undefined }): ProviderId {
  return value.provider ?? DEFAULT_PROVIDER;
}

/**
 * Whether the built-in demo stands in for `id`'s service until it has a key and an address: a
 * service without an address of its own (the seed's interface lives at its user's base URL), so
 * its tasks never lack a key, and are the demo's meanwhile.
 */
export function demoStandsIn(id: ProviderId): boolean {
  return PROVIDERS[id].defaultBaseUrl === null;
}

/** A provider id from untrusted text, or null. */
export function parseProviderId(value: unknown): ProviderId | null {
  const parsed = providerIdSchema().safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The key a service that works with none (a local engine) gets when the user gave none. */
export const NO_KEY = '';

/** Whether `provider` works with no key at all ({@link ProviderFacts.keyOptional}). */
export function worksWithoutKey(provider: ProviderId | undefined): boolean {
  return PROVIDERS[provider ?? DEFAULT_PROVIDER].keyOptional === true;
}
