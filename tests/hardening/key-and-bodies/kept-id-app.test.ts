/**
 * The desktop app and a library that kept tasks under an id that carries a key (stored before ids
 * were checked). `pictor track` cleans the one task it names (kept-id-files.test.ts); the app was
 * never asked: such a task's id went to the page in every task list and gallery page and back
 * into its pictor.json at every write of it. The app sweeps its library once its keys' text is
 * known (app-runtime.ts `redactKeyIn`: at start and at each change of a key) and cleans each task
 * found the one way (batch/kept-key-id.ts); the page's "Track a task" with such an id is refused
 * and its task cleaned the same way.
 *
 * The app is the recorded one over a real library (kept-id-world.ts): a first run makes the tasks
 * with their images from a demo service; the old files are then written as an old app wrote them
 * (the positive control: the scanner finds the key in them). Afterwards no file of the gallery, no
 * file of the data folder (the history's database among them) and no IPC payload holds the key,
 * in any encoding a typed id can carry.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNTIL } from '../../support/waits';
import { ENCODINGS, keptIdEncodings } from './key-encodings';
import {
  endWorlds,
  everywhere,
  firstRun,
  ipcLeaks,
  keepUnder,
  leaksUnder,
  newWorld,
  ok,
  pageReads,
  start,
} from './kept-id-world';

const KEY = 'sk-kept-app-7d1e0c94b2a8f63e15c7';
/** Another service's key, stored only once the app runs. */
const OTHER = 'r8_kept-other-Hn3Wc7Ky5Bd1Qz8x';

/** The encodings a task id can carry past the task id rule (keptIdEncodings). */
const ID_ENCODINGS = keptIdEncodings(KEY);

afterEach(endWorlds);

describe('a library with tasks kept under a key-carrying id, in the desktop app', () => {
  it('is swept as the keys are read at start: no file and no IPC payload holds the key', async () => {
    const world = await newWorld(KEY);
    const tasks = await firstRun(world, ID_ENCODINGS.length);
    for (const [n, encoding] of ID_ENCODINGS.entries())
      await keepUnder(world, tasks[n]!.localId, `task-${ENCODINGS[encoding]!(KEY, n)}`);
    // The positive control: the old files say the ids, so they carry the key.
    expect((await leaksUnder(world.galleryDir, KEY)).length).toBeGreaterThan(0);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      await pageReads(app, tasks);
      for (const task of tasks) {
        const record = app.runtime.core.engine.get(task.localId)!;
        expect(record.taskId).toContain('[redacted]');
      }
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
  });

  it("refuses the page's track of such an id and cleans the task it names", async () => {
    const world = await newWorld(KEY);
    const encodings = ['raw', 'base64', 'hexUpper', 'percentEveryByte'];
    const tasks = await firstRun(world, encodings.length);
    const ids = encodings.map((encoding, n) => `task-${ENCODINGS[encoding]!(KEY, n)}`);
    for (const [n, id] of ids.entries()) await keepUnder(world, tasks[n]!.localId, id);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      // The sweep stopped before it cleaned anything: the track alone cleans.
      await app.runtime.keptIds.close();
      expect(app.runtime.core.engine.get(tasks[0]!.localId)!.taskId).toBe(ids[0]);
      for (const [n, id] of ids.entries()) {
        const answer = await app.invoke('tasks:track', { taskId: id });
        expect(answer.ok).toBe(false);
        expect(app.runtime.core.engine.get(tasks[n]!.localId)!.taskId).toContain('[redacted]');
      }
      await pageReads(app, tasks);
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
  });

  it('is swept again when a key is added: an old id may carry the new key', async () => {
    const world = await newWorld(KEY);
    const tasks = await firstRun(world, 2);
    const ids = [`task-${OTHER}`, `task-${ENCODINGS['base64']!(OTHER, 1)}`];
    for (const [n, id] of ids.entries()) await keepUnder(world, tasks[n]!.localId, id);

    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      // The control: the app did not hold that key, so nothing was cleaned.
      expect(app.runtime.core.engine.get(tasks[0]!.localId)!.taskId).toBe(ids[0]);
      const key = { provider: 'replicate' as const, key: OTHER, skipCheck: true };
      await ok(app.invoke('keys:set', { ...key, allowWeakStorage: false }));
      // Vitest's own deadline (1 s) is one a loaded machine reaches: the sweep of a key added
      // takes longer there (a run at load 20 failed here).
      await vi.waitFor(() => {
        for (const task of tasks)
          expect(app.runtime.core.engine.get(task.localId)!.taskId).toContain('[redacted]');
      }, UNTIL);
      await app.runtime.keptIds.swept();
      world.ipc.length = 0;
      await pageReads(app, tasks);
      expect(ipcLeaks(world, OTHER)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, OTHER)).toEqual([]);
  });
});
