/**
 * A command over the library's options (cli-args.ts), declared once: its name, its help and its
 * own option names. Its options are those of its help's groups and its own, picked by name
 * ({@link optionsOf}); `parse` is given the command line read against exactly those (any other
 * option refused), so no command repeats the picking and the reading.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import { optionsOf, readOptions, type OptionName, type Values } from './cli-args';
import type { CliIo } from './cli-io';
import { declareCommand, type CliCommand } from './command-declaration';
import type { CommandHelp } from './command-help';

/** The command line after the command's name, read against its options. */
export interface ReadLine {
  readonly values: Values;
  readonly positionals: string[];
}

export function declareLibraryCommand<Line>(command: {
  readonly name: string;
  readonly help: CommandHelp;
  /** Its options besides those of its help's groups. */
  readonly own?: readonly OptionName[];
  readonly parse: (read: ReadLine, env: NodeJS.ProcessEnv) => Line;
  readonly run: (line: Line, io: CliIo) => Promise<number> | number;
  /** What must be read before `parse` (command-declaration.ts), given the same options. */
  readonly prepare?: (
    args: readonly string[],
    io: CliIo,
    options: ParseArgsOptionsConfig,
  ) => Promise<void>;
}): CliCommand {
  const { name, help, prepare } = command;
  const options = optionsOf(help, command.own);
  return declareCommand({
    help,
    options,
    parse: (args, env) => command.parse(readOptions(name, args, options), env),
    run: command.run,
    ...(prepare ? { prepare: (args, io) => prepare(args, io, options) } : {}),
  });
}

/**
 * Commands that share one parser and one runner (the cost commands, the triage commands): each
 * name's help and own options come from the family's tables, and `parse` is told the name.
 */
export function libraryCommandFamily<Name extends string, Line>(family: {
  readonly help: Readonly<Record<Name, CommandHelp>>;
  readonly own: Readonly<Record<Name, readonly OptionName[]>>;
  readonly parse: (name: Name, read: ReadLine, env: NodeJS.ProcessEnv) => Line;
  readonly run: (line: Line, io: CliIo) => Promise<number> | number;
}): (name: Name) => CliCommand {
  return (name) =>
    declareLibraryCommand({
      name,
      help: family.help[name],
      own: family.own[name],
      parse: (read, env) => family.parse(name, read, env),
      run: family.run,
    });
}
