/**
 * The demo's inline results (option `inlineResults`): a completed task's images carried in the
 * answer itself instead of at an address, as some real services answer. `data-url` puts a
 * `data:image/png;base64,…` URL where the address would be (fal's sync mode, Replicate's and Cog's
 * data URIs); `b64-json` (today's contract only) gives each `output.data[]` entry an OpenAI-style
 * `b64_json` and no `url`. The bytes are exactly what the image address would serve.
 */
import { IMAGE_MIME, SNIFF_BYTES, sniffImage } from '../core/images';
import type { ServiceContext } from './service-context';
import type { StoredImage, StoredTask } from './task-store';

/** An image as the image route serves it: one of the given files as it is, or the drawn PNG. */
export async function storedImageBytes(
  ctx: ServiceContext,
  image: StoredImage,
): Promise<{ bytes: Uint8Array; type: string }> {
  const derived = ctx.store.output(image.taskId);
  if (derived) return { bytes: derived, type: 'image/png' };
  const files = ctx.options.imageFiles;
  const given = files[image.index % Math.max(1, files.length)];
  if (given) {
    const kind = sniffImage(given.subarray(0, SNIFF_BYTES));
    return { bytes: given, type: kind ? IMAGE_MIME[kind] : 'application/octet-stream' };
  }
  const { prompt, width, height, index, variant } = image;
  const png = await ctx.images.get({
    prompt,
    width,
    height,
    index,
    variant,
    seed: ctx.options.seed,
  });
  return { bytes: png, type: 'image/png' };
}

/** A completed task's images in the answer itself, in the option's form (see the file comment). */
export async function inlineEntries(
  ctx: ServiceContext,
  task: StoredTask,
): Promise<({ url: string } | { b64_json: string })[]> {
  return Promise.all(
    task.images.map(async (image) => {
      const { bytes, type } = await storedImageBytes(ctx, image);
      const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
        'base64',
      );
      return ctx.options.inlineResults === 'b64-json'
        ? { b64_json: base64 }
        : { url: `data:${type};base64,${base64}` };
    }),
  );
}
