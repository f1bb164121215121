/**
 * The app's sweep of kept key-carrying ids walks only what can hold one (app/kept-key-sweep.ts).
 * A whole walk of a million ids costs the worker about 1.5 s of CPU, and a start of the app with
 * the same keys and a library unchanged but for the app's own writes would find nothing: a sweep
 * that walked to its end keeps the marks of the keys it swept (each key's service and the time it
 * was stored: nothing made from the key) and where the history's change log stood as it began,
 * and the next one with no other key walks only the tasks the log names after that point.
 *
 * The walk it skips is shown by an id planted in the history WITHOUT a log entry (the log's
 * trigger dropped for that one write, then made again): a start with the same keys leaves it,
 * while an id written the ordinary way (logged, as every write by any process or version is) is
 * cleaned. Each thing that makes the kept point unknown walks every id again and cleans the
 * planted one: a new key, the kept file gone or damaged, the log pruned past the point, another
 * library. What another process writes while the app runs is swept as the change feed tells of it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { SWEPT_FILE } from '../../../electron/app/kept-key-sweep';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { UNTIL } from '../../support/waits';
import { ENCODINGS } from './key-encodings';
import {
  copyOf,
  endWorld,
  endWorlds,
  everywhere,
  firstRun,
  keepUnder,
  keptWorld,
  leaksUnder,
  newWorld,
  ok,
  start,
  withHistory,
  type World,
} from './kept-id-world';

const KEY = 'sk-kept-marks-8f2d61a4c93e07b5d1';
/** Another service's key, stored only once the app runs. */
const OTHER = 'r8_kept-marks-Qw4Er7Ty2Ui9Op3As';

afterEach(endWorlds);

/**
 * Writes `taskId` into the task's row and record with no entry in the change log (its update
 * trigger dropped for this one write and made again as it was).
 */
function plantUnlogged(world: World, localId: string, taskId: string): void {
  const db = new DatabaseSync(join(world.userDataDir, HISTORY_FILE));
  try {
    const trigger = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
      .get('tasks_changed_update') as { sql: string };
    const before = db.prepare('SELECT max(seq) AS seq FROM task_changes').get();
    db.exec('BEGIN IMMEDIATE');
    db.exec('DROP TRIGGER tasks_changed_update');
    db.prepare(
      "UPDATE tasks SET task_id = ?1, record = json_set(record, '$.taskId', ?1) WHERE local_id = ?2",
    ).run(taskId, localId);
    db.exec(trigger.sql);
    db.exec('COMMIT');
    expect(db.prepare('SELECT max(seq) AS seq FROM task_changes').get()).toEqual(before);
  } finally {
    db.close();
  }
}

/** The task's id as the history holds it now. */
function storedId(world: World, localId: string): string | null {
  return withHistory(world, (history) => history.get(localId)?.taskId ?? null);
}

/** Starts the app, waits for its sweeps, and closes it. */
async function startAndSweep(
  world: World,
  then?: (app: Awaited<ReturnType<typeof start>>) => Promise<void>,
): Promise<void> {
  const app = await start(world);
  try {
    await app.runtime.keptIds.swept();
    await then?.(app);
  } finally {
    await app.close();
  }
}

async function sweptFile(world: World): Promise<unknown> {
  return JSON.parse(await readFile(join(world.userDataDir, SWEPT_FILE), 'utf8'));
}

interface Planted {
  world: World;
  logged: TaskRecord;
  unlogged: TaskRecord;
  spare: TaskRecord;
  id: string;
}

/**
 * A library swept whole with KEY, then a logged and an unlogged key-carrying id planted; `spare`,
 * a third task, left as it was. Made once (two app runs and a sweep: most of a test's time), each
 * test working on its own copy of its folders ({@link plantedWorld}).
 */
let planted: Planted;
beforeAll(async () => {
  const world = await keptWorld(KEY);
  const [logged, unlogged, spare] = await firstRun(world, 3);
  // The first start with tasks in the library walks every id, and keeps where it stood.
  await startAndSweep(world);
  await keepUnder(world, logged!.localId, `task-${ENCODINGS['base64']!(KEY, 1)}`);
  const id = `task-${KEY}`;
  plantUnlogged(world, unlogged!.localId, id);
  planted = { world, logged: logged!, unlogged: unlogged!, spare: spare!, id };
  return () => endWorld(world);
});

/** A test's own copy of the planted library. */
async function plantedWorld(): Promise<Planted> {
  return { ...planted, world: await copyOf(planted.world) };
}

