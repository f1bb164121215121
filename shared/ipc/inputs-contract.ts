/**
 * Images as inputs (shared/domain/image-inputs.ts): the page picks a source (a library image or a
 * file main opens), paints a mask, and asks for an edit, a fill, an expansion or an upscale on one
 * or more targets (a fan-out, as a compare is: fan-out-contract.ts). The page never sends a path
 * or an address: files are opened by main's own dialog, every input is named by its digest in
 * main's input store, and each target's address and key are main's. Main checks every input again
 * before anything is stored or sent.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_SIDE,
  imageInputsSchema,
  imageOperationSchema,
  imageParentSchema,
  inputImageSchema,
  sha256Schema,
} from '../domain/image-inputs';
import { COMPARE_TARGETS } from '../domain/compare';
import { REQUEST_LIMITS } from '../domain/limits';
import { providerIdSchema } from '../domain/providers';
import { imageStateSchema } from '../domain/task-record';
import { editTargetSchema, typedWord } from './edit-target';
import { fanOutPlanSchema, fanOutRunSchema } from './fan-out-contract';
import { imageRef } from './selection-schemas';

const none = lazySchema(() => z.undefined());

/** An edit, fill, expansion or upscale of one source on 1 to 6 targets. */
const editInputSchema = lazySchema(() =>
  z
    .object({
      prompt: typedWord(REQUEST_LIMITS.prompt),
      inputs: imageInputsSchema(),
      targets: z.array(editTargetSchema()).min(1).max(COMPARE_TARGETS.max),
    })
    .strict(),
);
export type EditInputPayload = z.infer<ReturnType<typeof editInputSchema>>;

/** How a target's inputs would travel: shown before anything is sent. */
const editRouteSchema = lazySchema(() =>
  z.object({
    /** `inline`: in the request body; `upload`: the service's upload step first. */
    route: z.enum(['inline', 'upload']),
    /** What is uploaded is reachable by anyone with its link (fal's storage). */
    publicLinks: z.boolean(),
    /** The user has not yet agreed to public links for this service (`inputs:consent`). */
    consentNeeded: z.boolean(),
    /** How long an upload stays usable (DashScope's `oss://`: 48 h); absent: the service's. */
    lifetimeMs: z.number().int().positive().optional(),
  }),
);
export type EditRoute = z.infer<ReturnType<typeof editRouteSchema>>;

const editPlanSchema = lazySchema(() => fanOutPlanSchema({ inputs: editRouteSchema() }));
export type EditPlanOutput = z.infer<ReturnType<typeof editPlanSchema>>;

/** One image of a stack: the original, or a result made from an image of the stack. */
const stackEntrySchema = lazySchema(() =>
  z.object({
    localId: z.string().min(1).max(100),
    index: z.number().int().min(0),
    /** What made it; null for the original. */
    operation: imageOperationSchema().nullable(),
    parent: imageParentSchema().optional(),
    provider: providerIdSchema(),
    model: z.string().max(200).optional(),
    prompt: z.string().max(REQUEST_LIMITS.prompt),
    createdAt: z.number(),
    state: imageStateSchema(),
    /** Upscale factor, for an upscale. */
    factor: z.number().int().optional(),
  }),
);
export type StackEntry = z.infer<ReturnType<typeof stackEntrySchema>>;

const stackSchema = lazySchema(() =>
  z.object({
    /** The stack's first image: a library image, or a file kept in the input store. */
    original: z.discriminatedUnion('kind', [
      z.object({
        kind: z.literal('library'),
        localId: z.string().min(1).max(100),
        index: z.number().int().min(0),
      }),
      z.object({ kind: z.literal('input'), sha256: sha256Schema() }),
    ]),
    /**
     * Every image made from the original, directly or not, oldest first; led by the original's own
     * entry (operation null) when the library has it.
     */
    entries: z.array(stackEntrySchema()).max(1_000),
  }),
);
export type ImageStack = z.infer<ReturnType<typeof stackSchema>>;

export const inputRequests = {
  /** Main's open dialog for a PNG, JPEG or WebP; null when the user closed it. */
  'inputs:pickFile': channel(() => ({
    input: none(),
    output: z.object({ image: inputImageSchema() }).nullable(),
  })),
  /** A library image as an input (copied into the input store by digest). */
  'inputs:fromLibrary': channel(() => ({
    input: imageRef(),
    output: z.object({ image: inputImageSchema(), parent: imageParentSchema() }),
  })),
  /**
   * A mask the page painted, a PNG in base64 at the source's exact size (white = edit), or one
   * the user imported: refused when it is not the source's size.
   */
  'inputs:putMask': channel(() => ({
    input: z
      .object({
        source: sha256Schema(),
        png: z
          .string()
          .max(Math.ceil((MAX_INPUT_BYTES * 4) / 3) + 4)
          .regex(/^[A-Za-z0-9+/]*={0,2}$/),
      })
      .strict(),
    output: z.object({ mask: inputImageSchema() }),
  })),
  /** A smaller copy of a stored input (decoded and encoded in the image renderer, never main). */
  'inputs:downscale': channel(() => ({
    input: z
      .object({
        sha256: sha256Schema(),
        maxSide: z.number().int().min(16).max(MAX_INPUT_SIDE),
        maxBytes: z.number().int().min(1024).max(MAX_INPUT_BYTES).optional(),
      })
      .strict(),
    output: z.object({ image: inputImageSchema() }),
  })),
  /** Where the page shows a stored input (the gallery's own scheme). */
  'inputs:address': channel(() => ({
    input: z.object({ sha256: sha256Schema() }).strict(),
    output: z.object({ url: z.string().max(500) }),
  })),
  /** The user agreed that inputs uploaded to `provider` become public links (asked once). */
  'inputs:consent': channel(() => ({
    input: z.object({ provider: providerIdSchema() }).strict(),
    output: none(),
  })),
  /** How an edit would run: nothing stored, nothing sent, nothing uploaded. */
  'edit:plan': channel(() => ({ input: editInputSchema(), output: editPlanSchema() })),
  /** Plans again and sends: every task stored first (one group), each sent on its own. */
  'edit:run': channel(() => ({ input: editInputSchema(), output: fanOutRunSchema() })),
  /** The stack a library image belongs to: its original and every edit and upscale made from it. */
  'images:stack': channel(() => ({ input: imageRef(), output: stackSchema() })),
} as const;
