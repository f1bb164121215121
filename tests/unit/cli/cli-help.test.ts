/**
 * The help, over the whole command table: `pictor <command> --help` and `pictor help <command>`
 * show that command's usage and the options it takes, and nothing of the global text (the other
 * commands, the shared options' list, the exit codes); `pictor help` shows all of it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { COMMAND_NAMES, commandHelpOf, helpText } from '../../../electron/cli/cli-help';
import { optionNames } from '../../../electron/cli/command-help';

/** Text only the global help has. */
const GLOBAL = [
  'Pictor command line: generate images',
  'Try it with no key',
  'Exit codes: 0 done',
  'Options several commands take',
];

const firstLine = (text: string) => text.split('\n')[0]!.trim();

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
    const help = helpText('pictor', name);
    const { usage, options } = commandHelpOf(name);
    expect(help).toMatch(new RegExp(`^Usage: pictor ${name} `));
    expect(help).toContain(usage);
    for (const group of options) {
      const names = group === 'service' ? ['--provider', '--base-url'] : optionNames(group);
      for (const option of names) expect(help, `${name}: ${option}`).toContain(option);
    }
    if (options.includes('service')) expect(help).toContain('Providers (--provider ID');
    else expect(help).not.toContain('Providers (');
    for (const text of GLOBAL) expect(help).not.toContain(text);
    for (const other of COMMAND_NAMES.filter((one) => one !== name)) {
      expect(help, `${name}'s help holds ${other}'s`).not.toContain(
        firstLine(commandHelpOf(other).usage),
      );
    }
    expect(help).toContain('Exit codes and every command: pictor help');
  });

  it.each(COMMAND_NAMES)('%s: the same from "%s --help", "-h" and "help %s"', async (name) => {
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
    for (const name of COMMAND_NAMES) expect(help).toContain(firstLine(commandHelpOf(name).usage));
    for (const group of ['library', 'watch', 'json', 'verbose'] as const) {
      for (const option of optionNames(group)) {
        const listed = help.split('\n').filter((line) => line.startsWith(`  ${option} `));
        expect(listed, option).toHaveLength(1);
      }
    }
    expect(help).toContain('pictor <command> --help (or pictor help <command>)');
  });
});
