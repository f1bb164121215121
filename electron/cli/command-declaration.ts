/**
 * One CLI command, declared once: its help (usage and the option groups it takes), its options, how its command
 * line reads (`parse`: the words after its name, checked by the project's parsers; a UsageError
 * says what is wrong) and what it does (`run`: the exit code). The table (command-table.ts) holds a
 * loader for each; the dispatcher (cli-dispatch.ts) does help, parsing and dispatch the same for
 * every command, and main.ts turns what a command throws into its exit code.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { CliIo } from './cli-io';
import type { CommandHelp } from './command-help';

export interface CliCommand {
  readonly help: CommandHelp;
  /** The options it takes, with their schemas: its help lists exactly these, it refuses others. */
  readonly options: ParseArgsOptionsConfig;
  /** The command line after the command's name, checked: what `run` is given. */
  readonly parse: (args: readonly string[], env: NodeJS.ProcessEnv) => unknown;
  readonly run: (line: unknown, io: CliIo) => Promise<number> | number;
  /**
   * What must be read before `parse` (the model options a library keeps, and a model's published
   * ones on its first use: models-schemas.ts); what it has to say goes to `io.stderr`.
   */
  readonly prepare?: (args: readonly string[], io: CliIo) => Promise<void>;
}

/** A command whose `run` takes what its `parse` returned (the dispatcher passes nothing else). */
export function declareCommand<Line>(command: {
  readonly help: CommandHelp;
  readonly options: ParseArgsOptionsConfig;
  readonly parse: (args: readonly string[], env: NodeJS.ProcessEnv) => Line;
  readonly run: (line: Line, io: CliIo) => Promise<number> | number;
  readonly prepare?: (args: readonly string[], io: CliIo) => Promise<void>;
}): CliCommand {
  return {
    help: command.help,
    options: command.options,
    parse: command.parse,
    ...(command.prepare ? { prepare: command.prepare } : {}),
    run: (line, io) => command.run(line as Line, io),
  };
}
