/**
 * Each command declares its own options (command-declaration.ts): its help lists exactly those,
 * and it refuses an option only another command takes with a sentence and exit 2 (the help
 * groups' options, such as --data-dir, every command reads, as scripts pass them to each),
 * before anything touches the library or the network.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../electron/cli/command-table';
import { declared, helpText } from '../../support/cli-table';
import { runInProcess } from '../../support/cli-in-process';

/** The options a help text names (`--name`), without --help itself. */
function optionsNamed(text: string): string[] {
  const names = [...text.matchAll(/--([a-z][a-z-]*)/g)].map(([, name]) => name ?? '');
  return [...new Set(names)].filter((name) => name !== 'help').sort();
}

/** The help groups' options, which every command reads (cli-args.ts: a script passes them to all). */
const COMMON = [
  'base-url',
  'provider',
  'data-dir',
  'gallery-dir',
  'timeout',
  'poll-interval',
  'json',
  'verbose',
];

/** Every option some command takes. */
const everyOption = [
  ...new Set(COMMAND_NAMES.flatMap((name) => Object.keys(declared(name).options))),
];

describe('each command its own options', () => {
  it.each(COMMAND_NAMES)('%s: its help lists exactly the options it takes', (name) => {
    const own = Object.keys(declared(name).options).sort();
    expect(optionsNamed(helpText('pictor', name))).toEqual(own);
  });

  it('gives the library commands different sets, not one shared set', () => {
    const sets = new Set(
      COMMAND_NAMES.map((name) => Object.keys(declared(name).options).sort().join()),
    );
    expect(sets.size).toBeGreaterThan(COMMAND_NAMES.length / 2);
  });

  it.each(COMMAND_NAMES)(
    '%s: refuses an option of another command with a sentence, exit 2',
    async (name) => {
      const own = declared(name).options;
      const foreign = everyOption.find(
        (option) =>
          !Object.hasOwn(own, option) && option !== 'template' && !COMMON.includes(option),
      );
      expect(foreign).toBeDefined();
      const run = await runInProcess([name, `--${foreign ?? ''}`, 'x'], { HOME: '/nonexistent' });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^[A-Z-].*\.\n?/m);
      expect(run.stdout).toBe('');
    },
  );
});
