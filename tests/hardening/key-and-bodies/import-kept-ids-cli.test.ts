/**
 * `pictor import` of an archive holding a task kept under an id that carries the key the command
 * runs with: the core gives the import the scrubber of its credentials' keys (pictor-core.ts), so
 * the task comes in with the key redacted from its id in the history itself, and `list` never
 * shows it. The CLI harness then reads every file of the data folder for the
 * key (cli-harness.ts).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { yazlExport } from '../../unit/core/library/archive/yazl-archive';
import { ENCODINGS, keyScanner } from './key-encodings';
import { keptTask } from './kept-id-archive';
import { TempFolders } from '../../support/temp-folders';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;
const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

describe('pictor import of a task kept under a key-carrying id', () => {
  it.each([
    ['as it is', `task-${KEY}`],
    ['in base64', `task-${ENCODINGS.base64!(KEY, 2)}`],
    ['spelt out', [...KEY].join(' ')],
  ])('(the key %s) lists it with the key redacted', async (_, taskId) => {
    const world = await newWorld();
    const base = await dirs.make('import-kept-id-cli');
    const { record, files } = await keptTask(base, taskId);
    const archive = await yazlExport(base, files, 'kept.zip');
    expectExit(await world.run(['import', archive]), 0);
    const listed = await world.list();
    const task = listed.find((one) => one.localId === record.localId);
    expect(task?.taskId).toContain('[redacted]');
    // The store itself (the CLI's output is scrubbed again on its way out: not the proof).
    const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
    try {
      expect(history.get(record.localId)?.taskId).toContain('[redacted]');
    } finally {
      history.close();
    }
    const lines = world.runs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
    expect(keyScanner(KEY).leaks(lines)).toEqual([]);
  });
});
