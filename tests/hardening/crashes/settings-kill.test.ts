/**
 * Crashes: a process changing the settings (the app's settings.json, through the store the CLI
 * keeps it in) killed with SIGKILL at a random point of its writes, again and again in one data
 * folder. After every kill the next start reads whole settings that one change wrote (never half
 * of one, never the defaults), reports no problem, sets nothing aside, and no temporary file of a
 * killed write is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { seededRandom } from '../../../electron/demo-service/prng';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { settingsOf } from './settings-kill-worker';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KILLS = 12;
const SEED = 20_261_130;

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  if (dir) await removeFolder(dir);
});

/** Starts the worker at change `first` and kills it once it has printed `writes` changes. */
function killAfter(dataDir: string, first: number, writes: number): Promise<number> {
  const worker = spawn(
    process.execPath,
    [...nodeEntryArgs('settings-kill-worker'), dataDir, `${first}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = worker;
  let seen = 0;
  let last = first - 1;
  let errors = '';
  worker.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  return new Promise((resolve, reject) => {
    worker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        const match = /^wrote (\d+)$/.exec(line);
        if (!match) continue;
        last = Number(match[1]);
        seen += 1;
        if (seen === writes) worker.kill('SIGKILL');
      }
    });
    worker.once('error', reject);
    worker.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(last);
      else reject(new Error(`the worker ended by itself (${code}): ${errors}`));
    });
  });
}

describe('settings writes killed at random', () => {
  it(`reads whole settings after each of ${KILLS} kills, with nothing to report`, async () => {
    dir = await tempFolder('settings-kill');
    const random = seededRandom(SEED);
    let next = 0;
    for (let kill = 1; kill <= KILLS; kill += 1) {
      const last = await killAfter(dir, next, 1 + Math.floor(random() * 40));
      const service = new SettingsService({
        store: new JsonFileKv(dir, 'settings'),
        now: Date.now,
      });
      expect(service.takeProblems(), `kill ${kill}`).toEqual([]);
      const read = service.get();
      const n = Number(/^model-(\d+)$/.exec(read.defaultModel)?.[1] ?? NaN);
      // The last change printed, or the one after it (written, not yet printed).
      expect([last, last + 1], `kill ${kill}`).toContain(n);
      expect(read.defaultCount, `kill ${kill}`).toBe(settingsOf(n).defaultCount);
      next = n + 1;
      const names = await readdir(dir);
      expect(names.filter((name) => name.startsWith('settings.corrupt-'))).toEqual([]);
      // A killed write's temporary file is gone at the next start (settings-leftovers.test.ts).
      expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    }
  });
});
