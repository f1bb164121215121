/**
 * No message repeats a word that looks like a key, whatever command it was typed after and
 * wherever it was typed: as an unknown command, a positional argument, an unknown flag, or the
 * value of an option that takes only some values. Every command of the table is run (in this
 * process, in a scratch folder and library) with each key-shaped word in each place, and nothing
 * it prints may carry the word in any encoding key-echo.ts knows (as typed, JSON-escaped,
 * percent-encoded, base64, hex, or any run of 12 of its characters). One of the words is
 * SERVICE_API_KEY's own value.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../electron/cli/command-table';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { runInProcess } from '../../support/cli-in-process';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const ENV_KEY = 'Zq8vT3mN0pLx-env-key-value-9KfR2';
const WORDS = [
  'sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6',
  Buffer.from('a secret token of some service, 2026').toString('base64'),
  'f3a9c07b5d2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b',
  ENV_KEY,
];
/** Options whose value is checked against what they take: an unknown value is refused. */
const CHECKED_OPTIONS = [
  '--provider',
  '--format',
  '--unit',
  '--period',
  '--per',
  '--amount',
  '--since',
  '--size',
  '--quality',
  '--count',
  '--expand',
  '--seed',
  '--inputs',
  '--factor',
  '--time-zone',
  '--timeout',
  '--poll-interval',
  '--base-url',
  '--compare',
  '--template',
  '--smart',
  '--rating',
  '--flag',
  '--ref',
  '--mask',
  '--target',
];

let dir = '';
let home = '';
const cwd = process.cwd();

beforeAll(async () => {
  dir = await tempFolder('no-key-echo');
  home = join(dir, 'home');
  // Relative paths (an archive named like a key) land in the scratch folder.
  process.chdir(dir);
});
afterAll(async () => {
  process.chdir(cwd);
  await removeFolder(dir);
});

/**
 * Commands that run whatever options they are given (a demo, the self-test), which would take
 * seconds each: their checked options are their own (demo: generate's, tried after generate).
 */
const RUNS_ANYWAY = new Set(['demo', 'self-test']);

/** Every way `word` can be typed after `command`. */
function placements(command: string, word: string): string[][] {
  const options = RUNS_ANYWAY.has(command) ? ['--count', '--size'] : CHECKED_OPTIONS;
  return [
    [command, word],
    [command, 'list', word],
    [command, `--${word}`],
    [command, `--${word}=x`],
    [command, word, '--json'],
    ...options.map((option) => [command, option, word]),
  ];
}

async function leaks(args: readonly string[], word: string): Promise<string | null> {
  const env = { HOME: home, SERVICE_API_KEY: ENV_KEY, NO_COLOR: '1' };
  const run = await runInProcess([...args, '--data-dir', join(dir, 'data')], env);
  const said = `${run.stdout}\n${run.stderr}`;
  return carriesKey(said, word) ? `$ pictor ${args.join(' ')}\n${said}` : null;
}

describe('no output repeats a key-shaped word', () => {
  it('typed as the command', async () => {
    for (const word of WORDS) {
      expect(await leaks([word], word)).toBeNull();
      expect(await leaks([word, '--json'], word)).toBeNull();
    }
  });

  it.each(['help', ...COMMAND_NAMES])(
    'typed anywhere after %s',
    { timeout: 120_000 },
    async (command) => {
      const found: string[] = [];
      for (const word of WORDS) {
        for (const args of placements(command, word)) {
          const leak = await leaks(args, word);
          if (leak !== null) found.push(leak);
        }
      }
      expect(found.join('\n\n')).toBe('');
    },
  );
});
