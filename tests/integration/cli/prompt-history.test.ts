/**
 * The prompt history is the library's, whichever front submits: `pictor generate` (through the
 * CLI's entry in this process, run-cli.ts's runCliHere) against the demo service on loopback notes its prompt in the history file the app reads.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { describeRun, newDataDir, runCliHere } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

beforeEach(async () => {
  service = await startDemoService({ durationMs: 100 });
  dataDir = await newDataDir('prompts-data');
  home = await tempFolder('prompts-home');
});

afterEach(async () => {
  await service.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

async function generate(prompt: string): Promise<void> {
  const args = ['generate', '--prompt', prompt, '--data-dir', dataDir, '--base-url', service.url];
  const run = await runCliHere([...args, '--poll-interval', '0.1'], {
    key: 'demo',
    home,
    timeoutMs: 60_000,
  });
  expect(run.code, describeRun(run)).toBe(0);
}

describe('pictor generate and the prompt history', () => {
  it('notes each prompt once, newest first, with its uses', async () => {
    await generate('a 100% "quoted" lighthouse');
    await generate('a fox at dawn');
    await generate('a 100% "quoted" lighthouse');
    const history = HistoryStore.open(join(dataDir, HISTORY_FILE));
    try {
      const entries = history.prompts.list('', 10);
      expect(entries.map(({ prompt, uses }) => [prompt, uses])).toEqual([
        ['a 100% "quoted" lighthouse', 2],
        ['a fox at dawn', 1],
      ]);
    } finally {
      history.close();
    }
  });
});
