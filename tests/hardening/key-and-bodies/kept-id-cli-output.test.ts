/**
 * The command line asked of tasks kept under an id that carries the key it runs with, before
 * anything cleaned them (no app ran its sweep; no `track` named them): `list`, `list --json` and
 * `info` of an image whose own metadata says the kept id. The CLI holds only the keys of its
 * environment (it cannot read the app's vault), and every line it writes is scrubbed of them on
 * its way out (cli/main.ts keySafeIo), so no output holds the key, in any encoding a typed id can
 * carry, while the history still does (the control).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { ENCODINGS, keptIdEncodings, keyScanner } from './key-encodings';
import { keptTask } from './kept-id-archive';
import { TempFolders } from '../../support/temp-folders';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;
const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

/** The encodings a task id can carry past the task id rule (keptIdEncodings). */
const ID_ENCODINGS = keptIdEncodings(KEY);

describe('the CLI asked of tasks kept under a key-carrying id, before any sweep', () => {
  it('prints no key in any encoding: list, list --json, info of a kept image', async () => {
    const world = await newWorld();
    const base = await dirs.make('kept-id-cli-output');
    await mkdir(world.dataDir, { recursive: true, mode: 0o700 });
    const ids = ID_ENCODINGS.map((encoding, n) => `task-${ENCODINGS[encoding]!(KEY, n)}`);
    const images: string[] = [];
    const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
    try {
      for (const [n, id] of ids.entries()) {
        const { record, files } = await keptTask(join(base, String(n)), id);
        const prompt = `Task ${id} (created outside Pictor)`;
        history.put({ ...record, origin: 'tracked', request: { ...record.request, prompt } });
        const image = files.find((file) => file.kind === 'image')!;
        const path = join(base, `kept-${n}.png`);
        await writeFile(path, image.data);
        images.push(path);
      }
      // The control: the history holds the ids as they were kept.
      expect(
        history
          .list({ limit: ids.length })
          .items.map((record) => record.taskId)
          .sort(),
      ).toEqual([...ids].sort());
    } finally {
      history.close();
    }

    expectExit(await world.run(['list']), 0);
    expectExit(await world.run(['list', '--json']), 0);
    for (const image of images.slice(0, 4))
      expectExit(await world.run(['info', image, '--json']), 0);
    const output = world.runs.map((run) => `${run.stdout}\n${run.stderr}`).join('\n');
    expect(output).toContain('[redacted]');
    expect(keyScanner(KEY).leaks(output)).toEqual([]);
    // The history holds the key as it was planted (the premise); the harness's own check of the
    // data folder after each test then reads every other file the commands wrote (a log line…).
    for (const suffix of ['', '-wal', '-shm'])
      await rm(join(world.dataDir, `${HISTORY_FILE}${suffix}`), { force: true });
  });
});
