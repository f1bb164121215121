/**
 * What each model can do with images given to it, and how those images travel, as each service
 * documents it (docs/SERVICE.md, "Images as inputs", has every request field). The window offers
 * only what the chosen model can do and names the models that would; main refuses anything else
 * before a request leaves. A model not listed takes no image.
 */
import type { ProviderId } from './providers';
import type { ComfyWorkflow } from './comfy-workflow';
import type { ImageInputs, ImageOperation, UpscaleFactor } from './image-inputs';

/**
 * How an input reaches the service:
 * - `inline-base64`: the bytes in the request body, base64 without a prefix (BFL);
 * - `data-uri`: a `data:<mime>;base64,…` URI in the body, up to `maxBytes` of image (fal,
 *   Replicate, DashScope);
 * - `url`: a public https link the service fetches (a link the user gave);
 * - `upload`: the service's own upload step first (fal's storage, Replicate's files, DashScope's
 *   temporary `oss://`), then its answer's link in the body. `endpoint` is where the key goes
 *   (an absolute address, or a path under the base URL), `origin` the origins the key may reach
 *   for it; a signed upload target the service answers with never gets the key. `publicLinks`:
 *   what is uploaded is reachable by anyone with its link (asked once per service).
 *   `lifetimeMs`: how long an upload stays usable (DashScope: 48 h). `serverFile`: the answer is
 *   a file name on the service's own server (ComfyUI's input folder), not a link it fetches.
 */
export type InputTransport =
  | { readonly kind: 'inline-base64'; readonly maxBytes: number }
  | { readonly kind: 'data-uri'; readonly maxBytes: number }
  | { readonly kind: 'url' }
  | {
      readonly kind: 'upload';
      readonly endpoint: string;
      readonly origins: readonly string[];
      readonly publicLinks: boolean;
      readonly lifetimeMs: number | null;
      readonly serverFile?: true;
    };

export type MaskConvention = 'white-edit' | 'alpha-edit';

/** What one model takes. */
export interface ModelCapabilities {
  /** Source images it takes (0: none; it is then not listed). */
  readonly image: number;
  /** The operations it performs on its source. */
  readonly operations: readonly ImageOperation[];
  /** How it reads a mask, when it takes one (`fill`). */
  readonly mask?: MaskConvention;
  /** Reference images beside the source. */
  readonly references: number;
  /** Upscale factors, for `upscale`. */
  readonly upscale: readonly UpscaleFactor[];
  /** Largest input it takes, in bytes and pixels per side, where documented. */
  readonly maxBytes: number;
  readonly maxSide: number;
  /**
   * The highest `safety_tolerance` it allows with an input image (FLUX Kontext: 2; FLUX.2
   * [pro]: 5, its whole range). Absent: the model takes no safety tolerance.
   */
  readonly maxSafetyWithInput?: number;
  /** The lowest `safety_tolerance` it takes, when that is not 0 (fal's enum starts at "1"). */
  readonly minSafety?: number;
  /** How inputs travel, in order of preference (inline first). */
  readonly transports: readonly InputTransport[];
}

const MB = 1024 * 1024;
const HOUR = 3_600_000;

const BFL_INLINE: InputTransport = { kind: 'inline-base64', maxBytes: 20 * MB };
const FAL_UPLOAD: InputTransport = {
  kind: 'upload',
  endpoint: 'https://rest.alpha.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3',
  origins: ['https://rest.alpha.fal.ai'],
  publicLinks: true,
  lifetimeMs: null,
};
const FAL: readonly InputTransport[] = [{ kind: 'data-uri', maxBytes: 10 * MB }, FAL_UPLOAD];
// Replicate recommends a data URI only for a file under 1 MB; larger ones go through its files API.
const REPLICATE: readonly InputTransport[] = [
  { kind: 'data-uri', maxBytes: 1 * MB },
  {
    kind: 'upload',
    endpoint: '/v1/files',
    origins: [],
    publicLinks: false,
    lifetimeMs: 24 * HOUR,
  },
];
// DashScope takes an image field as a public link, its temporary `oss://` upload, or a Base64
// data URI (Model Studio, "image field formats": `data:image/png;base64,…`, meant for small files);
// wanx2.1-imageedit takes images up to 10 MB. Inline, the image's base64 text stays within those
// 10 MB, whichever DashScope measures (base64 is a third larger than the image); a larger
// image goes by upload.
const DASHSCOPE: readonly InputTransport[] = [
  { kind: 'data-uri', maxBytes: Math.floor((10 * MB * 3) / 4) },
  {
    kind: 'upload',
    endpoint: '/api/v1/uploads?action=getPolicy',
    origins: [],
    publicLinks: false,
    lifetimeMs: 48 * HOUR,
  },
];

