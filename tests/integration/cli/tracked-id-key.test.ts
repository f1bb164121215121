/**
 * `pictor track <task-id>`: the id is the user's word, not a service's answer, so no answer check
 * reads it. One that carries the key the command holds (SERVICE_API_KEY: pasted in the wrong
 * place, or copied from where a service echoed it), in each encoding the key search covers that
 * a command line can carry, is refused with a sentence that names neither id nor key (exit 2),
 * and nothing is written: no task in the history, no file of the library that carries the key.
 * The same with a task the history holds already under such an id (kept before ids were checked):
 * `--model` does not edit its record, and the key is redacted from its id (the history and its
 * cost ledger no longer hold it), said by the record's local id. A clean id is tracked (the
 * positive control).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { checkBaseUrl } from '../../../electron/core/service';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import {
  ENCODINGS,
  keptIdEncodings,
  keyScanner,
} from '../../hardening/key-and-bodies/key-encodings';
import { filesUnder } from '../../support/files';
import { makeTaskRecord } from '../../support/task-records';
import { describeRun, jsonLines } from './run-cli';
import { expectExit, useCliWorlds, type CliWorld } from './cli-harness';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;

/** The encodings an argument can carry past the task id rule (keptIdEncodings). */
const ARGUMENT_ENCODINGS = keptIdEncodings(KEY);

/** A finished task tracked under `taskId`, naming no model, written straight into the history. */
function storeTracked(world: CliWorld, taskId: string, localId = 'local-kept'): TaskRecord {
  const stored = makeTaskRecord({
    localId,
    taskId,
    origin: 'tracked',
    endpoint: checkBaseUrl(world.service.baseUrl),
    request: { prompt: 'tracked before ids were checked' },
  });
  const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
  try {
    history.put(stored);
  } finally {
    history.close();
  }
  return stored;
}

/** The record the world's history holds under `localId`. */
function storedRecord(world: CliWorld, localId: string): TaskRecord | undefined {
  const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
  try {
    return history.get(localId);
  } finally {
    history.close();
  }
}

describe('pictor track with an id that carries the key', () => {
  it('is refused in every encoding, naming neither id nor key, and writes nothing', async () => {
    const world = await newWorld();
    // 18 encodings less the two UTF-16 (NULs) and the zero-width one (the task id rule's).
    expect(ARGUMENT_ENCODINGS.length).toBeGreaterThanOrEqual(15);
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

  it('is refused; a record the history kept under it has the key redacted from its id, learning nothing else (--model)', async () => {
    const world = await newWorld();
    for (const encoding of ARGUMENT_ENCODINGS) {
      const id = `task-${ENCODINGS[encoding]!(KEY, 1)}`;
      const stored = storeTracked(world, id, `local-kept-${encoding}`);
      const run = await world.run(['track', id, '--model', 'owner/model-name']);
      expectExit(run, 2);
      const said = `${run.stdout}\n${run.stderr}`;
      expect(run.stderr, describeRun(run)).toContain(
        'The task id contains an API key Pictor holds',
      );
      expect(run.stderr).toContain(`The library's task ${stored.localId} was kept under that id`);
      expect(keyScanner(KEY).leaks(said), encoding).toEqual([]);
      expect(said, encoding).not.toContain(id);
      const kept = storedRecord(world, stored.localId);
      expect(kept?.taskId, encoding).toContain('[redacted]');
      expect(keyScanner(KEY).leaks(kept?.taskId ?? ''), encoding).toEqual([]);
      // Nothing else of the record changed: --model was not learned, the prompt stays.
      expect({ ...kept, taskId: id, updatedAt: stored.updatedAt }).toEqual(stored);
    }
    // No record of the history holds the key, in any encoding.
    const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
    try {
      const texts = history.list({ limit: 50 }).items.map((record) => JSON.stringify(record));
      expect(texts).toHaveLength(ARGUMENT_ENCODINGS.length);
      for (const text of texts) expect(keyScanner(KEY).leaks(text)).toEqual([]);
    } finally {
      history.close();
    }
    const leaking: string[] = [];
    for (const file of await filesUnder(world.dataDir, { missing: 'empty' })) {
      const found = keyScanner(KEY).leaks((await readFile(file)).toString('latin1'));
      if (found.length > 0) leaking.push(`${file}: ${found.join(', ')}`);
    }
    expect(leaking).toEqual([]);
  });

  it('a clean id the history already has is resumed, its record learning --model (control)', async () => {
    const world = await newWorld();
    const stored = storeTracked(world, 'task-kept-clean');
    const run = await world.run(['track', 'task-kept-clean', '--model', 'owner/model-name']);
    // Finished with no image saved (the fixture names none): exit 4.
    expectExit(run, 4);
    expect(storedRecord(world, stored.localId)?.request.model).toBe('owner/model-name');
  });

  it('tracks a clean id (the positive control)', async () => {
    const world = await newWorld({ durationMs: 200 });
    const id = world.service.createTaskFor('alice', 'painted elsewhere', '40x24');
    const run = await world.run(['track', id, '--json']);
    expectExit(run, 0);
    expect(jsonLines(run).map((line) => line.taskId)).toEqual([id]);
  });
});
