/**
 * `pictor track <task-id>`: the id is the user's word, not a service's answer, so no answer check
 * reads it. One that carries the key the command holds (SERVICE_API_KEY: pasted in the wrong
 * place, or copied from where a service echoed it), in each encoding the key search covers that
 * a command line can carry, is refused with a sentence that names neither id nor key (exit 2),
 * and nothing is written: no task in the history, no file of the library that carries the key.
 * A clean id is tracked (the positive control).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import {
  ENCODINGS,
  ENCODING_NAMES,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';
import { filesUnder } from '../../support/files';
import { describeRun, jsonLines } from './run-cli';
import { expectExit, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;

/** The encodings an argument can carry (no NUL byte: UTF-16's are refused as control characters). */
const ARGUMENT_ENCODINGS = ENCODING_NAMES.filter(
  (encoding) => !ENCODINGS[encoding]!(KEY, 1).includes('\0'),
);

describe('pictor track with an id that carries the key', () => {
  it('is refused in every encoding, naming neither id nor key, and writes nothing', async () => {
    const world = await newWorld();
    expect(ARGUMENT_ENCODINGS.length).toBeGreaterThanOrEqual(16);
    for (const encoding of ARGUMENT_ENCODINGS) {
      const id = `task-${ENCODINGS[encoding]!(KEY, 1)}`;
      const run = await world.run(['track', id, '--json']);
      const said = `${run.stdout}\n${run.stderr}`;
      expectExit(run, 2);
      expect(run.stderr, describeRun(run)).toContain(
        'The task id contains an API key Pictor holds',
      );
      expect(keyScanner(KEY).leaks(said), encoding).toEqual([]);
      expect(said, encoding).not.toContain(id);
    }
    expect(await world.list()).toEqual([]);
    for (const file of await filesUnder(world.dataDir, { missing: 'empty' })) {
      const text = (await readFile(file)).toString('latin1');
      expect(keyScanner(KEY).leaks(text), file).toEqual([]);
    }
  });

  it('tracks a clean id (the positive control)', async () => {
    const world = await newWorld({ durationMs: 200 });
    const id = world.service.createTaskFor('alice', 'painted elsewhere', '40x24');
    const run = await world.run(['track', id, '--json']);
    expectExit(run, 0);
    expect(jsonLines(run).map((line) => line.taskId)).toEqual([id]);
  });
});
