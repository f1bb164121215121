/**
 * The cost ledger of a library that kept tasks under an id that carries a key (stored before ids
 * were checked). The ledger's rows outlive their tasks (a removal tidies the list, never what was
 * spent), so a task removed from the history kept its id there, and the Costs screen lists it by
 * that id. The app's sweep (app/kept-key-sweep.ts) walks the ledger's rows too, in the history
 * worker, and redacts the key from a removed task's id there (history/kept-key-ids.ts); a task
 * still in the history is cleaned the one way, its ledger row with it.
 *
 * Tasks made by the recorded app from a demo service that reports a cost (each has a ledger row);
 * their ids then written as an old app wrote them, some of the tasks removed from the history as
 * an old app removed them (positive control: the history's file carries the key). Afterwards the
 * Costs screen's list names every task, none by the key, and no file holds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../shared/domain/cost-ledger';
import { ENCODINGS } from './key-encodings';
import {
  endWorlds,
  everywhere,
  firstRun,
  ipcLeaks,
  keepUnder,
  leaksUnder,
  newWorld,
  pageReads,
  start,
  withHistory,
} from './kept-id-world';

const KEY = 'sk-kept-ledger-4b9e27c1d05a83f6e2';
const COST = { where: 'late', usage: { cost: 0.04, currency: 'USD' } } as const;
/** Encodings of the key in the ids of the removed tasks, and of the one still listed. */
const REMOVED = ['raw', 'base64', 'hexLower', 'percentEveryByte'];
const LISTED = 'base64url';

afterEach(endWorlds);

describe('the cost ledger of a library with tasks kept under a key-carrying id', () => {
  it("has the key redacted from a removed task's id: the Costs screen and every file", async () => {
    const world = await newWorld(KEY, { cost: COST });
    const tasks = await firstRun(world, REMOVED.length + 1);
    const removed = tasks.slice(0, REMOVED.length);
    const listed = tasks[REMOVED.length]!;
    withHistory(world, (history) => {
      for (const [n, task] of removed.entries()) {
        const taskId = `task-${ENCODINGS[REMOVED[n]!]!(KEY, n)}`;
        history.put({ ...history.get(task.localId)!, taskId });
        expect(history.delete(task.localId)).toBe(true);
      }
    });
    await keepUnder(world, listed.localId, `task-${ENCODINGS[LISTED]!(KEY, 7)}`);
    const version = withHistory(world, (history) => history.costs.meta().version);
    // The positive control: the ledger's rows say the ids, so the history's file carries the key.
    expect((await leaksUnder(world.userDataDir, KEY)).length).toBeGreaterThan(0);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      await pageReads(app, [listed]);
      const answer = await app.invoke('costs:ledger', {});
      const entries = (answer as { value: { entries: LedgerEntry[] } }).value.entries;
      const byLocalId = new Map(entries.map((entry) => [entry.localId, entry]));
      for (const task of [...removed, listed])
        expect(byLocalId.get(task.localId)?.taskId).toContain('[redacted]');
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
    // The Costs screen, which holds the ids it was sent, is told the ledger changed.
    expect(withHistory(world, (history) => history.costs.meta().version)).toBeGreaterThan(version);
  });

  it('has it redacted from the record of a removed task its service still works on', async () => {
    const world = await newWorld(KEY, { cost: COST });
    const [task] = await firstRun(world, 1);
    const taskId = `task-${ENCODINGS['base64']!(KEY, 2)}`;
    withHistory(world, (history) => {
      // Removed while processing (as an old app did): the ledger watches it until it ends.
      const kept = { ...history.get(task!.localId)!, taskId, status: 'processing' as const };
      history.put(kept);
      expect(history.detach(kept)).toBe(true);
      expect(history.watched().map((record) => record.taskId)).toEqual([taskId]);
    });
    // The worker's walk of the ledger, as the app's sweep runs it (the engine cleans what it holds).
    const found = withHistory(world, (history) => {
      const slice = history.keptKeyIds.slice([KEY], 'ledger', '', 100);
      return { slice, watched: history.watched().map((record) => record.taskId) };
    });
    expect(found.slice).toEqual({ localIds: [task!.localId], next: null });
    expect(found.watched).toEqual([expect.stringContaining('[redacted]')]);
    expect(await leaksUnder(world.userDataDir, KEY)).toEqual([]);
  });
});
