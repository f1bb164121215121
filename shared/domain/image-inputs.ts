/**
 * Images as inputs: what a task asks a service to do with images it is given (edit with an
 * instruction, fill under a mask, expand, upscale), and the images themselves, each named by the
 * SHA-256 of its bytes. The bytes live in the library's input store (electron/core/inputs/), so a
 * task's `request.inputs` is enough to run it again offline, and they travel with the record
 * (history, sidecar, archive, rebuild). A record never holds an address an input was uploaded to:
 * uploads are made at send time and made again when a task is sent again.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import {
  GALLERY_MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  boundedInt,
} from './limits';

/** What a task does with its input image. */
export const IMAGE_OPERATIONS = [
  /** An instruction edit of the whole image (FLUX Kontext, FLUX.2, DashScope description_edit). */
  'edit',
  /** An edit under a mask (FLUX Fill, description_edit_with_mask). */
  'fill',
  /** Expand the canvas and paint what is around it (FLUX Expand, DashScope expand). */
  'outpaint',
  /** A larger copy of the image (×2, ×4). */
  'upscale',
] as const;
export const imageOperationSchema = lazySchema(() => z.enum(IMAGE_OPERATIONS));
export type ImageOperation = (typeof IMAGE_OPERATIONS)[number];

/** The formats an input may have; anything else is refused with a sentence. */
const INPUT_MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type InputMime = (typeof INPUT_MIMES)[number];

/**
 * Largest input file the store takes (no service takes more; each model states its own): the
 * gallery's one cap, so any gallery image can be an input and nothing larger is read.
 */
export const MAX_INPUT_BYTES = GALLERY_MAX_IMAGE_BYTES;
/** Largest side of an input the store takes, in pixels. */
export const MAX_INPUT_SIDE = 16_384;
/** References one task may carry besides its source (the most any model takes). */
export const MAX_REFERENCES = 9;
/** Upscale factors Pictor offers. */
export const UPSCALE_FACTORS = [2, 4] as const;
export type UpscaleFactor = (typeof UPSCALE_FACTORS)[number];

export const sha256Schema = lazySchema(() =>
  z.string().regex(/^[0-9a-f]{64}$/, 'Not a SHA-256 digest.'),
);

/**
 * One input image: its digest (its name in the store) and what its header says. This module's
 * schemas are built on first use (lazy-schema.ts): a command that reads no inputs builds none.
 */
export const inputImageSchema = lazySchema(() =>
  z.object({
    sha256: sha256Schema(),
    mime: z.enum(INPUT_MIMES),
    width: boundedInt(1, MAX_INPUT_SIDE),
    height: boundedInt(1, MAX_INPUT_SIDE),
    bytes: boundedInt(1, MAX_INPUT_BYTES),
  }),
);
export type InputImage = z.infer<ReturnType<typeof inputImageSchema>>;

/**
 * How the user asked inputs to travel: `auto` (inline when the model takes it and it fits, else
 * the service's upload), `inline` (inline only: refused when it does not fit), `upload` (the
 * upload even when inline would fit), `never` (never upload: inline, or refused).
 */
export const INPUT_ROUTES = ['auto', 'inline', 'upload', 'never'] as const;
export type InputRoute = (typeof INPUT_ROUTES)[number];

/** Pixels added on each side of an expanded image. */
const expandSchema = lazySchema(() =>
  z.object({
    top: boundedInt(0, MAX_INPUT_SIDE),
    right: boundedInt(0, MAX_INPUT_SIDE),
    bottom: boundedInt(0, MAX_INPUT_SIDE),
    left: boundedInt(0, MAX_INPUT_SIDE),
  }),
);
export type Expand = z.infer<ReturnType<typeof expandSchema>>;

/** The library image an input came from: its task and image. */
export const imageParentSchema = lazySchema(() =>
  z.object({
    localId: z.string().min(1).max(MAX_LOCAL_ID_CHARS),
    index: boundedInt(0, MAX_IMAGES_PER_TASK - 1),
  }),
);
export type ImageParent = z.infer<ReturnType<typeof imageParentSchema>>;

/**
 * A task's inputs, kept in its request. `parent` is absent for a source taken from a file (the
 * stack's original is then the stored file itself). Built on first use (lazy-schema.ts).
 */
export const imageInputsSchema = lazySchema(() =>
  z
    .object({
      operation: imageOperationSchema(),
      source: inputImageSchema(),
      /** The mask at the source's exact size, white-on-black grayscale (white = edit). */
      mask: inputImageSchema().optional(),
      /**
       * The same mask for models that read alpha (`alpha-edit`): an RGBA PNG whose alpha is 0
       * where the image is to be edited. The page's mask editor exports both; one given from a
       * file is kept in the convention it has.
       */
      maskAlpha: inputImageSchema().optional(),
      references: z.array(inputImageSchema()).max(MAX_REFERENCES).optional(),
      /** Upscale only. */
      factor: z.union([z.literal(2), z.literal(4)]).optional(),
      /** Outpaint only. */
      expand: expandSchema().optional(),
      parent: imageParentSchema().optional(),
      route: z.enum(INPUT_ROUTES).optional(),
      /**
       * The safety tolerance asked for (FLUX: 0 strictest to 6); sent clamped to what the model
       * allows with an input image, and the plan says so.
       */
      safety: boundedInt(0, 6).optional(),
    })
    .superRefine((inputs, context) => {
      const { source } = inputs;
      for (const key of ['mask', 'maskAlpha'] as const) {
        const mask = inputs[key];
        if (mask && (mask.width !== source.width || mask.height !== source.height)) {
          context.addIssue({
            code: 'custom',
            path: [key],
            message: 'The mask is not the size of the image it masks.',
          });
        }
      }
      if (inputs.operation === 'fill' && !inputs.mask && !inputs.maskAlpha) {
        context.addIssue({ code: 'custom', path: ['mask'], message: 'A fill needs a mask.' });
      }
      if (inputs.operation === 'upscale' && inputs.factor === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['factor'],
          message: 'An upscale needs a factor.',
        });
      }
    }),
);
export type ImageInputs = z.infer<ReturnType<typeof imageInputsSchema>>;

/** Every input image of a task: source, mask, references (each digest once). */
export function inputImagesOf(inputs: ImageInputs): InputImage[] {
  const all = [
    inputs.source,
    ...(inputs.mask ? [inputs.mask] : []),
    ...(inputs.maskAlpha ? [inputs.maskAlpha] : []),
    ...(inputs.references ?? []),
  ];
  const seen = new Set<string>();
  return all.filter((image) => !seen.has(image.sha256) && Boolean(seen.add(image.sha256)));
}
