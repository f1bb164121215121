/**
 * The options of the commands over a library (generate, list, the triage and cost commands…):
 * each option's schema once, here, and each command's own set picked from them by name
 * ({@link optionsOf}: the groups its help names and its own), so a command refuses every option
 * it does not take and its help lists exactly those. compare, edit, upscale and models declare
 * their own sets (compare-args.ts, edit-args.ts, models-command.ts).
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { UsageError, parseCommandLine } from '../core/command-line';
import type { CommandHelp, OptionGroup } from './command-help';
import { COMMON_OPTION_SCHEMAS } from './common-args';

/**
 * The options of each family of commands are here, not in the file that reads their values
 * (cost-args.ts, triage-args.ts, template-args.ts, template-run-args.ts, param-args.ts): reading
 * a command's options loads none of those files, nor what they load (the models' option schemas,
 * the template language, smart boards' rules), so a one-record command does not build them.
 */
const TRIAGE_OPTIONS = {
  rating: { type: 'string' },
  flag: { type: 'string' },
  board: { type: 'string' },
  tag: { type: 'string', multiple: true },
  unfiled: { type: 'boolean' },
  yes: { type: 'boolean' },
  smart: { type: 'string' },
  match: { type: 'string' },
} as const;

const TEMPLATE_OPTIONS = {
  body: { type: 'string' },
  'body-file': { type: 'string' },
  negative: { type: 'string' },
  format: { type: 'string' },
} as const;

const TEMPLATE_RUN_OPTIONS = {
  var: { type: 'string', multiple: true },
  expand: { type: 'string' },
  seed: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

const PARAM_OPTIONS = {
  param: { type: 'string', multiple: true },
  negative: { type: 'string' },
  aspect: { type: 'string' },
  resolution: { type: 'string' },
  like: { type: 'string' },
  vary: { type: 'boolean' },
} as const;

/** The options only the cost commands take. */
const COST_OPTIONS = {
  csv: { type: 'boolean' },
  since: { type: 'string' },
  period: { type: 'string' },
  amount: { type: 'string' },
  unit: { type: 'string' },
  per: { type: 'string' },
  soft: { type: 'boolean' },
  hard: { type: 'boolean' },
  'time-zone': { type: 'string' },
} as const;

/** Every option a library command may take, with its schema (parseArgs's). */
export const LIBRARY_OPTIONS = {
  'base-url': { type: 'string' },
  provider: { type: 'string' },
  prompt: { type: 'string' },
  'prompt-escaped': { type: 'string' },
  model: { type: 'string' },
  size: { type: 'string' },
  quality: { type: 'string' },
  count: { type: 'string' },
  ...COMMON_OPTION_SCHEMAS,
  template: { type: 'string' },
  all: { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  task: { type: 'string', multiple: true },
  compare: { type: 'string' },
  ...COST_OPTIONS,
  ...TRIAGE_OPTIONS,
  ...TEMPLATE_OPTIONS,
  ...TEMPLATE_RUN_OPTIONS,
  ...PARAM_OPTIONS,
} as const;

export type OptionName = keyof typeof LIBRARY_OPTIONS;

/** The options of each group a command's help names (command-help.ts). */
const GROUP_OPTIONS: Readonly<Record<OptionGroup, readonly OptionName[]>> = {
  service: ['base-url', 'provider'],
  providers: ['provider'],
  library: ['data-dir', 'gallery-dir'],
  watch: ['timeout', 'poll-interval'],
  json: ['json'],
  verbose: ['verbose'],
};

/** A command's options with their schemas: those of its help's groups, then its own. */
export function optionsOf(
  help: CommandHelp,
  own: readonly OptionName[] = [],
): Readonly<Partial<typeof LIBRARY_OPTIONS>> {
  const names = [...help.options.flatMap((group) => GROUP_OPTIONS[group]), ...own];
  return Object.fromEntries(names.map((name) => [name, LIBRARY_OPTIONS[name]]));
}

const typedName = (arg: string) => /^--([a-z-]+)(?:=|$)/.exec(arg)?.[1];

/**
 * The options of the help groups (the service, the library, polling, --json, --verbose): every
 * command reads them wherever they stand, as every command always has (scripts pass --data-dir or
 * --poll-interval to each command they run), and a command that has no use for one ignores it.
 * Its help lists only those it uses.
 */
const COMMON_OPTIONS: Readonly<Partial<typeof LIBRARY_OPTIONS>> = Object.fromEntries(
  Object.values(GROUP_OPTIONS)
    .flat()
    .map((name) => [name, LIBRARY_OPTIONS[name]]),
);

/**
 * An option only another command takes, refused by name (a name of the table above: never text
 * the user typed, which may be the key pasted in the wrong place).
 * @throws UsageError naming the option and the command.
 */
function refuseOthers(command: string, args: readonly string[], options: object): void {
  const end = args.indexOf('--');
  for (const arg of end === -1 ? args : args.slice(0, end)) {
    const name = typedName(arg);
    if (name !== undefined && Object.hasOwn(LIBRARY_OPTIONS, name) && !Object.hasOwn(options, name))
      throw new UsageError(
        `--${name} is not an option of ${command}; \`${command} --help\` lists the options it takes.`,
      );
  }
}

/**
 * The words after `command`'s name, read with its options and the common ones: their values and
 * its arguments. Values are typed over every library option; those it does not take stay undefined.
 */
export function readOptions(
  command: string,
  args: readonly string[],
  options: ParseArgsOptionsConfig,
): { values: Values; positionals: string[] } {
  const taken = { ...COMMON_OPTIONS, ...options };
  refuseOthers(command, args, taken);
  return parseCommandLine(args, taken, true) as { values: Values; positionals: string[] };
}

/**
 * Options before a command's name (`pictor --data-dir D list`): any library option, checked; the
 * command then refuses those it does not take.
 */
export function readLeadingOptions(args: readonly string[]): void {
  parseCommandLine(args, LIBRARY_OPTIONS, true);
}

/** The values of every library option, as {@link readOptions} types them. */
export type Values = ReturnType<typeof parseCommandLine<typeof LIBRARY_OPTIONS>>['values'];

/** `value`, or a UsageError saying `message` when it is missing or blank. */
export function required(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(message);
  return value;
}

/**
 * The words after `name` (its arguments besides its options), at most `allowed` of them.
 * @throws UsageError counting them (never repeating one: it may be the key pasted in the wrong place).
 */
export function argumentsOf(name: string, words: readonly string[], allowed: number): string[] {
  if (words.length > allowed) {
    throw new UsageError(
      `${name} takes ${allowed === 0 ? 'no argument' : 'one argument'} besides its options; there were ${words.length}.`,
    );
  }
  return [...words];
}
