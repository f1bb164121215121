/** The CLI's commands and options, parsed and checked before anything touches the network or disk. */
import { isAbsolute, resolve } from 'node:path';
import { TASKS_PER_ENGINE_SUBMIT, isWholeNumberIn } from '../../shared/domain/limits';
import {
  DEFAULT_PROVIDER,
  PROVIDERS,
  PROVIDER_IDS,
  parseProviderId,
  type ProviderId,
} from '../../shared/domain/providers';
import { englishText } from '../../shared/i18n/sentence';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { UsageError, parseCommandLine } from '../core/command-line/command-line';
import { defaultDataDir, defaultGalleryDir } from '../core/default-paths';
import { taskAddressProblem } from '../core/service/providers/task-address';
import { parseCancel, type CancelCommand } from './cancel-args';
import { COST_OPTIONS, parseCostCommand, type CostCommand } from './cost-args';
import {
  COMMAND_NAMES,
  COUNT_RANGE,
  DEFAULT_TIMEOUT_SECONDS,
  isCommandName,
  type CommandName,
} from './cli-help';

export { helpText } from './cli-help';

export interface CommonOptions {
  readonly dataDir: string;
  readonly galleryDir: string;
  readonly json: boolean;
  readonly verbose: boolean;
  /** Watch timeout in ms; `null` never stops watching. */
  readonly timeoutMs: number | null;
  readonly pollIntervalMs: number;
}

/**
 * The service a command talks to: its kind (--provider) and its address. `baseUrl` is --base-url
 * when given, else the provider's documented address (`null` for today's contract, which has
 * none: the key then goes nowhere).
 */
export interface ServiceChoice {
  readonly provider: ProviderId;
  readonly baseUrl: string | null;
  /** The user typed --base-url: printed commands repeat it (an address Pictor chose is not). */
  readonly baseUrlTyped: boolean;
}

export type Command =
  /** `topic`: the command whose help was asked for (`pictor generate --help`, `pictor help list`). */
  | { readonly name: 'help'; readonly topic?: CommandName }
  | {
      readonly name: 'generate';
      readonly service: ServiceChoice & { readonly baseUrl: string };
      readonly prompt: string;
      readonly model?: string;
      readonly size?: string;
      readonly quality?: string;
      readonly count: number;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'resume';
      readonly target: string | 'all';
      /** The service SERVICE_API_KEY is for; tasks on any other service wait, and say why. */
      readonly service: ServiceChoice;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'track';
      readonly taskId: string;
      readonly service: ServiceChoice & { readonly baseUrl: string };
      readonly prompt?: string;
      /** The model the task was made with (--model): fal finds a request under its model only. */
      readonly model?: string;
      readonly common: CommonOptions;
    }
  | {
      readonly name: 'list';
      /** Only tasks of this provider (--provider); null: every task. */
      readonly provider: ProviderId | null;
      readonly common: CommonOptions;
    }
  | { readonly name: 'rebuild'; readonly common: CommonOptions }
  | {
      readonly name: 'export';
      /** The archive to write (absolute); an existing file is never replaced. */
      readonly file: string;
      /** Only these tasks (local ids); empty: the whole library. */
      readonly taskIds: readonly string[];
      readonly common: CommonOptions;
    }
  | { readonly name: 'import'; readonly source: string; readonly common: CommonOptions }
  /** Checks this installation in a temporary folder; touches no library. */
  | { readonly name: 'self-test' }
  /** What one image file says about itself: provenance and Content Credentials. */
  | { readonly name: 'info'; readonly file: string; readonly json: boolean }
  /** The cost ledger, spending caps and prices (cost-args.ts). */
  | CostCommand
  /** Asks the services to cancel tasks (cancel-args.ts). */
  | CancelCommand;

