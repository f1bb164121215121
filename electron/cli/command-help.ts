/**
 * One command's help, declared once beside its usage: what to type and what it does (`usage`, as
 * the command list shows it), and the groups of options it takes besides those its usage names.
 * `pictor <command> --help` and `pictor help <command>` show that alone; `pictor help` shows every
 * command's usage, then the options of every group once (cli-help.ts).
 */

import { TASKS_PER_ENGINE_SUBMIT } from '../../shared/domain/limits';

/** --timeout's default, in seconds, as the help states it. */
export const DEFAULT_TIMEOUT_SECONDS = 900;

/**
 * Options shared by several commands, by group: `service` (--provider, --base-url: the providers'
 * table), `providers` (--provider alone, the same table), `library` (where the history and gallery are), `watch` (how long and how often a
 * task is polled), `json` and `verbose`.
 */
export type OptionGroup = 'service' | 'providers' | 'library' | 'watch' | 'json' | 'verbose';

/** The options of the commands that run tasks on a service. */
export const RUN_OPTIONS: readonly OptionGroup[] = [
  'service',
  'library',
  'watch',
  'json',
  'verbose',
];

/** `--count`'s range as the help and the usage error say it: "1 to 100". */
export const COUNT_RANGE = `${TASKS_PER_ENGINE_SUBMIT.min} to ${TASKS_PER_ENGINE_SUBMIT.max}`;

export interface CommandHelp {
  /** The command's usage and what it does, as the command list shows it (first line: usage). */
  readonly usage: string;
  /** The shared option groups it takes, in the order its help lists them. */
  readonly options: readonly OptionGroup[];
}

/** A command's help entry. */
export function commandHelp(usage: string, options: readonly OptionGroup[]): CommandHelp {
  return { usage, options };
}

/** The lines of each group but `service` (cli-help.ts draws the providers' table). */
export const OPTION_LINES: Readonly<
  Record<Exclude<OptionGroup, 'service' | 'providers'>, readonly string[]>
> = {
  library: [
    `  --data-dir DIR      history folder (default: the app's data folder)`,
    '  --gallery-dir DIR   gallery folder (default: <data-dir>/gallery with --data-dir, else ~/Pictures/Pictor)',
  ],
  watch: [
    `  --timeout SECONDS   stop watching after this long; the id is kept for resume (default ${DEFAULT_TIMEOUT_SECONDS})`,
    `  --poll-interval S   seconds between polls (default 3, the service's rule)`,
  ],
  json: ['  --json              one JSON object per task on stdout'],
  verbose: ['  --verbose           log engine events on stderr'],
};
