/**
 * A compare over two dialects quit mid-run, with tasks stored but never sent: fal's one waiting
 * to retry after a 429 (the service took nothing), BFL's last three waiting for room under its
 * cap on a key's running tasks. The next start sends each of those once, polls every task the
 * services took, and no service sees a second submit of any task (electron/core/engine/send-mark.ts).
 */
import { describe, expect, it } from 'vitest';
import { planCompare } from '../../../electron/core/compare/compare-plan';
import { runCompare } from '../../../electron/core/compare/compare-run';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { compareWorld } from './compare-harness';
import { UNTIL } from '../../support/waits';

const PROMPTS = ['a lighthouse at dusk', 'a lighthouse at dawn', 'a lighthouse in fog'];

describe('a compare quit while some of its tasks wait to be sent', () => {
  it('sends those once each after the restart, and never sends the others again', async () => {
    const cap = profileOf('bfl').maxInFlight!;
    const world = await compareWorld({
      fal: {},
      // BFL's tasks finish when the test says (completeTask), so the cap holds until then.
      bfl: { durationMs: 3_600_000, maxActiveTasks: cap },
    });
    world.service('fal').addFault({
      route: 'submit',
      effect: { type: 'status', status: 429, retryAfter: 600 },
      times: 1,
    });
    const bflCount = Math.ceil((cap + 3) / PROMPTS.length);
    const plan = await planCompare(
      { credentials: world.credentials, costs: world.core.costs },
      {
        prompts: PROMPTS,
        targets: [
          { provider: 'fal', baseUrl: world.urlOf('fal') },
          { provider: 'bfl', baseUrl: world.urlOf('bfl'), count: bflCount },
        ],
      },
    );
    world.core.engine.start({ resume: false });
    const started = await runCompare(world.core.engine, plan);
    const ids = started.map((record) => record.localId);
    const bflTotal = PROMPTS.length * bflCount;
    expect(ids).toHaveLength(PROMPTS.length + bflTotal);
    const stored = (): TaskRecord[] => ids.map((id) => world.core.history.get(id)!);
    const onBfl = (record: TaskRecord) => record.provider === 'bfl';
    const queued = (record: TaskRecord) =>
      record.status === 'submitting' && record.sendState === 'queued';
    // fal: two taken, one waiting out its 429; BFL: its cap running, the rest waiting for room.
    await expect
      .poll(() => {
        const now = stored();
        return {
          falTaken: now.filter((r) => !onBfl(r) && r.taskId !== null).length,
          falWaiting: now.filter((r) => !onBfl(r) && queued(r) && r.error?.kind === 'rate_limited')
            .length,
          bflTaken: now.filter((r) => onBfl(r) && r.taskId !== null).length,
          bflWaiting: now.filter((r) => onBfl(r) && queued(r)).length,
        };
      }, UNTIL)
      .toEqual({ falTaken: 2, falWaiting: 1, bflTaken: cap, bflWaiting: bflTotal - cap });
    const taken = new Map(stored().map((record) => [record.localId, record.taskId]));
    await world.core.close();

    const reopened = await world.open();
    try {
      reopened.engine.start({ resume: true });
      let settled: TaskRecord[] | null = null;
      void reopened.engine.whenSettled(ids).then((records) => (settled = records));
      const bfl = world.service('bfl');
      await expect
        .poll(() => {
          for (const task of bfl.tasks())
            if (task.status === 'processing') bfl.completeTask(task.id);
          return settled !== null;
        }, UNTIL)
        .toBe(true);
      const done = settled! as TaskRecord[];
      expect(done.map((record) => record.status)).toEqual(ids.map(() => 'completed'));
      // The 429 took nothing; every other submit was a task's one and only.
      expect(world.service('fal').log.submits.map((entry) => entry.status)).toEqual([
        429, 200, 200, 200,
      ]);
      expect(bfl.log.submits.map((entry) => entry.status)).toEqual(
        Array.from({ length: bflTotal }, () => 200),
      );
      for (const record of done) {
        const before = taken.get(record.localId);
        if (before !== null) expect(record.taskId).toBe(before);
        expect(record.compare?.group).toBe(plan.group);
      }
    } finally {
      await reopened.close();
    }
  }, 60_000);
});
