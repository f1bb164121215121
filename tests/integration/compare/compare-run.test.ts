/**
 * A compare on three demo dialects over loopback through the real core: one target answered 429
 * with Retry-After at its submit, one 402 (no credits), one that simply works. Each outcome is
 * recorded, the 429 one is sent again only because the service accepted nothing, and every
 * service sees exactly one accepted submit per task, also across a quit and a reopen.
 */
import { describe, expect, it } from 'vitest';
import { planCompare } from '../../../electron/core/compare/compare-plan';
import {
  cancelCompare,
  compareTasks,
  runCompare,
} from '../../../electron/core/compare/compare-run';
import { TaskCancels } from '../../../electron/core/batch/cancel-tasks';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { acceptedSubmits, compareWorld } from './compare-harness';

const USD = (micros: number) => ({ unit: 'USD' as const, basis: 'image' as const, micros });

async function threeWays() {
  const world = await compareWorld({
    fal: { rateLimit: 1 },
    replicate: { accounts: [{ account: 'alice', key: 'r8_compare-90a4c1e7', credits: 0 }] },
    bfl: {},
  });
  world.core.costs.setPrice({ provider: 'fal', model: '', ...USD(30_000) });
  world.core.costs.setPrice({ provider: 'bfl', model: '', ...USD(40_000) });
  const plan = await planCompare(
    { credentials: world.credentials, costs: world.core.costs },
    {
      prompts: ['a lighthouse at dusk'],
      targets: [
        { provider: 'fal', baseUrl: world.urlOf('fal') },
        { provider: 'replicate', baseUrl: world.urlOf('replicate') },
        { provider: 'bfl', baseUrl: world.urlOf('bfl') },
      ],
    },
  );
  return { world, plan };
}

function bySlot(records: readonly TaskRecord[], slot: number): TaskRecord {
  const found = records.find((record) => record.compare?.slot === slot);
  if (!found) throw new Error(`no task in slot ${slot}`);
  return found;
}

describe('a compare over three dialects', () => {
  it('records each outcome, waits out the 429, and leaves the others going after the 402', async () => {
    const { world, plan } = await threeWays();
    expect(plan.leftOut).toEqual([]);
    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    expect(started).toHaveLength(3);
    expect(new Set(started.map((record) => record.compare?.group))).toEqual(new Set([plan.group]));
    const done = await world.core.engine.whenSettled(started.map((record) => record.localId));

    const fal = bySlot(done, 1);
    expect(fal.status).toBe('completed');
    expect(fal.images.every((image) => image.state === 'saved')).toBe(true);
    expect(world.service('fal').log.submits.map((entry) => entry.status)).toEqual([429, 200]);
    expect(acceptedSubmits(world.service('fal'))).toBe(1);

    const replicate = bySlot(done, 2);
    expect(replicate.status).toBe('submit_failed');
    expect(replicate.error?.kind).toBe('credits');
    expect(acceptedSubmits(world.service('replicate'))).toBe(0);

    const bfl = bySlot(done, 3);
    expect(bfl.status).toBe('completed');
    expect(acceptedSubmits(world.service('bfl'))).toBe(1);

    // The group's cost is the ledger's for its tasks.
    const ids = new Set(done.map((record) => record.localId));
    const ledger = world.core.costs.entries().filter((entry) => ids.has(entry.localId));
    const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
    const recorded = done.map((record) =>
      record.cost && 'micros' in record.cost ? record.cost.micros : 0,
    );
    const ledgered = ledger.map((entry) =>
      entry.cost && 'micros' in entry.cost ? entry.cost.micros : 0,
    );
    expect(sum(recorded)).toBe(70_000);
    expect(sum(ledgered)).toBe(sum(recorded));

    // The Compare group filter brings the group back, tasks and images.
    expect(compareTasks(world.core.history, plan.group).map((r) => r.compare?.slot)).toEqual([
      1, 2, 3,
    ]);
    const images = world.core.history.listImages({ compareGroup: plan.group, limit: 50 });
    expect(images.items.map((item) => item.localId).sort()).toEqual(
      [fal.localId, bfl.localId].sort(),
    );
    expect(world.core.history.list({ compareGroup: crypto.randomUUID() }).items).toEqual([]);
  }, 30_000);

  it('resumes every task after a quit mid-run, and no service sees a second accepted submit', async () => {
    const { world, plan } = await threeWays();
    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    const ids = started.map((record) => record.localId);
    // Quit once both accepted tasks run on their services (the 429 one after its wait) and the
    // engine has their ids: a quit while an accepted submit's answer is still on its way ends
    // that task "submit_unknown" (never sent again), which is the engine's rule, not this test's.
    const known = () =>
      ids.filter((id) => (world.core.history.get(id)?.taskId ?? null) !== null).length;
    await expect.poll(known, { timeout: 10_000 }).toBe(2);
    expect(acceptedSubmits(world.service('fal')) + acceptedSubmits(world.service('bfl'))).toBe(2);
    await world.core.close();

    const reopened = await world.open();
    try {
      reopened.engine.start({ resume: true });
      const done = await reopened.engine.whenSettled(ids);
      expect(done.map((record) => record.status).sort()).toEqual([
        'completed',
        'completed',
        'submit_failed',
      ]);
      for (const record of done.filter((r) => r.status === 'completed'))
        expect(record.images.every((image) => image.state === 'saved')).toBe(true);
      expect(acceptedSubmits(world.service('fal'))).toBe(1);
      expect(acceptedSubmits(world.service('bfl'))).toBe(1);
      expect(acceptedSubmits(world.service('replicate'))).toBe(0);
    } finally {
      await reopened.close();
    }
  }, 30_000);
});

describe('Cancel all', () => {
  it('cancels each running task of the group where its service can, and leaves the rest', async () => {
    const world = await compareWorld({
      fal: { durationMs: { min: 60_000, max: 60_000 } },
      bfl: { durationMs: { min: 60_000, max: 60_000 } },
    });
    const plan = await planCompare(
      { credentials: world.credentials, costs: world.core.costs },
      {
        prompts: ['a slow kite'],
        targets: [
          { provider: 'fal', baseUrl: world.urlOf('fal') },
          { provider: 'bfl', baseUrl: world.urlOf('bfl') },
        ],
      },
    );
    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    await expect
      .poll(() => started.map((r) => world.core.engine.get(r.localId)?.status), { timeout: 10_000 })
      .toEqual(['processing', 'processing']);
    const cancels = new TaskCancels(world.core.engine, systemClock);
    const outcomes = await cancelCompare(world.core.history, cancels, plan.group);
    const kinds = Object.fromEntries(outcomes.map((o) => [o.record?.compare?.slot, o.kind]));
    // fal cancels; BFL has no cancel: its task runs on, as it says.
    expect(kinds).toEqual({ 1: 'canceled', 2: 'unsupported' });
    expect(world.core.engine.get(started[0]?.localId ?? '')?.error?.kind).toBe('canceled');
    expect(world.core.engine.get(started[1]?.localId ?? '')?.status).toBe('processing');
    // Nothing left to cancel in the group but the task its service cannot stop.
    const again = await cancelCompare(world.core.history, cancels, plan.group);
    expect(again.map((o) => o.kind)).toEqual(['unsupported']);
  }, 30_000);
});
