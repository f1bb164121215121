/**
 * The options of the models Pictor lists, shipped so they work offline and on first run, by the
 * names each service documents (sources in each block). A model not here has no options Pictor
 * knows: nothing beyond prompt, size and quality is sent for it until its schema is read from the
 * service (fetched-param-schema.ts, then paramSchemaOf below). The seed's own interface (`pictor`)
 * publishes none: its model page's options are given by the user as a small schema file (`pictor
 * models import-schema`, or the form's "Options from a file…"), or there are none.
 */
import type { ProviderId } from './providers';
import type { ParamSchema } from './model-params';
import { FAL_SCHEMAS } from './model-param-schemas-fal';
import { REPLICATE_SCHEMAS } from './model-param-schemas-replicate';
import {
  NEGATIVE,
  RATIOS,
  SEED,
  choice,
  decimal,
  text,
  toggle,
  whole,
} from './param-spec-builders';

// BFL (docs.bfl.ai, the OpenAPI at api.bfl.ai/openapi.json: FluxPro11Input, Flux2ProInput,
// FluxKontextProInput, FluxDevInput): `seed`, `safety_tolerance` 0–6 (default 2), `output_format`
// jpeg|png, `prompt_upsampling`; FLUX.1 [dev] and FLUX.2 [flex] take `steps` and `guidance`.
const BFL_COMMON = {
  seed: SEED,
  safety_tolerance: whole(0, 6, 2, { common: 'safety' }),
  output_format: choice(['jpeg', 'png'], 'jpeg', { common: 'format' }),
  prompt_upsampling: toggle(false),
};
const BFL: Record<string, ParamSchema> = {
  'flux-pro-1.1': { params: BFL_COMMON },
  'flux-2-pro': { params: BFL_COMMON },
  'flux-2-max': { params: BFL_COMMON },
  'flux-2-flex': {
    params: {
      ...BFL_COMMON,
      steps: whole(1, 50, 50, { common: 'steps' }),
      guidance: decimal([1.5, 10, 0.1], 4.5, { common: 'guidance' }),
    },
  },
  'flux-kontext-pro': {
    params: { ...BFL_COMMON, aspect_ratio: choice(RATIOS, '1:1', { common: 'aspect' }) },
  },
  'flux-dev': {
    params: {
      ...BFL_COMMON,
      steps: whole(1, 50, 28, { common: 'steps' }),
      guidance: decimal([1.5, 5, 0.1], 3, { common: 'guidance' }),
    },
  },
  'flux-pro-1.1-ultra': {
    params: {
      ...BFL_COMMON,
      aspect_ratio: choice(RATIOS, '16:9', { common: 'aspect' }),
      raw: toggle(false),
    },
  },
};

// DashScope (Alibaba Cloud Model Studio, "Wanxiang text-to-image V2" API reference):
// `input.negative_prompt`; `parameters.seed` 0–2147483647, `parameters.n` 1–4,
// `parameters.prompt_extend`, `parameters.watermark`.
const WAN = {
  params: {
    seed: SEED,
    negative_prompt: text(500, { common: 'negative' }),
    n: whole(1, 4, 1, { common: 'count' }),
    prompt_extend: toggle(true),
    watermark: toggle(false),
  },
} satisfies ParamSchema;
const DASHSCOPE: Record<string, ParamSchema> = {
  'wanx2.1-t2i-turbo': WAN,
  'wanx2.1-t2i-plus': WAN,
  'wan2.2-t2i-flash': WAN,
};

// ComfyUI: every model is a workflow the user mapped (shared/domain/comfy-workflow.ts); what it
// takes beyond the prompt, seed and size is the negative prompt and the steps, sent to the inputs
// its map names (a workflow that maps none ignores them).
const COMFY = {
  params: {
    seed: SEED,
    negative_prompt: NEGATIVE,
    steps: whole(1, 150, undefined, { common: 'steps' }),
  },
} satisfies ParamSchema;

/** Every shipped schema, by provider and model id. */
export const SHIPPED_PARAM_SCHEMAS: Readonly<
  Record<ProviderId, Readonly<Record<string, ParamSchema>>>
> = {
  pictor: {},
  fal: FAL_SCHEMAS,
  replicate: REPLICATE_SCHEMAS,
  dashscope: DASHSCOPE,
  bfl: BFL,
  comfyui: { 'text-to-image': COMFY },
};

/** The schema of every model of a provider whose models are the user's own (its workflows). */
const EVERY_MODEL: Readonly<Partial<Record<ProviderId, ParamSchema>>> = { comfyui: COMFY };

/** The shipped schema of `model` on `provider`, if Pictor has one. */
export function shippedParamSchema(
  provider: ProviderId,
  model: string | undefined,
): ParamSchema | undefined {
  if (model === undefined) return undefined;
  const table = SHIPPED_PARAM_SCHEMAS[provider];
  return Object.hasOwn(table, model) ? table[model] : EVERY_MODEL[provider];
}

/**
 * The schemas read from a service or given by the user in this process, over the shipped ones
 * (by `provider` and model): filled from the library's book of model options when a front opens
 * it (electron/core/param-schemas/), and when one is fetched or imported.
 */
const KNOWN = new Map<string, ParamSchema>();

function knownKey(provider: ProviderId, model: string): string {
  return `${provider}\u0000${model}`;
}

/** Uses `kept` (a library's whole book) from now on in this process, and no schema kept before. */
export function useParamSchemas(
  kept: readonly (ParamSchema & { readonly provider: ProviderId; readonly model: string })[],
): void {
  KNOWN.clear();
  for (const entry of kept) KNOWN.set(knownKey(entry.provider, entry.model), entry);
}

/** The schema of `model` on `provider`: fetched or given, else shipped, else none. */
export function paramSchemaOf(
  provider: ProviderId,
  model: string | undefined,
): ParamSchema | undefined {
  if (model === undefined) return undefined;
  return KNOWN.get(knownKey(provider, model)) ?? shippedParamSchema(provider, model);
}