const kontext = (
  transports: readonly InputTransport[],
  maxBytes: number,
  minSafety?: number,
): ModelCapabilities => ({
  image: 1,
  operations: ['edit'],
  references: 0,
  upscale: [],
  maxBytes,
  maxSide: 4096,
  maxSafetyWithInput: 2,
  ...(minSafety === undefined ? {} : { minSafety }),
  transports,
});

/**
 * Capabilities by provider and model. Today's contract names no image fields ("editing options
 * are on a separate model page"), so its only entry is the demo's own edit model (the demo
 * speaks the alpha-edit convention there, as OpenAI-style edits do); OpenAI itself stays out
 * until its synchronous edits can be resumed (docs/SERVICE.md).
 */
export const MODEL_CAPABILITIES: Readonly<
  Record<ProviderId, Readonly<Record<string, ModelCapabilities>>>
> = {
  pictor: {
    'demo-edit': {
      image: 1,
      operations: ['edit', 'fill', 'upscale'],
      mask: 'alpha-edit',
      references: 3,
      upscale: [2, 4],
      maxBytes: 4 * MB,
      maxSide: 4096,
      transports: [{ kind: 'data-uri', maxBytes: 4 * MB }],
    },
  },
  bfl: {
    'flux-kontext-pro': kontext([BFL_INLINE], 20 * MB),
    'flux-kontext-max': kontext([BFL_INLINE], 20 * MB),
    // input_image and input_image_2 … input_image_8: the source and up to 7 references;
    // safety_tolerance 0–5 (its documented range, with or without an input).
    'flux-2-pro': {
      image: 1,
      operations: ['edit'],
      references: 7,
      upscale: [],
      maxBytes: 20 * MB,
      maxSide: 4096,
      maxSafetyWithInput: 5,
      transports: [BFL_INLINE],
    },
    'flux-pro-1.0-fill': {
      image: 1,
      operations: ['fill'],
      mask: 'white-edit',
      references: 0,
      upscale: [],
      maxBytes: 20 * MB,
      maxSide: 4096,
      transports: [BFL_INLINE],
    },
    'flux-pro-1.0-expand': {
      image: 1,
      operations: ['outpaint'],
      references: 0,
      upscale: [],
      maxBytes: 20 * MB,
      maxSide: 4096,
      transports: [BFL_INLINE],
    },
  },
  fal: {
    // safety_tolerance is the string enum "1" … "6" at fal.
    'fal-ai/flux-pro/kontext': kontext(FAL, 10 * MB, 1),
    'fal-ai/flux-pro/v1/fill': {
      image: 1,
      operations: ['fill'],
      mask: 'white-edit',
      references: 0,
      upscale: [],
      maxBytes: 10 * MB,
      maxSide: 4096,
      transports: FAL,
    },
    // FLUX outpainting at fal: expand_top/bottom/left/right, 0–2048 pixels each.
    'fal-ai/flux-2-pro/outpaint': {
      image: 1,
      operations: ['outpaint'],
      references: 0,
      upscale: [],
      maxBytes: 10 * MB,
      maxSide: 4096,
      transports: FAL,
    },
    'fal-ai/clarity-upscaler': {
      image: 1,
      operations: ['upscale'],
      references: 0,
      upscale: [2, 4],
      maxBytes: 10 * MB,
      maxSide: 4096,
      transports: FAL,
    },
  },
  replicate: {
    'black-forest-labs/flux-kontext-pro': kontext(REPLICATE, 20 * MB),
    'black-forest-labs/flux-fill-pro': {
      image: 1,
      operations: ['fill', 'outpaint'],
      mask: 'white-edit',
      references: 0,
      upscale: [],
      maxBytes: 20 * MB,
      maxSide: 4096,
      transports: REPLICATE,
    },
    'nightmareai/real-esrgan': {
      image: 1,
      operations: ['upscale'],
      references: 0,
      upscale: [2, 4],
      maxBytes: 20 * MB,
      maxSide: 2048,
      transports: REPLICATE,
    },
  },
  dashscope: {
    'wanx2.1-imageedit': {
      image: 1,
      operations: ['edit', 'fill', 'outpaint', 'upscale'],
      mask: 'white-edit',
      references: 0,
      upscale: [2, 4],
      maxBytes: 10 * MB,
      maxSide: 4096,
      transports: DASHSCOPE,
    },
  },
  // ComfyUI: a workflow that maps an input image is the user's; the built-in graph takes none.
  comfyui: {},
};

