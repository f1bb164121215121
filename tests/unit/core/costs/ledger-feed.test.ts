/**
 * The ledger's change event (CostBook.onDidChange): fired when anything the window shows of costs
 * changed, whoever wrote it (this process, a removed task it still watches, another process on
 * the same library), a burst coalesced into one event, and never for a task's status or a poll's
 * bookkeeping. Time is the manual clock's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import type { LedgerChange } from '../../../../electron/core/costs/ledger-feed';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { TaskCost } from '../../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { ManualClock } from '../../../fakes/manual-clock';
import { historyStorePerTest, makeImage, makeRecord } from '../history/history-fixtures';

const REPORTED: TaskCost = { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' };
const ESTIMATED: TaskCost = { source: 'estimated', micros: 20_000, unit: 'USD', basis: 'image' };

const history = historyStorePerTest();
let clock: ManualClock;
let events: LedgerChange[];
let stop: () => void;

beforeEach(() => {
  clock = new ManualClock();
  const costs = new CostBook({ history: history.store, now: () => clock.now(), timers: clock });
  events = [];
  const subscription = costs.onDidChange((change) => events.push(change));
  stop = () => subscription.dispose();
});
afterEach(() => {
  stop();
});

function running(localId: string, cost: TaskCost = ESTIMATED): TaskRecord {
  return makeRecord({ localId, status: 'processing', cost, images: [], finishedAt: null });
}

/** The events the next look fires (a quarter second later). */
async function nextLook(): Promise<LedgerChange[]> {
  events = [];
  await clock.advance(250);
  return events;
}

describe('the ledger’s change event', () => {
  it('fires once for a burst: 200 tasks polling and reporting their costs', async () => {
    const tasks = Array.from({ length: 200 }, (_, n) => running(`burst-${n}`));
    history.store.putMany(tasks);
    expect(await nextLook()).toHaveLength(1);
    for (const task of tasks) history.store.put({ ...task, cost: REPORTED, status: 'completed' });
    const [change, ...more] = await nextLook();
    expect(more).toEqual([]);
    expect(change?.version).toBe(history.store.costs.meta().version);
  });

  it('says nothing of a task’s status or a poll’s bookkeeping', async () => {
    const task = running('quiet');
    history.store.put(task);
    await nextLook();
    history.store.put({ ...task, polls: 9, lastPolledAt: task.createdAt + 9_000 });
    history.store.put({ ...task, status: 'completed', polls: 10 });
    expect(await nextLook()).toEqual([]);
  });

  it('fires when a task removed but still watched is billed', async () => {
    const task = running('watched');
    history.store.put(task);
    history.store.detach(task);
    expect(await nextLook()).toHaveLength(1);
    history.store.putWatched({ ...task, status: 'completed', cost: REPORTED });
    expect(await nextLook()).toHaveLength(1);
    // Ended: no more watching, and nothing more to say.
    history.store.putWatched({ ...task, status: 'completed', cost: REPORTED });
    expect(await nextLook()).toEqual([]);
  });

  it('fires when a task leaves the history and when it comes back', async () => {
    const task = makeRecord({ localId: 'kept', cost: REPORTED });
    history.store.put(task);
    await nextLook();
    history.store.delete('kept');
    expect(await nextLook()).toHaveLength(1);
    history.store.attach(task);
    expect(await nextLook()).toHaveLength(1);
  });

  it('fires when a task’s first image is saved (the screen shows it)', async () => {
    const task = makeRecord({ localId: 'drawn', cost: REPORTED, images: [] });
    history.store.put(task);
    await nextLook();
    history.store.put({ ...task, images: [makeImage(0)] });
    expect(await nextLook()).toHaveLength(1);
    history.store.put({ ...task, images: [makeImage(0)], favourite: true });
    expect(await nextLook()).toEqual([]);
  });

  it('fires for a price and a cap, set and cleared', async () => {
    const price = { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 5 } as const;
    const cap = { period: 'day', unit: 'USD', provider: null, kind: 'soft', micros: 9 } as const;
    history.store.costs.setPrice(price);
    expect(await nextLook()).toHaveLength(1);
    history.store.costs.setCap(cap);
    expect(await nextLook()).toHaveLength(1);
    history.store.costs.clearCaps({});
    history.store.costs.clearPrice('fal', '');
    expect(await nextLook()).toHaveLength(1);
  });

  it('fires for what another process (the CLI) wrote to the same library', async () => {
    const other = HistoryStore.open(history.file);
    try {
      other.put(running('elsewhere'));
      expect(await nextLook()).toHaveLength(1);
      other.put({ ...running('elsewhere'), cost: REPORTED, status: 'completed' });
      expect(await nextLook()).toHaveLength(1);
      other.costs.setCap({ period: 'month', unit: 'EUR', provider: null, kind: 'hard', micros: 1 });
      expect(await nextLook()).toHaveLength(1);
    } finally {
      other.close();
    }
  });

  it('stops looking when nobody listens', async () => {
    expect(clock.pending).toBe(1);
    stop();
    expect(clock.pending).toBe(0);
    history.store.put(running('unheard'));
    expect(await nextLook()).toEqual([]);
  });
});