const OPTIONS = {
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  prompt: { type: 'string' },
  model: { type: 'string' },
  size: { type: 'string' },
  quality: { type: 'string' },
  count: { type: 'string' },
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  timeout: { type: 'string' },
  'poll-interval': { type: 'string' },
  all: { type: 'boolean' },
  task: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  ...COST_OPTIONS,
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: readonly string[]) {
  return parseCommandLine(argv, OPTIONS, true);
}

function seconds(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError(`--${name} takes a number of seconds greater than 0.`);
  return value;
}

function common(values: Values, env: NodeJS.ProcessEnv): CommonOptions {
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir(env);
  const galleryDir = values['gallery-dir']
    ? resolve(values['gallery-dir'])
    : values['data-dir']
      ? resolve(dataDir, 'gallery')
      : defaultGalleryDir(env);
  if (!isAbsolute(galleryDir)) throw new UsageError('--gallery-dir must be a folder path.');
  return {
    dataDir,
    galleryDir,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
    timeoutMs: seconds(values.timeout, 'timeout', DEFAULT_TIMEOUT_SECONDS) * 1_000,
    pollIntervalMs: Math.round(seconds(values['poll-interval'], 'poll-interval', 3) * 1_000),
  };
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(message);
  return value;
}

/** --provider's value: one of the ids, else a usage error that lists them. */
function providerOption(raw: string | undefined): ProviderId | null {
  if (raw === undefined) return null;
  const provider = parseProviderId(raw.trim());
  // Not repeated: a stray value may be the key pasted in the wrong place.
  if (provider === null)
    throw new UsageError(`--provider takes one of: ${PROVIDER_IDS.join(', ')}.`);
  return provider;
}

/**
 * The service of generate, track and resume: --provider (default today's contract) and
 * --base-url, or the provider's own address when --base-url is not given.
 */
function serviceChoice(values: Values): ServiceChoice {
  const provider = providerOption(values.provider) ?? DEFAULT_PROVIDER;
  const typed = values['base-url']?.trim() || null;
  return {
    provider,
    baseUrl: typed ?? PROVIDERS[provider].defaultBaseUrl,
    baseUrlTyped: typed !== null,
  };
}

/** A service with an address, for the commands that must reach one. */
function reachableService(
  values: Values,
  message: string,
): ServiceChoice & { readonly baseUrl: string } {
  const service = serviceChoice(values);
  const { baseUrl } = service;
  if (baseUrl === null) throw new UsageError(message);
  return { ...service, baseUrl };
}

function parseGenerate(values: Values, env: NodeJS.ProcessEnv): Command & { name: 'generate' } {
  const size = values.size?.trim();
  if (size !== undefined && !SIZE_PATTERN.test(size)) {
    throw new UsageError('--size must look like 1024x1024 (two whole numbers).');
  }
  const count = values.count === undefined ? 1 : Number(values.count);
  if (!isWholeNumberIn(TASKS_PER_ENGINE_SUBMIT, count))
    throw new UsageError(`--count takes a whole number from ${COUNT_RANGE}.`);
  const service = reachableService(
    values,
    'generate needs --base-url URL (the service address), or --provider ID of a service with its own address.',
  );
  // Named in the request, not left to the profile: the record keeps the model it asked for (a
  // fal task's address is found from it), whatever a later default becomes.
  const model = values.model?.trim() || PROVIDERS[service.provider].defaultModel;
  return {
    name: 'generate',
    service,
    prompt: required(values.prompt, 'generate needs --prompt TEXT.'),
    ...(model ? { model } : {}),
    ...(size ? { size } : {}),
    ...(values.quality ? { quality: values.quality } : {}),
    count,
    common: common(values, env),
  };
}

/**
 * --model of track: never the provider's default (a guess at where a task lives is no address),
 * checked as the address of the task is built from it.
 */