/** What `model` of `provider` takes; null when it takes no image (or is not listed). */
export function capabilitiesOf(
  provider: ProviderId,
  model: string | undefined,
): ModelCapabilities | null {
  const table = MODEL_CAPABILITIES[provider];
  const name = model?.trim() ?? '';
  return Object.hasOwn(table, name) ? (table[name] ?? null) : null;
}

/**
 * A ComfyUI workflow that maps an input image (a LoadImage node's `image`) takes one, to edit as
 * its graph does: uploaded to the server's input folder with `POST /upload/image`, where it stays
 * until someone deletes it. Its size is the input store's own bound (the server states none).
 */
const COMFYUI_WORKFLOW_INPUT: ModelCapabilities = {
  image: 1,
  operations: ['edit'],
  references: 0,
  upscale: [],
  maxBytes: 64 * MB,
  maxSide: 16_384,
  transports: [
    {
      kind: 'upload',
      endpoint: '/upload/image',
      origins: [],
      publicLinks: false,
      lifetimeMs: null,
      serverFile: true,
    },
  ],
};

/**
 * What the model a request runs takes: a ComfyUI request's workflow takes an input image only when
 * its map names one; any other request's model as {@link capabilitiesOf} says.
 */
export function requestCapabilities(
  provider: ProviderId,
  request: { readonly model?: string | undefined; readonly workflow?: ComfyWorkflow | undefined },
): ModelCapabilities | null {
  if (provider === 'comfyui' && request.workflow !== undefined)
    return request.workflow.map.image === undefined ? null : COMFYUI_WORKFLOW_INPUT;
  return capabilitiesOf(provider, request.model);
}

/** The `safety_tolerance` BFL, fal and Replicate use when none is given. */
const DEFAULT_SAFETY = 2;

/**
 * The `safety_tolerance` sent with an input image: what was asked (the services' default, 2,
 * when nothing was), within what the model allows with an input; `clamped` when that changed
 * it, so the edit plan can say "clamped to 2". Null for a model that takes no safety tolerance.
 */
export function safetyWithInput(
  capabilities: ModelCapabilities,
  asked: number | undefined,
): { sent: number; clamped: boolean } | null {
  const most = capabilities.maxSafetyWithInput;
  if (most === undefined) return null;
  const wanted = asked ?? DEFAULT_SAFETY;
  const sent = Math.max(capabilities.minSafety ?? 0, Math.min(wanted, most));
  return { sent, clamped: sent !== wanted };
}

/** What a task asks of a model. */
export interface InputNeeds {
  readonly operation: ImageOperation;
  /** The mask conventions the task has its mask in (absent or empty: no mask). */
  readonly masks?: readonly MaskConvention[];
  readonly references?: number;
  readonly factor?: UpscaleFactor;
}

/** What a task's inputs ask of a model. */
export function needsOf(inputs: ImageInputs): InputNeeds {
  return {
    operation: inputs.operation,
    masks: [
      ...(inputs.mask ? (['white-edit'] as const) : []),
      ...(inputs.maskAlpha ? (['alpha-edit'] as const) : []),
    ],
    references: inputs.references?.length ?? 0,
    ...(inputs.factor === undefined ? {} : { factor: inputs.factor }),
  };
}

/** Whether `capabilities` can do what `needs` asks. */
export function canDo(capabilities: ModelCapabilities | null, needs: InputNeeds): boolean {
  if (!capabilities || capabilities.image < 1) return false;
  if (!capabilities.operations.includes(needs.operation)) return false;
  const masks = needs.masks ?? [];
  if (masks.length > 0 && (capabilities.mask === undefined || !masks.includes(capabilities.mask))) {
    return false;
  }
  if ((needs.references ?? 0) > capabilities.references) return false;
  if (needs.operation === 'upscale') {
    return needs.factor === undefined || capabilities.upscale.includes(needs.factor);
  }
  return true;
}

/** Every model that can do what `needs` asks, by provider, in the table's order. */
export function modelsThatCan(needs: InputNeeds): { provider: ProviderId; model: string }[] {
  return (Object.keys(MODEL_CAPABILITIES) as ProviderId[]).flatMap((provider) =>
    Object.entries(MODEL_CAPABILITIES[provider])
      .filter(([, capabilities]) => canDo(capabilities, needs))
      .map(([model]) => ({ provider, model })),
  );
}
