/**
 * `generate [PROMPT] [options]` and `demo [PROMPT] [options]` (generate on the built-in demo):
 * submit the prompt (--count tasks), watch them, save the images.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { TaskRecord } from '../../shared/domain/task-record';
import { TASKS_PER_ENGINE_SUBMIT, isWholeNumberIn } from '../../shared/domain/limits';
import { PROVIDERS } from '../../shared/domain/providers';
import { checkBoardPath } from '../../shared/domain/triage';
import { englishText } from '../../shared/i18n/sentence';
import { SIZE_PATTERN } from '../../shared/service/wire';
import { UsageError } from '../core/command-line';
import { SpendingCapError } from '../core/errors';
import { capRefusalText } from './cap-refusal-text';
import { readOptions, type Values } from './cli-args';
import type { Command } from './cli-command';
import type { CliIo } from './cli-io';
import { DEV_PROGRAM, EXIT, cliWording } from './cli-report';
import { COUNT_RANGE, RUN_OPTIONS, commandHelp } from './command-help';
import { common } from './common-args';
import { runOnService, watch, type Run } from './commands';
import { SAMPLE_PROMPT, SAMPLE_PROMPT_LINE, demoCommandLine, demoNextLine } from './demo-choice';
import { promptOf } from './prompt-args';
import { demoService, generateService, serviceChoice } from './service-args';
import { generateFromTemplate, isDryRun } from './template-run-command';
import { templateRunOf } from './template-run-args';
import { terminalSafe } from './terminal-text';
import { dryRunText, requestExtrasOf, requestOf } from './generate-request';
import { fetchOnFirstUse, openNamedBook } from './models-schemas';
import { declareLibraryCommand, type ReadLine } from './library-command';

type Generate = Command & { name: 'generate' };

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
 * it (core/engine/request-check.ts `checkInto`: a board the library has is found by its key, as
 * stored; one it lacks is checked as given and made when the tasks are submitted).
 * @throws UsageError with the rule's sentence.
 */
function intoBoard(raw: string | undefined): { board?: string } {
  if (raw === undefined) return {};
  const checked = checkBoardPath(raw, false);
  if (!checked.ok) throw new UsageError(englishText(checked.problem));
  return { board: checked.path };
}

/** `generate [PROMPT] [options]`, and `demo [PROMPT] [options]` (generate on the built-in demo). */
function parseGenerate(
  { values, positionals: words }: ReadLine,
  env: NodeJS.ProcessEnv,
  command: 'generate' | 'demo',
): Generate {
  const request = requestOptions(values);
  const { service, target } = command === 'demo' ? demoService(values) : generateService(values);
  const prompt = promptOf({
    command,
    option: values.prompt,
    escaped: values['prompt-escaped'],
    words,
    env,
  });
  const template = command === 'generate' ? templateRunOf(values) : null;
  const model = values.model?.trim() || PROVIDERS[service.provider].defaultModel;
  const extras = requestExtrasOf(values, service, model ?? undefined, template !== null);
  if (prompt === null && command === 'generate' && template === null && !extras.like) {
    throw new UsageError(
      'generate needs a prompt: the words after generate, in quotes (generate "a lighthouse at dusk"), or --prompt TEXT.',
    );
  }
  // The model is named in the request, not left to the profile: the record keeps the model it
  // asked for (a fal task's address is found from it), whatever a later default becomes.
  return {
    name: 'generate',
    service,
    target,
    ...(command === 'demo' ? { explain: { samplePrompt: prompt === null } } : {}),
    prompt: prompt ?? (template || extras.like ? '' : SAMPLE_PROMPT),
    ...(template ? { template } : {}),
    ...(model ? { model } : {}),
    ...request,
    ...extras,
    common: common(values, env),
  };
}

/** `pictor demo` says what it is before the demo starts (and that the prompt is the sample one). */
function runGenerate(command: Generate, io: CliIo): Promise<number> {
  if (command.explain) {
    io.stderr(demoCommandLine(io.program ?? DEV_PROGRAM));
    if (command.explain.samplePrompt) io.stderr(SAMPLE_PROMPT_LINE);
  }
  const needsKey = !isDryRun(command) && !command.dryRun;
  return runOnService(command, io, (run) => submitAndWatch(run, command), { needsKey });
}

/**
 * Submits and watches. A soft spending cap the submit passes is said first; a hard one stops it
 * before anything is stored or sent: its sentence, exit 6.
 */
