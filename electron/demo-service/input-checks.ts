/**
 * Checks a task's image inputs against the model's row of the capability table
 * (shared/domain/model-capabilities.ts: the demo's limits are the table's) and plans its answer:
 * the output's size and, for a PNG source, its pixels (input-pixels.ts). JPEG and WebP sources get
 * a drawn scene of the output's size instead, as any text-to-image task does.
 */
import type { ModelCapabilities } from '../../shared/domain/model-capabilities';
import type { ImageOperation } from '../../shared/domain/image-inputs';
import { checkHeaderOfBytes, SNIFF_BYTES, sniffImage } from '../core/images';
import { resolveImage, type LinkRules } from './input-links';
import type { Margins, MaskReading } from './input-pixels';
import { expanded, filled, greyLike, tinted, upscaled } from './input-pixels';
import { inputProblem, isInputProblem, type InputProblem } from './input-problem';
import { PngUnsupportedError, decodePng, encodePng, type Pixels } from './png-codec';
import type { ServiceContext } from './service-context';

/** The largest answer the demo draws, in pixels (4096 × 4096). */
const MAX_OUTPUT_PIXELS = 4096 * 4096;
const MB = 1024 * 1024;
/** The largest body a request that carries images may have (20 MB images, base64, several). */
export const INPUT_BODY_BYTES = 48 * MB;

/**
 * The word that has a task's input image refused by the moderation, when its prompt names it
 * (whole word, any case), as "moderate" has its output refused (dialects/dialect.ts).
 */
const INPUT_MODERATION_WORD = /\bflagged\b/i;

/** Whether a prompt has the input image refused by the moderation. */
export function inputFlagged(prompt: string): boolean {
  return INPUT_MODERATION_WORD.test(prompt);
}

/** An image field of a request: its name (for messages) and its value as sent. */
export interface ImageField {
  readonly field: string;
  readonly value: unknown;
}

/** What a request asks of the model, in the dialect-free words of this module. */
export interface InputAsk {
  readonly operation: ImageOperation;
  readonly capabilities: ModelCapabilities;
  readonly source: ImageField;
  readonly mask?: ImageField;
  readonly references: readonly ImageField[];
  readonly factor?: number;
  /** Outpaint: the margins, or how to get them from the source's size. */
  readonly margins?: Margins | ((width: number, height: number) => Margins);
  /** The safety tolerance asked for, as a number. */
  readonly safety?: number;
}

/** What the task answers: its size, and its PNG when derived from the source's pixels. */
export interface InputPlan {
  readonly width: number;
  readonly height: number;
  readonly png?: Buffer;
}

interface Checked {
  bytes: Buffer;
  kind: 'png' | 'jpeg' | 'webp';
  width: number;
  height: number;
}

/** Resolves one image and checks its format, bytes and sides. */
async function checked(
  ctx: ServiceContext,
  image: ImageField,
  caps: ModelCapabilities,
  rules: LinkRules,
): Promise<Checked | InputProblem> {
  const bytes = await resolveImage(ctx, image.field, image.value, rules);
  if (isInputProblem(bytes)) return bytes;
  const { field } = image;
  if (bytes.length > caps.maxBytes) {
    const limit = `${Math.round((caps.maxBytes / MB) * 100) / 100} MB`;
    return inputProblem('too-large', field, `The ${field} is larger than ${limit}.`);
  }
  const kind = sniffImage(bytes.subarray(0, SNIFF_BYTES));
  const header = kind ? await checkHeaderOfBytes(bytes, kind, Number.MAX_SAFE_INTEGER) : null;
  if (!kind || !header?.ok) {
    return inputProblem('format', field, `The ${field} is not a PNG, JPEG or WebP image.`);
  }
  const { width, height } = header.header;
  if (width > caps.maxSide || height > caps.maxSide) {
    return inputProblem(
      'too-wide',
      field,
      `The ${field} is ${width}×${height}: at most ${caps.maxSide} pixels a side.`,
    );
  }
  return { bytes, kind, width, height };
}

function decoded(image: Checked, field: string): Pixels | null | InputProblem {
  if (image.kind !== 'png') return null;
  try {
    return decodePng(image.bytes, MAX_OUTPUT_PIXELS);
  } catch (error) {
    if (error instanceof PngUnsupportedError) return null;
    return inputProblem('format', field, `The ${field} is a damaged PNG.`);
  }
}