/** What makes the point the last whole sweep kept unknown. */
const UNKNOWN_POINT: [string, (world: World) => Promise<void>][] = [
  ['the kept file gone', (world) => rm(join(world.userDataDir, SWEPT_FILE))],
  [
    'the kept file damaged',
    (world) => writeFile(join(world.userDataDir, SWEPT_FILE), '{"version":1,"keys":'),
  ],
  [
    'the log pruned past its point',
    async (world) => {
      const { mark } = (await sweptFile(world)) as { mark: { seq: number } };
      const db = new DatabaseSync(join(world.userDataDir, HISTORY_FILE));
      try {
        db.prepare('DELETE FROM task_changes WHERE seq <= ?').run(mark.seq);
      } finally {
        db.close();
      }
    },
  ],
  [
    'another library at the same point',
    async (world) => {
      const swept = (await sweptFile(world)) as { mark: { localId: string } };
      swept.mark.localId = 'another-library-task';
      await writeFile(join(world.userDataDir, SWEPT_FILE), JSON.stringify(swept));
    },
  ],
];

describe('the sweep of kept key-carrying ids at start', () => {
  it('walks only the tasks written since the last whole sweep when the keys are the same', async () => {
    const { world, logged, unlogged, id } = await plantedWorld();
    // The positive control: the history holds the key; what the sweep keeps does not.
    expect(await leaksUnder(world.userDataDir, KEY)).toEqual([
      expect.stringContaining(HISTORY_FILE),
    ]);
    const before = await sweptFile(world).catch(() => null);

    await startAndSweep(world);
    expect(storedId(world, logged.localId)).toContain('[redacted]');
    // Not walked: the control that the whole walk was skipped.
    expect(storedId(world, unlogged.localId)).toBe(id);
    // What it keeps: the keys' marks (a service and a time) and a point of the log, no more.
    const swept = await sweptFile(world);
    expect(swept).toEqual({
      version: 1,
      keys: [expect.stringMatching(/^pictor@\d+$/)],
      mark: { seq: expect.any(Number), localId: expect.any(String) },
    });
    expect(swept).not.toEqual(before);
  });

  it('walks every id again when a key is added', async () => {
    const { world, unlogged, spare: third } = await plantedWorld();
    plantUnlogged(world, third.localId, `task-${OTHER}`);
    await startAndSweep(world, async (app) => {
      const key = { provider: 'replicate' as const, key: OTHER, skipCheck: true };
      await ok(app.invoke('keys:set', { ...key, allowWeakStorage: false }));
      // Not vitest's own deadline (1 s): the sweep of a key added takes longer on a loaded machine.
      await vi.waitFor(() => expect(storedId(world, third.localId)).toContain('[redacted]'), UNTIL);
      await app.runtime.keptIds.swept();
    });
    // The whole walk with both keys cleaned the id of the first key too.
    expect(storedId(world, unlogged.localId)).toContain('[redacted]');
    const swept = (await sweptFile(world)) as { keys: string[] };
    expect(swept.keys).toEqual([
      expect.stringMatching(/^pictor@\d+$/),
      expect.stringMatching(/^replicate@\d+$/),
    ]);
    expect(await everywhere(world, OTHER)).toEqual([]);
  });

  it('sweeps what another process writes while the app runs', async () => {
    const world = await newWorld(KEY);
    const [task] = await firstRun(world, 1);
    await startAndSweep(world, async (app) => {
      // Another connection to the history (another process, or an import in the worker).
      const taskId = `task-${ENCODINGS['hexUpper']!(KEY, 0)}`;
      withHistory(world, (history) => history.put({ ...history.get(task!.localId)!, taskId }));
      await vi.waitFor(
        () => expect(app.runtime.core.engine.get(task!.localId)?.taskId).toContain('[redacted]'),
        { timeout: 30_000, interval: 50 },
      );
      await app.runtime.keptIds.swept();
    });
    expect(await everywhere(world, KEY)).toEqual([]);
  });

  it.each(UNKNOWN_POINT)('walks every id again with %s', async (name, unknown) => {
    const { world, unlogged } = await plantedWorld();
    // The control: the first start kept where it stood, so only `unknown` makes it unknown.
    expect(await sweptFile(world)).toMatchObject({ version: 1 });
    await unknown(world);
    await startAndSweep(world);
    expect(storedId(world, unlogged.localId), name).toContain('[redacted]');
    expect(await everywhere(world, KEY), name).toEqual([]);
  });
});
