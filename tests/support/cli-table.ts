/**
 * The CLI's command table with every declaration loaded once, for tests that read command lines
 * and help synchronously: `parseCommand` reads as the dispatcher does (cli-dispatch.ts: help
 * first, then the command's own parser), `helpText` draws the help from the declarations.
 */
import { commandLineAt } from '../../electron/cli/cli-dispatch';
import { helpText as drawHelp } from '../../electron/cli/cli-help';
import type { Command } from '../../electron/cli/cli-command';
import type { CliCommand } from '../../electron/cli/command-declaration';
import { COMMANDS, COMMAND_NAMES, type CommandName } from '../../electron/cli/command-table';
import { UsageError } from '../../electron/core/command-line/command-line';
import { unknownCommandMessage } from '../../electron/core/command-line/user-words';

const loaded = new Map<CommandName, CliCommand>(
  await Promise.all(COMMAND_NAMES.map(async (name) => [name, await COMMANDS[name]()] as const)),
);

/** The declaration of `name`, loaded. */
export function declared(name: CommandName): CliCommand {
  const command = loaded.get(name);
  if (command === undefined) throw new Error(`${name} is not in the command table`);
  return command;
}

const helps = new Map(COMMAND_NAMES.map((name) => [name, declared(name).help]));

/** `pictor help` (no topic) or one command's help, as the dispatcher prints it. */
export function helpText(program: string, topic?: CommandName): string {
  return drawHelp(program, helps, topic);
}

/** A command line as parsed, or the help it asks for. */
type ParsedLine = Command | { readonly name: 'help'; readonly topic?: CommandName };

/**
 * `argv` (its command's name first, or only options) read as the dispatcher reads it:
 * `{ name: 'help', topic? }` for help, else what the command's own parser returns.
 * @throws UsageError as the command line would.
 */
export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv): ParsedLine {
  const line = commandLineAt(
    argv,
    argv.findIndex((arg) => !arg.startsWith('-')),
  );
  if (line.kind === 'version') throw new Error('--version is no command line to parse');
  if (line.kind === 'unknown')
    throw new UsageError(unknownCommandMessage(line.name, COMMAND_NAMES));
  if (line.kind === 'help')
    return line.topic ? { name: 'help', topic: line.topic } : { name: 'help' };
  // A library command's parser returns its member of Command (compare, edit, upscale and models
  // have their own types: their tests call their parsers).
  return declared(line.name).parse(line.args, env) as Command;
}
