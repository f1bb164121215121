/** The CLI's commands and options, parsed and checked before anything touches the network or disk. */
import { isTriageName, listTriage, parseTriageCommand, TRIAGE_OPTIONS } from './triage-args';
import { resolve } from 'node:path';
import { common, type CommonOptions } from './common-args';
import { TASKS_PER_ENGINE_SUBMIT, isWholeNumberIn } from '../../shared/domain/limits';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { listTemplate } from './list-command';
import { checkBoardPath } from '../../shared/domain/triage';
import { englishText } from '../../shared/i18n/sentence';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { parseCommandLine, unknownCommandMessage, UsageError } from '../core/command-line';
import { taskAddressProblem } from '../core/service';
import { parseCancel } from './cancel-args';
import { SAMPLE_PROMPT } from './demo-choice';
import { promptOf } from './prompt-args';
import {
  demoService,
  generateService,
  listProvider,
  listedService,
  reachableService,
  serviceChoice,
  serviceOption,
} from './service-args';
import { COST_OPTIONS, parseCostCommand } from './cost-args';
import * as templates from './template-args';
import { TEMPLATE_RUN_OPTIONS, templateRunOf } from './template-run-args';
import { compareGroupOption } from './compare-args';
import { COMMAND_NAMES, COUNT_RANGE, isCommandName } from './cli-help';

export { helpText } from './cli-help';

export type { CommonOptions } from './common-args';

export type { ServiceChoice } from './service-args';

export type { Command } from './cli-command';
import type { Command } from './cli-command';

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
  template: { type: 'string' },
  all: { type: 'boolean' },
  task: { type: 'string', multiple: true },
  json: { type: 'boolean' },
  compare: { type: 'string' },
  ...COST_OPTIONS,
  ...TRIAGE_OPTIONS,
  ...templates.TEMPLATE_OPTIONS,
  ...TEMPLATE_RUN_OPTIONS,
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(argv: readonly string[]) {
  return parseCommandLine(argv, OPTIONS, true);
}

function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(message);
  return value;
}

/** What generate (and demo) send: --size, --count, --quality and --board checked. */
function requestOptions(values: Values) {
  const size = values.size?.trim();
  if (size !== undefined && !SIZE_PATTERN.test(size)) {
    throw new UsageError('--size must look like 1024x1024 (two whole numbers).');
  }
  const count = values.count === undefined ? 1 : Number(values.count);
  if (!isWholeNumberIn(TASKS_PER_ENGINE_SUBMIT, count))
    throw new UsageError(`--count takes a whole number from ${COUNT_RANGE}.`);
  return {
    ...(size ? { size } : {}),
    ...(values.quality ? { quality: values.quality } : {}),
    count,
    ...intoBoard(values.board),
  };
}

/**
 * --board PATH: the board the images join ("Generate into"), checked here as the core checks
 * it (a board the library lacks is made when the tasks are submitted).
 * @throws UsageError with the rule's sentence.
 */
function intoBoard(raw: string | undefined): { board?: string } {
  if (raw === undefined) return {};
  const checked = checkBoardPath(raw);
  if (!checked.ok) throw new UsageError(englishText(checked.problem));
  return { board: checked.path };
}

/** `generate [PROMPT] [options]`, and `demo [PROMPT] [options]` (generate on the built-in demo). */
function parseGenerate(
  values: Values,
  words: readonly string[],
  env: NodeJS.ProcessEnv,
  command: 'generate' | 'demo',
): Command & { name: 'generate' } {
  const request = requestOptions(values);
  const { service, target } = command === 'demo' ? demoService(values) : generateService(values);
  const prompt = promptOf({ command, option: values.prompt, words, env });
  const template = command === 'generate' ? templateRunOf(values) : null;
  if (prompt === null && command === 'generate' && template === null) {
    throw new UsageError(
      'generate needs a prompt: the words after generate, in quotes (generate "a lighthouse at dusk"), or --prompt TEXT.',
    );
  }
  // Named in the request, not left to the profile: the record keeps the model it asked for (a
  // fal task's address is found from it), whatever a later default becomes.
  const model = values.model?.trim() || PROVIDERS[service.provider].defaultModel;
  return {
    name: 'generate',
    service,
    target,
    ...(command === 'demo' ? { explain: { samplePrompt: prompt === null } } : {}),
    prompt: prompt ?? (template ? '' : SAMPLE_PROMPT),
    ...(template ? { template } : {}),
    ...(model ? { model } : {}),
    ...request,
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
    'track',
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
function costContext(values: Values, env: NodeJS.ProcessEnv, command: string) {
  return {
    dataDir: common(values, env).dataDir,
    provider: serviceOption(values.provider, command),
  };
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

function parseList(values: Values, env: NodeJS.ProcessEnv): Command & { name: 'list' } {
  return {
    name: 'list',
    provider: listProvider(values.provider),
    triage: listTriage(values),
    smart: values.smart ?? null,
    compareGroup: compareGroupOption(values.compare),
    template: listTemplate(values.template),
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
    case 'demo':
      return parseGenerate(values, rest, env, name);
    case 'resume':
      extra(1);
      return parseResume(values, rest[0], env);
    case 'track':
      extra(1);
      return parseTrack(values, rest[0], env);
    case 'cancel':
      return parseCancel(rest, serviceChoice(values, name), common(values, env));
    case 'list':
      extra(0);
      return parseList(values, env);
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
      return parseCostCommand({ name, rest, values, ...costContext(values, env, name) });
    case 'info':
      extra(1);
      return {
        name,
        file: resolve(required(rest[0], 'info needs the image file to describe.')),
        json: values.json ?? false,
        dataDir: common(values, env).dataDir,
      };
    default:
      return parseOther(name, rest, values, common(values, env));
  }
}

/** `resume ID|--all [--provider P]`: with --provider, only that service's tasks (demo: the demo's). */
function parseResume(values: Values, id: string | undefined, env: NodeJS.ProcessEnv): Command {
  const target = values.all ? 'all' : required(id, 'resume needs a task id, or --all.');
  const service = serviceChoice(values, 'resume');
  const only = values.provider === undefined ? null : listedService(service);
  return { name: 'resume', target, service, only, common: common(values, env) };
}

// Triage and templates: parsed by their own files.
function parseOther(name: string, rest: string[], values: Values, shared: CommonOptions): Command {
  if (name === 'template') return templates.parseTemplateCommand(rest, values, shared);
  if (isTriageName(name)) return { ...parseTriageCommand(name, rest, values), common: shared };
  throw new UsageError(unknownCommandMessage(name, COMMAND_NAMES));
}