function trackModel(values: Values, provider: ProviderId): string | undefined {
  const model = values.model?.trim() || undefined;
  const problem = taskAddressProblem(provider, { prompt: 'track', ...(model ? { model } : {}) });
  if (problem === null) return model;
  const { label, defaultModel } = PROVIDERS[provider];
  // Not repeated: a stray value may be the key pasted in the wrong place.
  if (problem.key === 'error.service.taskNeedsModel') {
    throw new UsageError(
      `track --provider ${provider} needs --model M, the model the task was made with: ${englishText(problem)} (A model looks like ${defaultModel ?? 'owner/name'}.)`,
    );
  }
  throw new UsageError(
    `--model is not a model id ${label} takes: parts of letters, digits, ".", "_" and "-", separated by "/" (such as ${defaultModel ?? 'owner/name'}).`,
  );
}

function parseTrack(
  values: Values,
  taskId: string | undefined,
  env: NodeJS.ProcessEnv,
): Command & { name: 'track' } {
  const id = required(taskId, 'track needs the task id to follow.');
  const service = reachableService(
    values,
    'track needs --base-url URL (the service the task lives on), or --provider ID of a service with its own address.',
  );
  const model = trackModel(values, service.provider);
  return {
    name: 'track',
    taskId: id,
    service,
    ...(values.prompt ? { prompt: values.prompt } : {}),
    ...(model ? { model } : {}),
    common: common(values, env),
  };
}

/** What a cost command takes from the common options: the library, and --provider checked. */
function costContext(values: Values, env: NodeJS.ProcessEnv) {
  return { dataDir: common(values, env).dataDir, provider: providerOption(values.provider) };
}

function parseExport(
  values: Values,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Command & { name: 'export' } {
  return {
    name: 'export',
    file: resolve(
      required(file, 'export needs the archive file to write, as in export library.zip.'),
    ),
    taskIds: (values.task ?? []).map((id) => required(id, '--task needs a task id.')),
    common: common(values, env),
  };
}

function parseImport(
  values: Values,
  source: string | undefined,
  env: NodeJS.ProcessEnv,
): Command & { name: 'import' } {
  return {
    name: 'import',
    source: resolve(required(source, 'import needs the archive or folder to import.')),
    common: common(values, env),
  };
}

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Command {
  const { values, positionals } = parse(argv);
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') {
    const topic = name === 'help' ? rest[0] : name;
    return isCommandName(topic) ? { name: 'help', topic } : { name: 'help' };
  }
  const extra = (allowed: number): void => {
    // Not repeated: a stray argument may be the key pasted in the wrong place.
    if (rest.length > allowed) {
      throw new UsageError(
        `${name} takes ${allowed === 0 ? 'no argument' : 'one argument'} besides its options; there were ${rest.length}.`,
      );
    }
  };
  switch (name) {
    case 'generate':
      extra(0);
      return parseGenerate(values, env);
    case 'resume': {
      extra(1);
      const target = values.all ? 'all' : required(rest[0], 'resume needs a task id, or --all.');
      return { name, target, service: serviceChoice(values), common: common(values, env) };
    }
    case 'track':
      extra(1);
      return parseTrack(values, rest[0], env);
    case 'cancel':
      return parseCancel(rest, serviceChoice(values), common(values, env));
    case 'list':
      extra(0);
      return { name, provider: providerOption(values.provider), common: common(values, env) };
    case 'rebuild':
      extra(0);
      return { name, common: common(values, env) };
    case 'export':
      extra(1);
      return parseExport(values, rest[0], env);
    case 'self-test':
      extra(0);
      return { name };
    case 'import':
      extra(1);
      return parseImport(values, rest[0], env);
    case 'costs':
    case 'caps':
    case 'prices':
      return parseCostCommand({ name, rest, values, ...costContext(values, env) });
    case 'info':
      extra(1);
      return {
        name,
        file: resolve(required(rest[0], 'info needs the image file to describe.')),
        json: values.json ?? false,
      };
    default:
      throw new UsageError(`Unknown command "${name}". Commands: ${COMMAND_NAMES.join(', ')}.`);
  }
}