/** The mask's pixels, refused unless it is a PNG of the source's size in the model's convention. */
async function maskOf(ctx: ServiceContext, ask: InputAsk, source: Checked, rules: LinkRules) {
  if (!ask.mask) return undefined;
  const { field } = ask.mask;
  const mask = await checked(ctx, ask.mask, ask.capabilities, rules);
  if (isInputProblem(mask)) return mask;
  if (mask.width !== source.width || mask.height !== source.height) {
    return inputProblem(
      'mask-size',
      field,
      `The ${field} is ${mask.width}×${mask.height}, not the image's ${source.width}×${source.height}.`,
    );
  }
  const pixels = mask.kind === 'png' ? decoded(mask, field) : null;
  if (pixels === null)
    return inputProblem('mask-kind', field, `The ${field} must be an 8-bit PNG.`);
  if (isInputProblem(pixels)) return pixels;
  const reading: MaskReading = ask.capabilities.mask ?? 'white-edit';
  if (reading === 'white-edit' && !greyLike(pixels)) {
    return inputProblem(
      'mask-kind',
      field,
      `The ${field} must be white on black (greyscale): white marks what is edited.`,
    );
  }
  if (reading === 'alpha-edit' && !pixels.hasAlpha) {
    return inputProblem(
      'mask-kind',
      field,
      `The ${field} must have an alpha channel: transparent marks what is edited.`,
    );
  }
  return pixels;
}

function outputSize(ask: InputAsk, width: number, height: number): Margins | number | undefined {
  if (ask.operation === 'upscale') return ask.factor ?? 2;
  if (ask.operation !== 'outpaint') return undefined;
  const margins = typeof ask.margins === 'function' ? ask.margins(width, height) : ask.margins;
  return margins ?? { top: 0, right: 0, bottom: 0, left: 0 };
}

function derived(
  ask: InputAsk,
  source: Pixels,
  mask: Pixels | undefined,
  size: Margins | number | undefined,
) {
  if (typeof size === 'number') return upscaled(source, size);
  if (size) return expanded(source, size);
  if (mask) return filled(source, mask, ask.capabilities.mask ?? 'white-edit');
  return tinted(source);
}

/** Checks limits before any image is read: references and safety. */
function precheck(ask: InputAsk): InputProblem | undefined {
  const { capabilities: caps } = ask;
  if (ask.references.length > caps.references) {
    const field = ask.references[caps.references]?.field ?? 'references';
    return inputProblem(
      'references',
      field,
      `This model takes at most ${caps.references} reference images.`,
    );
  }
  const max = caps.maxSafetyWithInput;
  if (max !== undefined && ask.safety !== undefined && ask.safety > max) {
    return inputProblem(
      'safety',
      'safety_tolerance',
      `The safety_tolerance must be at most ${max} with an input image.`,
    );
  }
  return undefined;
}

/** The task's answer, or why its inputs are refused (see the file comment). */
export async function planInputs(
  ctx: ServiceContext,
  ask: InputAsk,
  rules: LinkRules,
): Promise<InputPlan | InputProblem> {
  const early = precheck(ask);
  if (early) return early;
  const source = await checked(ctx, ask.source, ask.capabilities, rules);
  if (isInputProblem(source)) return source;
  for (const reference of ask.references) {
    const found = await checked(ctx, reference, ask.capabilities, rules);
    if (isInputProblem(found)) return found;
  }
  const mask = await maskOf(ctx, ask, source, rules);
  if (isInputProblem(mask)) return mask;
  const size = outputSize(ask, source.width, source.height);
  const width =
    typeof size === 'number'
      ? source.width * size
      : source.width + (size ? size.left + size.right : 0);
  const height =
    typeof size === 'number'
      ? source.height * size
      : source.height + (size ? size.top + size.bottom : 0);
  if (width * height > MAX_OUTPUT_PIXELS) {
    return inputProblem(
      'output-too-large',
      ask.source.field,
      `The answer would be ${width}×${height}: the demo draws at most 4096×4096 pixels.`,
    );
  }
  const pixels = decoded(source, ask.source.field);
  if (isInputProblem(pixels)) return pixels;
  if (!pixels) return { width, height };
  return { width, height, png: encodePng(derived(ask, pixels, mask, size)) };
}
