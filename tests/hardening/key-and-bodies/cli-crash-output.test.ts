/**
 * The command line's last words: an error nothing caught (a throw in a callback, a rejected
 * promise nobody awaited) ends the process. Every line a command says goes through the key
 * scrubber (cli/main.ts keySafeIo); Node's own report of such an error did not: it wrote the
 * error's message and stack straight to stderr, so a key in an error from deep in the network
 * stack or a service's words in a message reached the terminal as it was.
 *
 * The fault is injected on purpose, into a real CLI process (`--import` of a module made here):
 * an error whose message carries the key in every encoding the test's scanner knows, thrown
 * from a timer or rejected unawaited while a command runs. Afterwards stdout and stderr hold no
 * run of the key in any encoding, the process still ends with the unexpected-problem exit code,
 * and says so.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { describeRun, newDataDir, runCli } from '../../integration/cli/run-cli';
import { ENCODINGS, ENCODING_NAMES, keyScanner } from './key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = QUIRKY_KEYS.alice;
/** EXIT.unexpected (cli-report.ts). */
const UNEXPECTED = 70;

let dir: string;
let dataDir: string;
let fault: string;

/** The key in every encoding, as the words of one error. */
const carried = ENCODING_NAMES.map((name) => ENCODINGS[name]!(KEY, 1)).join(' ');

beforeAll(async () => {
  dir = await tempFolder('cli-crash');
  dataDir = await newDataDir('cli-crash-data');
  fault = join(dir, 'fault.mjs');
  await writeFile(
    fault,
    [
      `const words = ${JSON.stringify(carried)};`,
      'const how = process.env.PICTOR_TEST_FAULT;',
      'setTimeout(() => {',
      '  const error = new Error(`connect ECONNRESET for ${words}`, { cause: new Error(words) });',
      "  if (how === 'throw') throw error;",
      "  if (how === 'reject') void Promise.reject(error);",
      '}, 0);',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await removeFolder(dir);
  await removeFolder(dataDir);
});

describe('an error nothing caught in a CLI process', () => {
  for (const how of ['throw', 'reject'] as const) {
    it(`(${how}) is said without the key, in any encoding, and ends the run`, async () => {
      const run = await runCli(['list', '--json', '--data-dir', dataDir], {
        key: KEY,
        home: dir,
        env: { NODE_OPTIONS: `--import=${fault}`, PICTOR_TEST_FAULT: how },
      });
      const said = `${run.stdout}\n${run.stderr}`;
      expect(keyScanner(KEY).leaks(said), describeRun(run)).toEqual([]);
      expect(run.code, describeRun(run)).toBe(UNEXPECTED);
      expect(run.stderr).toContain('Pictor hit an unexpected problem and stopped.');
      // The control: the words were said, with the key's part redacted.
      expect(run.stderr).toContain('connect ECONNRESET for');
    });
  }
});
