/**
 * Requests with input images for the profile tests: inputs by digest as the contract keeps them
 * (checked by the request schema, so a fixture the app could not make fails here), and the images
 * as each transport carries them (a bare base64 of a real PNG, its `data:` URI, a link).
 */
import type { ImageInputs, InputImage } from '../../../../../shared/domain/image-inputs';
import type { GenerationRequest } from '../../../../../shared/service/wire';
import { generationRequestSchema } from '../../../../../shared/service/wire';
import type { SentInputs } from '../../../../../electron/core/service/providers/provider-profile';
import { ServiceError } from '../../../../../electron/core/service/service-error';

/** A 1×1 PNG. */
export const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const PNG_DATA_URI = `data:image/png;base64,${PNG_BASE64}`;

/** An input image named by a digest made from `n`. */
export function image(n: number, width = 1024, height = 768): InputImage {
  return {
    sha256: n.toString(16).padStart(64, '0'),
    mime: 'image/png',
    width,
    height,
    bytes: 2048,
  };
}

/** The source every fixture edits: 1024×768. */
export const SOURCE = image(1);
/** Its mask, white on black, and the same mask as alpha. */
export const MASK = image(2);
export const MASK_ALPHA = image(3);

/** A request for `model` with `inputs` (the source given), checked by the request schema. */
export function request(
  model: string,
  inputs: Omit<ImageInputs, 'source'> & { source?: InputImage },
): GenerationRequest {
  return generationRequestSchema().parse({
    prompt: 'make the sky orange',
    model,
    size: '1024x1024',
    inputs: { source: SOURCE, ...inputs },
  });
}

/** Images as a transport carries them: `source`, an optional mask, `references` references. */
export function sent(
  form: 'base64' | 'data' | 'link' | 'oss',
  options: { mask?: boolean; references?: number } = {},
): SentInputs {
  const one = (name: string): string => {
    // The source is a real PNG; the other images are told apart by their text.
    const base64 = name === 'source' ? PNG_BASE64 : Buffer.from(`png:${name}`).toString('base64');
    if (form === 'base64') return base64;
    if (form === 'data') return `data:image/png;base64,${base64}`;
    if (form === 'oss') return `oss://dashscope-instant/acct/2026-11-27/${name}.png`;
    return `https://v3.fal.media/files/${name}.png`;
  };
  return {
    source: one('source'),
    ...(options.mask ? { mask: one('mask') } : {}),
    references: Array.from({ length: options.references ?? 0 }, (_, i) => one(`ref-${i + 1}`)),
  };
}

/** The ServiceError `build` refuses with; fails when it builds a request instead. */
export function refusalOf(build: () => unknown): ServiceError {
  try {
    build();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('The request was built, not refused.');
}