async function submitAndWatch(run: Run, command: Generate): Promise<number> {
  const { core, io } = run;
  if (command.template) {
    const templated = { ...command, template: command.template };
    return generateFromTemplate(core, templated, io, (records) => watch(run, records));
  }
  const request = requestOf(command, command.like ? core.history : null);
  if (command.dryRun) {
    io.stdout(dryRunText(command, request));
    return EXIT.ok;
  }
  // The service the command names (--provider, --base-url: the one SERVICE_API_KEY is for), or
  // the built-in demo (`demo:`, free).
  const { target } = command;
  const { warnings } = core.costs.preview(target, request, command.count);
  for (const warning of warnings) io.stderr(`${terminalSafe(cliWording(englishText(warning)))}\n`);
  core.engine.start({ resume: false });
  let records: TaskRecord[];
  try {
    records = await core.engine.submit(request, target, command.count, command.board);
  } catch (error) {
    if (!(error instanceof SpendingCapError)) throw error;
    io.stderr(capRefusalText(error.refusal, cliWording(error.message), io.program ?? DEV_PROGRAM));
    return EXIT.submitRefused;
  }
  const code = await watch(run, records);
  if (command.explain) io.stderr(demoNextLine(io.program ?? DEV_PROGRAM));
  return code;
}

/**
 * Before --param is typed: the library's kept options are put in use, and on the model's first
 * use with options typed (a service that publishes them), its published ones are fetched first,
 * as the window's form does; a fault is a notice and the shipped ones stay (models-schemas.ts).
 * A command line that does not read is left to `parse`, which says why.
 */
async function prepareGenerate(
  args: readonly string[],
  io: CliIo,
  options: ParseArgsOptionsConfig,
): Promise<void> {
  const book = await openNamedBook(args, io.env);
  let values: Values;
  let service: ReturnType<typeof serviceChoice>;
  try {
    values = readOptions('generate', args, options).values;
    service = serviceChoice(values, 'generate');
  } catch (error) {
    if (error instanceof UsageError) return;
    throw error;
  }
  const typed = values.param ?? values.negative ?? values.aspect ?? values.resolution;
  const seeded = values.seed !== undefined && values.template === undefined;
  if ((typed === undefined && !seeded) || values.like !== undefined) return;
  if (service.builtInDemo || service.baseUrl === null) return;
  const model = values.model?.trim() || PROVIDERS[service.provider].defaultModel || '';
  await fetchOnFirstUse(book, { provider: service.provider, baseUrl: service.baseUrl, model }, io);
}

const GENERATE_HELP = commandHelp(
  `generate "PROMPT" [--provider ID] [--base-url URL] [--model M] [--size WxH]
                                  [--quality Q] [--count N] [--board PATH]
                                  submit the prompt (--count tasks, ${COUNT_RANGE}) and save the images.
                                  PROMPT is the words after generate (quote them for the shell;
                                  several words are joined by spaces; after -- when it starts
                                  with -), or --prompt TEXT, or --prompt-escaped TEXT: the prompt
                                  with JSON's escapes (\\n a line break, \\\\ a backslash,
                                  \\uXXXX), how a prompt of several lines is given on Windows.
                                  --board puts the images into that board as they arrive (made
                                  when the library has none).
                                  --provider demo runs Pictor's built-in demo service: no key,
                                  no address. --template NAME [--var NAME=VALUE]...
                                  [--expand combinatorial|random:N [--seed S]] [--dry-run]: the
                                  template's prompts (PROMPT fills its {{prompt}}), every
                                  combination or N drawn at random (at most 100 tasks), priced
                                  first; --dry-run prints them and the estimate and sends nothing;
                                  over a hard cap nothing is sent (exit 6).
                                  The model's own options (pictor models show MODEL; on the
                                  model's first use, fetched first where fal or Replicate
                                  publish them, else the shipped ones with a notice):
                                  --param KEY=VALUE (repeatable), --seed N, --negative TEXT,
                                  --aspect 16:9, --resolution 2K where the model has them (else
                                  exit 2); --dry-run without --template prints the request that
                                  would be sent and its cURL line ($SERVICE_API_KEY, never the
                                  key); --like TASK [--vary] sends that
                                  task's request again with its seed (--vary: a new seed)`,
  RUN_OPTIONS,
);

export const generate = declareLibraryCommand({
  name: 'generate',
  help: GENERATE_HELP,
  own: [
    'prompt',
    'prompt-escaped',
    'model',
    'size',
    'quality',
    'count',
    'board',
    'template',
    'var',
    'expand',
    'seed',
    'dry-run',
    'param',
    'negative',
    'aspect',
    'resolution',
    'like',
    'vary',
  ],
  parse: (read, env) => parseGenerate(read, env, 'generate'),
  run: runGenerate,
  prepare: prepareGenerate,
});

const DEMO_HELP = commandHelp(
  `demo ["PROMPT"] [--prompt TEXT | --prompt-escaped TEXT] [--size WxH]
                                  [--count N] [--board PATH]
                                  try Pictor with no key and no service: generate --provider demo,
                                  which runs the built-in demo service inside the command (its
                                  pictures are drawn on this computer; a sample prompt when none;
                                  another --provider or a --base-url is refused)`,
  ['library', 'watch', 'json', 'verbose'],
);

export const demo = declareLibraryCommand({
  name: 'demo',
  help: DEMO_HELP,
  own: ['prompt', 'prompt-escaped', 'size', 'count', 'board', 'provider', 'base-url'],
  parse: (read, env) => parseGenerate(read, env, 'demo'),
  run: runGenerate,
});
