/**
 * Black Forest Labs' profile end to end against the demo's bfl dialect (see
 * provider-scenarios.ts), and what only BFL has: no cancel, and a cap on a key's running tasks.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../../shared/domain/providers';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import { CROWD_TIMING, mostRunningAtOnce, providerRig, SIZE } from './provider-harness';
import { describeProvider, submitOne, untilAccepted } from './provider-scenarios';

describeProvider({ provider: 'bfl', handles: ['poll'] });

describe('bfl: what only BFL has', () => {
  it('refuses a cancel with a sentence that says BFL cannot, and sends nothing', async () => {
    const rig = await providerRig('bfl', { durationMs: 3_600_000 });
    rig.core.engine.start();
    const localId = await submitOne(rig, 'cannot be stopped');
    const { taskId } = await untilAccepted(rig, localId);
    const sent = rig.service.log.requests.length;
    await expect(rig.core.engine.cancelOnService(localId)).rejects.toMatchObject({
      sentence: { key: 'error.service.noCancel', params: { service: PROVIDERS.bfl.label } },
    });
    expect(rig.service.log.requests).toHaveLength(sent);
    expect(rig.stored(localId).canceledByUserAt).toBeUndefined();
    // The task goes on as before.
    rig.service.completeTask(taskId!);
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
    expect(done!.canceledByUserAt).toBeUndefined();
  });

  it('records the credits its submit answer says a task costs, and bills none for a moderated one', async () => {
    const rig = await providerRig('bfl', { cost: { where: 'submit', usage: 4.5 } });
    rig.core.engine.start();
    const localId = await submitOne(rig, 'a priced lake');
    const { cost } = await untilAccepted(rig, localId);
    expect(cost).toEqual({ source: 'reported', micros: 4_500_000, unit: 'credits', field: 'cost' });
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', cost });

    const moderated = await submitOne(rig, 'moderate this lake');
    expect((await untilAccepted(rig, moderated)).cost).toEqual(cost);
    const [ended] = await rig.settle([moderated]);
    expect(ended).toMatchObject({
      status: 'failed',
      error: { kind: 'moderated' },
      cost: { source: 'not_billed' },
    });
  });

  it('holds submits while a key has its most tasks running: the service never refuses one, and all complete', async () => {
    const cap = profileOf('bfl').maxInFlight!;
    // BFL's documented limit, the one the profile keeps; more tasks than it, in three submits.
    const rig = await providerRig('bfl', { maxActiveTasks: cap, durationMs: 20_000 }, CROWD_TIMING);
    rig.core.engine.start();
    const total = cap + 6;
    const records = [
      ...(await rig.core.engine.submit({ prompt: 'a crowd', size: SIZE.bfl }, rig.target, 10)),
      ...(await rig.core.engine.submit({ prompt: 'a crowd', size: SIZE.bfl }, rig.target, 10)),
      ...(await rig.core.engine.submit(
        { prompt: 'a crowd', size: SIZE.bfl },
        rig.target,
        total - 20,
      )),
    ];
    const done = await rig.settle(records.map((record) => record.localId));
    expect(done.map((record) => record.status)).toEqual(records.map(() => 'completed'));
    expect(done.every((record) => record.images[0]?.state === 'saved')).toBe(true);
    const submits = rig.service.log.submits;
    expect(submits.map((entry) => entry.status)).toEqual(records.map(() => 200));
    const tasks = rig.service.tasks();
    expect(tasks).toHaveLength(total);
    // The cap was reached, never passed; the later submits waited for a task to end.
    expect(mostRunningAtOnce(tasks)).toBe(cap);
    const firstEnd = Math.min(...tasks.map((task) => task.completesAt));
    const laterStarts = [...tasks]
      .sort((a, b) => a.createdAt - b.createdAt)
      .slice(cap)
      .map((task) => task.createdAt);
    for (const start of laterStarts) expect(start).toBeGreaterThanOrEqual(firstEnd);
  });
});
