/**
 * Reads a command line against the command table (command-table.ts) and runs it, the same for
 * every command: `pictor --version`; `pictor help [command]`, `pictor [command] --help` (or `-h`);
 * else the command's declaration is loaded, parses the words after its name, and runs.
 */
import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io';
import { COMMANDS, COMMAND_NAMES, isCommandName, type CommandName } from './command-table';
import type { CommandHelp } from './command-help';

/** What a command line asks for, before any command is loaded. */
export type CommandLine =
  | { readonly kind: 'version' }
  /** `topic`: the command whose help was asked for; absent: every command's. */
  | { readonly kind: 'help'; readonly topic?: CommandName }
  | { readonly kind: 'run'; readonly name: CommandName; readonly args: readonly string[] }
  /** A name the table lacks (never repeated as typed: it may be the key pasted in its place). */
  | { readonly kind: 'unknown'; readonly name: string };

/** --help or -h among the options (not after `--`, where a word is a prompt's). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Where the command's name is when options come before it (`pictor --data-dir D list`): read with
 * the options of the library commands (cli-args.ts), so a value is never taken for the name; an
 * unknown option is refused as the command would refuse it.
 */
async function nameAfterOptions(argv: readonly string[]): Promise<number> {
  const { LIBRARY_OPTIONS, readLeadingOptions } = await import('./cli-args');
  readLeadingOptions(argv.filter((arg) => arg !== '--help' && arg !== '-h'));
  const { tokens } = parseArgs({
    args: [...argv],
    options: LIBRARY_OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  return tokens.find((token) => token.kind === 'positional')?.index ?? -1;
}

/** What `argv` asks for, its command's name at `at` (-1: none). */
export function commandLineAt(argv: readonly string[], at: number): CommandLine {
  const name = at === -1 ? undefined : argv[at];
  const args = at === -1 ? [...argv] : [...argv.slice(0, at), ...argv.slice(at + 1)];
  if (name === undefined || name === 'help') {
    const topic = name === 'help' ? args[0] : undefined;
    return isCommandName(topic) ? { kind: 'help', topic } : { kind: 'help' };
  }
  if (!isCommandName(name)) return asksHelp(args) ? { kind: 'help' } : { kind: 'unknown', name };
  return asksHelp(args) ? { kind: 'help', topic: name } : { kind: 'run', name, args };
}

/** What `argv` asks for. @throws UsageError for a command the table lacks, or a bad option. */
export async function readCommandLine(argv: readonly string[]): Promise<CommandLine> {
  if (argv.length === 1 && argv[0] === '--version') return { kind: 'version' };
  if (argv.length === 0) return { kind: 'help' };
  const line = commandLineAt(argv, argv[0]?.startsWith('-') ? await nameAfterOptions(argv) : 0);
  if (line.kind !== 'unknown') return line;
  // Loaded for a mistyped name only: the sentence's code brings the message catalogue.
  const { UsageError, unknownCommandMessage } = await import('../core/command-line');
  throw new UsageError(unknownCommandMessage(line.name, COMMAND_NAMES));
}

/** The help of `names`, each from its declaration. */
async function helpsOf(
  names: readonly CommandName[],
): Promise<ReadonlyMap<CommandName, CommandHelp>> {
  const loaded = await Promise.all(names.map(async (name) => (await COMMANDS[name]()).help));
  return new Map(names.map((name, index) => [name, loaded[index] as CommandHelp]));
}

/** Runs `argv`: its exit code. @throws what the command throws (main.ts says it). */
export async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const line = await readCommandLine(argv);
  if (line.kind === 'version') {
    io.stdout(`${io.version ?? io.env.npm_package_version ?? 'unknown'}\n`);
    return 0;
  }
  if (line.kind === 'help') {
    const { DEV_PROGRAM } = await import('./cli-report');
    const { helpText } = await import('./cli-help');
    const program = io.program ?? DEV_PROGRAM;
    const topics = line.topic === undefined ? COMMAND_NAMES : [line.topic];
    io.stdout(helpText(program, await helpsOf(topics), line.topic));
    return 0;
  }
  if (line.kind === 'unknown') throw new Error('readCommandLine refuses an unknown name');
  const command = await COMMANDS[line.name]();
  await command.prepare?.(line.args, io);
  return await command.run(command.parse(line.args, io.env), io);
}
