/**
 * `pictor models [--capabilities] [--provider ID] [--json]`: the models Pictor knows, by
 * provider: the ones offered for text to image, and those that take images
 * (shared/domain/model-capabilities.ts). With --capabilities, what each image model does: its
 * operations, how many images and references it takes, the mask convention it reads, its
 * upscale factors, its size limits, and how its inputs travel (inline up to a size, or the
 * service's upload, whether that makes a public link and how long it lasts). Reads no library,
 * sends nothing.
 */
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import {
  MODEL_CAPABILITIES,
  type InputTransport,
  type ModelCapabilities,
} from '../../shared/domain/model-capabilities';
import { SHIPPED_PARAM_SCHEMAS } from '../../shared/domain/model-param-schemas';
import { orderedParams, type ParamSchema } from '../../shared/domain/model-params';
import { UsageError, parseCommandLine } from '../core/command-line';
import { showModel, type KeptSchemas } from './models-show';
import { importSchema, openedBook, refreshModel } from './models-schemas';
import type { CliIo } from './cli-io';
import { common } from './common-args';
import { resolve } from 'node:path';
import { EXIT } from './cli-report';
import { providerOption } from './service-args';
import { declareCommand } from './command-declaration';
import { commandHelp } from './command-help';

export interface ModelsCommand {
  readonly name: 'models';
  /** `models show MODEL`: that model's options; null: the list. */
  readonly show: string | null;
  readonly capabilities: boolean;
  /** --provider: only its models; null: every provider's. */
  readonly provider: ProviderId | null;
  readonly json: boolean;
  /** show --refresh: the model's options fetched from its service first (--base-url: where). */
  readonly refresh: { readonly baseUrl: string | null } | null;
  /** `models import-schema FILE --model M`: the file (an absolute path). */
  readonly importFile: string | null;
  readonly model: string | null;
  /** The library whose book of model options is read and written. */
  readonly dataDir: string;
}

const MODELS_OPTIONS = {
  capabilities: { type: 'boolean' },
  provider: { type: 'string' },
  json: { type: 'boolean' },
  refresh: { type: 'boolean' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
} as const;

/** `models …` after the word `models`. */
function parseModels(argv: readonly string[], env: NodeJS.ProcessEnv): ModelsCommand {
  const { values, positionals } = parseCommandLine(argv, MODELS_OPTIONS, true);
  const [verb, word, ...rest] = positionals;
  const show = verb === 'show' && word !== undefined && rest.length === 0 ? word : null;
  const importFile =
    verb === 'import-schema' && word !== undefined && rest.length === 0 ? word : null;
  if (positionals.length > 0 && show === null && importFile === null)
    throw new UsageError(
      'models takes no argument besides its options, show MODEL (pictor models show fal-ai/flux/dev) or import-schema FILE --model M.',
    );
  if (importFile !== null && !values.model?.trim())
    throw new UsageError('models import-schema needs --model: the model the options are for.');
  if (values.refresh && show === null)
    throw new UsageError('--refresh goes with models show MODEL.');
  return {
    refresh: values.refresh ? { baseUrl: values['base-url']?.trim() || null } : null,
    importFile: importFile === null ? null : resolve(importFile),
    model: values.model?.trim() || null,
    dataDir: common({ 'data-dir': values['data-dir'] }, env).dataDir,
    name: 'models',
    show,
    capabilities: values.capabilities ?? false,
    provider: providerOption(values.provider, 'models'),
    json: values.json ?? false,
  };
}

/** One model as `models` lists it. */
interface ModelRow {
  readonly provider: ProviderId;
  readonly model: string;
  /** Offered for text to image (the compose form's list). */
  readonly textToImage: boolean;
  readonly default: boolean;
  /** What it does with images; null: it takes none. */
  readonly capabilities: ModelCapabilities | null;
  /** The options it has (its shipped schema's names); `models show` says more. */
  readonly options: readonly string[];
}

function rowsOf(provider: ProviderId): ModelRow[] {
  const { models, defaultModel } = PROVIDERS[provider];
  const table = MODEL_CAPABILITIES[provider];
  const schemas = SHIPPED_PARAM_SCHEMAS[provider];
  const names = [...new Set([...models, ...Object.keys(table), ...Object.keys(schemas)])];
  return names.map((model) => ({
    provider,
    model,
    textToImage: models.includes(model),
    default: model === defaultModel,
    capabilities: Object.hasOwn(table, model) ? (table[model] ?? null) : null,
    options: Object.hasOwn(schemas, model) ? orderedParams(schemas[model] as ParamSchema) : [],
  }));
}

const MB = 1024 * 1024;

/** A size as people read it: `256 KB`, `10 MB`. */
function sizeText(bytes: number): string {
  return bytes >= MB
    ? `${Math.round((bytes / MB) * 10) / 10} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

function lifetimeText(ms: number | null): string {
  return ms === null ? 'kept as long as the service keeps it' : `usable for ${ms / 3_600_000} h`;
}

/** How one transport reads in the listing. */
function transportText(transport: InputTransport): string {
  switch (transport.kind) {
    case 'inline-base64':
      return `inline base64 in the request, up to ${sizeText(transport.maxBytes)}`;
    case 'data-uri':
      return `inline data: URI in the request, up to ${sizeText(transport.maxBytes)}`;
    case 'url':
      return 'a public link you give';
    case 'upload': {
      const links = transport.publicLinks
        ? 'public links: anyone with the link can see the image (asked once: --allow-public-upload)'
        : 'private links';
      return `the service's upload (${transport.endpoint}), ${links}, ${lifetimeText(transport.lifetimeMs)}`;
    }
  }
}

