/**
 * The help, over the whole command table: `pictor <command> --help` and `pictor help <command>`
 * show that command's usage and the options it takes, and nothing of the global text (the other
 * commands, the shared options' list, the exit codes); `pictor help` shows all of it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { COMMAND_NAMES, type CommandName } from '../../../electron/cli/command-table';
import { helpText } from '../../support/cli-table';
import { OPTION_LINES } from '../../../electron/cli/command-help';

/** Text only the global help has. */
const GLOBAL = [
  'Pictor command line: generate images',
  'Try it with no key',
  'Exit codes: 0 done',
  'Options several commands take',
  'Ids: a task or compare id may be given short',
];

/** Every shared option's line, by its option. */
const SHARED = new Map(
  Object.values(OPTION_LINES)
    .flat()
    .map((line) => [/--[a-z-]+/.exec(line)![0], line]),
);

/** The commands that watch tasks: they take --timeout and --poll-interval. */
const WATCHING = ['generate', 'demo', 'resume', 'track', 'compare', 'edit', 'upscale'];
/** The commands that do not open a library. */
const NO_LIBRARY = ['self-test', 'info', 'models'];

/** A command's help parts: its usage paragraph and its options' lines. */
function partsOf(name: CommandName) {
  const help = helpText('pictor', name);
  const [head = '', ...rest] = help.split('\n\n');
  const usage = rest[0] ?? '';
  const block = rest.find((part) => part.startsWith('Options:\n')) ?? '';
  return { help, head, usage, options: block.split('\n').slice(1) };
}

async function printed(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(argv, {
    env: {},
    program: 'pictor',
    stdout: (text) => (out += text),
    stderr: (text) => (out += text),
    interrupt: new AbortController().signal,
  });
  return { code, out };
}

describe("a command's help", () => {
  it.each(COMMAND_NAMES)('%s: its usage and its options, not the global text', (name) => {
    const { help, head, usage, options } = partsOf(name);
    expect(head).toBe(`Usage: pictor ${name} [options]`);
    expect(usage.startsWith(`  ${name}`), usage).toBe(true);
    // The same paragraph the global help lists for it.
    expect(helpText('pictor')).toContain(usage);
    // Its options: shared ones, each as the global help says it, and those its work needs.
    for (const line of options) expect([...SHARED.values()]).toContain(line);
    const listed = options.map((line) => /--[a-z-]+/.exec(line)![0]);
    if (!NO_LIBRARY.includes(name)) expect(listed).toContain('--data-dir');
    if (WATCHING.includes(name))
      expect(listed).toEqual(expect.arrayContaining(['--timeout', '--poll-interval']));
    for (const text of GLOBAL) expect(help).not.toContain(text);
    for (const other of COMMAND_NAMES.filter((one) => one !== name)) {
      const first = partsOf(other).usage.split('\n')[0]!;
      expect(help, `${name}'s help holds ${other}'s`).not.toContain(first);
    }
    expect(help).toContain('Exit codes and every command: pictor help');
    expect(help.split('\n').length, help).toBeLessThan(helpText('pictor').split('\n').length / 3);
  });

  it.each(COMMAND_NAMES)('%s: the same from "--help", "-h" and "help"', async (name) => {
    const expected = helpText('pictor', name);
    for (const argv of [
      [name, '--help'],
      [name, '-h'],
      ['help', name],
    ]) {
      const { code, out } = await printed(argv);
      expect({ argv, code }).toEqual({ argv, code: 0 });
      expect(out, argv.join(' ')).toBe(expected);
    }
  });

  it('is short for a command of the library: export', () => {
    const { help, options } = partsOf('export');
    expect(options.map((line) => /--[a-z-]+/.exec(line)![0])).toEqual([
      '--data-dir',
      '--gallery-dir',
      '--verbose',
    ]);
    expect(help).toContain('export <file.zip> [--task ID]...');
    expect(help.split('\n').length).toBeLessThanOrEqual(12);
  });
});

describe('pictor help', () => {
  it('lists every command, the shared options once and the exit codes', async () => {
    for (const argv of [['help'], ['--help'], []]) {
      const { code, out } = await printed(argv);
      expect(code).toBe(0);
      expect(out).toBe(helpText('pictor'));
    }
    const help = helpText('pictor');
    for (const text of GLOBAL) expect(help).toContain(text);
    for (const name of COMMAND_NAMES) expect(help).toContain(partsOf(name).usage);
    for (const line of SHARED.values()) {
      expect(help.split('\n').filter((one) => one === line)).toHaveLength(1);
    }
    expect(help).toContain('pictor <command> --help (or pictor help <command>)');
  });
});
