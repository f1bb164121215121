/**
 * No command prints a literal escape where it meant a character: every command's help, its
 * answer to an option it does not know, and the answers of the commands that work offline on a
 * library with costs, caps and tasks priced since they were sent, are scanned for `\xNN` (what
 * terminalSafe writes for a control character it is handed, such as a line break inside a line
 * that should have been two). The library holds no hostile text, so any escape is a bug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../electron/cli/command-table';
import { costLibrary, pictor } from './cli-in-process';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const ESCAPE = /\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|U\+[0-9A-F]{4}/i;

let dataDir: string;
beforeAll(() => {
  dataDir = tempFolderSync('cli-escapes');
  costLibrary(dataDir);
});
afterAll(() => removeFolderSync(dataDir));

/** The commands that answer from the library alone, with what they print. */
const OFFLINE: readonly (readonly string[])[] = [
  ['list'],
  ['list', '--json'],
  ['costs'],
  ['costs', '--json'],
  ['costs', '--csv'],
  ['costs', '--provider', 'fal', '--time-zone', 'Asia/Tokyo'],
  ['caps', 'list'],
  ['caps', 'list', '--json'],
  ['prices', 'list'],
  ['prices', 'list', '--json'],
  ['models'],
  ['models', '--capabilities'],
];

async function expectPlain(args: readonly string[]): Promise<void> {
  const run = await pictor(args, { SERVICE_API_KEY: 'sk-test-key-0000' });
  const said = `${run.stdout}${run.stderr}`;
  expect(said.length, `pictor ${args.join(' ')} said nothing`).toBeGreaterThan(0);
  expect(said, `pictor ${args.join(' ')}`).not.toMatch(ESCAPE);
}

describe('the CLI prints no literal escapes', () => {
  it('in the help, of every command', async () => {
    await expectPlain(['help']);
    for (const name of COMMAND_NAMES) {
      await expectPlain(['help', name]);
      await expectPlain([name, '--help']);
    }
  });

  it('in its answer to an option a command does not know', async () => {
    for (const name of COMMAND_NAMES)
      await expectPlain([name, '--frobnicate', '--data-dir', dataDir]);
  });

  it.each(OFFLINE.map((args) => [args.join(' '), args] as const))(
    'in `pictor %s` on a library with costs and caps',
    async (_name, args) => {
      await expectPlain([...args, '--data-dir', dataDir]);
    },
  );

  it('in a refused submit’s reasons', async () => {
    await expectPlain([
      'generate',
      '--prompt',
      'a lighthouse',
      '--provider',
      'fal',
      '--base-url',
      'http://127.0.0.1:9',
      '--data-dir',
      dataDir,
    ]);
  });
});