/** The lines of one image model's capabilities. */
function capabilityLines(c: ModelCapabilities): string[] {
  const mask =
    c.mask === undefined
      ? 'takes no mask'
      : c.mask === 'white-edit'
        ? 'mask white-edit (grayscale PNG, white = edit)'
        : 'mask alpha-edit (RGBA PNG, alpha 0 = edit)';
  const upscale = c.upscale.length > 0 ? `; upscale ×${c.upscale.join(', ×')}` : '';
  const safety =
    c.maxSafetyWithInput === undefined
      ? ''
      : `; safety tolerance ≤ ${c.maxSafetyWithInput} with an image`;
  return [
    `    operations: ${c.operations.join(', ')}; images ${c.image}; references up to ${c.references}; ${mask}${upscale}`,
    `    inputs up to ${sizeText(c.maxBytes)} and ${c.maxSide} pixels a side${safety}`,
    ...c.transports.map((transport, n) => `    input way ${n + 1}: ${transportText(transport)}`),
  ];
}

function textOf(row: ModelRow, detailed: boolean): string {
  const kinds = [
    ...(row.textToImage ? ['text to image'] : []),
    ...(row.capabilities ? [row.capabilities.operations.join('/')] : []),
  ];
  const options = row.options.length > 0 ? `; options: ${row.options.join(', ')}` : '';
  const head = `${row.provider.padEnd(10)} ${row.model}${row.default ? ' (default)' : ''}  ${kinds.join('; ')}${options}`;
  if (!detailed || row.capabilities === null) return `${head}\n`;
  return `${[head, ...capabilityLines(row.capabilities)].join('\n')}\n`;
}

/** Shows one model's options (fetched first with --refresh), or keeps a file's. */
async function modelSchemas(command: ModelsCommand, io: CliIo): Promise<number> {
  const book = await openedBook(command.dataDir);
  const kept: KeptSchemas = (provider, model) => book.lookup(provider, model);
  if (command.importFile !== null) {
    const where = { provider: command.provider ?? 'pictor', model: command.model ?? '' };
    return importSchema(book, { ...where, file: command.importFile }, io);
  }
  const model = command.show ?? '';
  let refreshed = true;
  if (command.refresh) {
    const provider = command.provider ?? shippedProviderOf(model);
    refreshed = await refreshModel(book, { provider, model, ...command.refresh }, io);
  }
  const shown = showModel(
    { model, provider: command.provider, json: command.json },
    io.stdout,
    kept,
  );
  return refreshed ? shown : EXIT.failed;
}

/** The one provider that ships `model`'s options (--refresh without --provider). */
function shippedProviderOf(model: string): ProviderId {
  const [only, ...more] = PROVIDER_IDS.filter((id) =>
    Object.hasOwn(SHIPPED_PARAM_SCHEMAS[id], model),
  );
  if (only === undefined || more.length > 0)
    throw new UsageError('--refresh needs --provider: the service that publishes the model.');
  return only;
}

/** Prints the models (only those that take images with --capabilities); --json: one object each. */
function modelsCommand(command: ModelsCommand, io: CliIo): number | Promise<number> {
  if (command.show !== null || command.importFile !== null) return modelSchemas(command, io);
  const { stdout } = io;
  const providers = command.provider === null ? PROVIDER_IDS : [command.provider];
  const rows = providers
    .flatMap(rowsOf)
    .filter((row) => !command.capabilities || row.capabilities !== null);
  for (const row of rows) {
    stdout(command.json ? `${JSON.stringify(row)}\n` : textOf(row, command.capabilities));
  }
  return EXIT.ok;
}

export const models = declareCommand({
  options: MODELS_OPTIONS,
  help: commandHelp(
    `models [--capabilities] [--provider ID] [--json]
                                  the models Pictor knows, by provider, with their options;
                                  models show MODEL [--provider ID] [--refresh [--base-url URL]]:
                                  the model's options, their types, ranges and defaults
                                  (--refresh: fetched first from where the service publishes
                                  them, fal and Replicate; kept for offline use); models
                                  import-schema FILE --model M [--provider ID]: keeps the options
                                  of a JSON schema file for a service that publishes none;
                                  --capabilities: only
                                  those that take images, with their operations, image and
                                  reference counts, mask convention, upscale factors, limits,
                                  and how inputs travel (inline up to a size, or an upload:
                                  public links or not, how long they last)`,
    ['providers', 'library'],
  ),
  parse: parseModels,
  run: (command: ModelsCommand, io) => modelsCommand(command, io),
});
