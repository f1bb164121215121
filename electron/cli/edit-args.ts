/**
 * `pictor edit` and `pictor upscale`'s command lines: the source (an image-ref of the library, as
 * the triage commands take it, or an image file), the prompt, the mask and references of an
 * edit, the factor of an upscale, how the inputs travel (--inputs), and the service as generate
 * names it (--provider, --base-url, SERVICE_API_KEY). Only the words are checked here: the files
 * are read, and the model's capabilities checked, before anything is sent (edit-command.ts).
 */
import {
  INPUT_ROUTES,
  MAX_REFERENCES,
  UPSCALE_FACTORS,
  type InputRoute,
  type UpscaleFactor,
} from '../../shared/domain/image-inputs';
import { REQUEST_LIMITS } from '../../shared/domain/limits';
import { UsageError, parseCommandLine } from '../core/command-line';
import { COMMON_OPTION_SCHEMAS, common, type CommonOptions } from './common-args';
import { serviceChoice, type ServiceChoice } from './service-args';

/** The options of edit and upscale together: each refuses the other's (see below). */
const OPTIONS = {
  prompt: { type: 'string' },
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  mask: { type: 'string' },
  ref: { type: 'string', multiple: true },
  factor: { type: 'string' },
  inputs: { type: 'string' },
  'allow-public-upload': { type: 'boolean' },
  ...COMMON_OPTION_SCHEMAS,
} as const;

const { factor, mask, ref, ...SHARED_OPTIONS } = OPTIONS;

/** Each command's own options, with their schemas. */
export const IMAGE_COMMAND_OPTIONS = {
  edit: { ...SHARED_OPTIONS, mask, ref },
  upscale: { ...SHARED_OPTIONS, factor },
} as const;

/** What edit and upscale share: the source, the service, the model, the way the inputs go. */
interface ImageCommandBase {
  /** The first argument: an image-ref (`ID`, `ID#N`) or an image file's path, as typed. */
  readonly source: string;
  readonly service: ServiceChoice;
  /** --model; absent: the first model of the provider that can do what is asked. */
  readonly model?: string;
  /** --inputs: inline, upload, never; default auto. */
  readonly route: InputRoute;
  /** --allow-public-upload: record the consent to public upload links for this service. */
  readonly allowPublicUpload: boolean;
  readonly common: CommonOptions;
}

export type ImageCommand =
  | (ImageCommandBase & {
      readonly name: 'edit';
      readonly prompt: string;
      /** --mask: a PNG file at the source's size. */
      readonly mask?: string;
      /** --ref, repeated: image-refs or files. */
      readonly references: readonly string[];
    })
  | (ImageCommandBase & {
      readonly name: 'upscale';
      readonly factor: UpscaleFactor;
      /** --prompt, for the upscalers that take one. */
      readonly prompt: string;
    });

/** The CLI's commands that take an image: their first word. */
type ImageCommandName = 'edit' | 'upscale';

type Values = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];

function routeOf(raw: string | undefined): InputRoute {
  if (raw === undefined) return 'auto';
  const route = raw.trim().toLowerCase();
  if ((INPUT_ROUTES as readonly string[]).includes(route)) return route as InputRoute;
  throw new UsageError(`--inputs takes one of: ${INPUT_ROUTES.join(', ')}.`);
}

function factorOf(raw: string | undefined): UpscaleFactor {
  const factor = UPSCALE_FACTORS.find((one) => String(one) === raw?.trim());
  if (factor !== undefined) return factor;
  throw new UsageError(`upscale needs --factor ${UPSCALE_FACTORS.join(' or --factor ')}.`);
}

function promptOf(raw: string | undefined, name: ImageCommandName): string {
  const prompt = raw?.trim() ?? '';
  if (prompt.length > REQUEST_LIMITS.prompt)
    throw new UsageError(`--prompt is longer than ${REQUEST_LIMITS.prompt} characters.`);
  if (prompt === '' && name === 'edit')
    throw new UsageError('edit needs --prompt TEXT: what to change, in quotes for the shell.');
  return prompt;
}

function filled(raw: string | undefined, option: string): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new UsageError(`${option} is empty.`);
  return raw;
}

function base(
  name: ImageCommandName,
  values: Values,
  positionals: readonly string[],
  env: NodeJS.ProcessEnv,
): ImageCommandBase {
  // Not repeated: a stray argument may be the key pasted in the wrong place.
  if (positionals.length !== 1)
    throw new UsageError(
      `${name} takes one image besides its options (an image-ref such as ID#1, or a PNG, JPEG or WebP file); there were ${positionals.length}.`,
    );
  const source = filled(positionals[0], 'The image') ?? '';
  const model = values.model?.trim();
  const service = serviceChoice(values, name);
  if (service.baseUrl === null && !service.builtInDemo)
    throw new UsageError(
      `${name} needs --base-url URL (the service address), or --provider ID of a service with its own address; --provider demo runs Pictor's built-in demo service.`,
    );
  return {
    source,
    service,
    ...(model ? { model } : {}),
    route: routeOf(values.inputs),
    allowPublicUpload: values['allow-public-upload'] ?? false,
    common: common(values, env),
  };
}

/** `edit …` or `upscale …` after its word. */
export function parseImageCommand(
  name: ImageCommandName,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): ImageCommand {
  const { values, positionals } = parseCommandLine(argv, OPTIONS, true);
  const shared = base(name, values, positionals, env);
  if (name === 'upscale') {
    if (values.mask !== undefined || values.ref !== undefined)
      throw new UsageError('upscale takes no --mask and no --ref: those are for edit.');
    const factor = factorOf(values.factor);
    return { name, ...shared, factor, prompt: promptOf(values.prompt, name) };
  }
  if (values.factor !== undefined)
    throw new UsageError('edit takes no --factor: that is for upscale.');
  const references = (values.ref ?? []).map((ref) => filled(ref, '--ref') ?? '');
  if (references.length > MAX_REFERENCES)
    throw new UsageError(`--ref may be given at most ${MAX_REFERENCES} times.`);
  const mask = filled(values.mask, '--mask');
  return {
    name,
    ...shared,
    prompt: promptOf(values.prompt, name),
    ...(mask === undefined ? {} : { mask }),
    references,
  };
}
