/**
 * Every message from the image renderer's page is parsed here before the main process uses it:
 * the page decodes hostile bytes, so it is trusted no more than the bytes. Anything that does not
 * parse ends the renderer (renderer-image-engine.ts). Sizes and the WebP container are checked
 * again by the caller (the core's answer check); this is the shape. A Content Credentials verdict
 * is checked here in full (its fields, their limits, no control characters, no other field).
 */
import { z } from 'zod';
import { credentialVerdictSchema } from '../../../shared/domain/content-credentials';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { MAX_IMAGE_SIDE } from '../../../shared/domain/limits';
import { MAX_ANSWER_DETAIL, PAGE_MAX_SOURCE_BYTES } from '../../../shared/image-renderer/protocol';

/**
 * The page's messages. Built on first use (lazy-schema.ts): the gallery loads this module with
 * the image engine's code, and a command that only writes a sidecar never hears from the page.
 */
const answerSchema = lazySchema(() => {
  /** An encoded image from the page: an ArrayBuffer (or a view of one), at most this long. */
  const encodedBytes = z
    .custom<ArrayBuffer | ArrayBufferView>(
      (value) => value instanceof ArrayBuffer || ArrayBuffer.isView(value),
      'expected bytes',
    )
    .transform((value) =>
      value instanceof ArrayBuffer
        ? new Uint8Array(value)
        : new Uint8Array(value.buffer, value.byteOffset, value.byteLength),
    )
    .refine((bytes) => bytes.byteLength > 0 && bytes.byteLength <= PAGE_MAX_SOURCE_BYTES, {
      message: 'empty or too long',
    });
  const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
  const side = z.number().int().min(1).max(MAX_IMAGE_SIDE);
  const detail = z
    .string()
    .max(MAX_ANSWER_DETAIL * 4)
    .transform((text) => text.slice(0, MAX_ANSWER_DETAIL));
  return z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ready') }),
    z.strictObject({
      type: z.literal('thumbnail'),
      id,
      width: side,
      height: side,
      webp: encodedBytes,
    }),
    z.strictObject({ type: z.literal('png'), id, png: encodedBytes }),
    // What the page read in a file's Content Credentials: the record's own shape, nothing more.
    z.strictObject({ type: z.literal('credentials'), id, verdict: credentialVerdictSchema() }),
    z.strictObject({ type: z.literal('undecodable'), id, detail }),
    z.strictObject({ type: z.literal('failed'), id, detail }),
  ]);
});

/** A message from the page, checked. */
export type RendererAnswer = z.infer<ReturnType<typeof answerSchema>>;
/** An answer to a job (every kind but `ready`). */
export type JobAnswer = Exclude<RendererAnswer, { type: 'ready' }>;

/** The answer, or null when the message is not one the page may send. */
export function parseRendererAnswer(message: unknown): RendererAnswer | null {
  const parsed = answerSchema().safeParse(message);
  return parsed.success ? parsed.data : null;
}
