/**
 * fal.ai's profile end to end against the demo's fal dialect (see provider-scenarios.ts), and
 * what fal says that others do not: a waiting task's place in its queue.
 */
import { describe, expect, it } from 'vitest';
import { liveStateSchema } from '../../../shared/domain/live-state';
import { providerRig } from './provider-harness';
import { describeCancel, describeProvider, submitOne, untilAccepted } from './provider-scenarios';

describeProvider({ provider: 'fal', handles: ['poll', 'result', 'cancel'] });
describeCancel('fal');

describe('fal: a task’s place in the queue', () => {
  it('reaches the live state while the task waits, moves up with the queue, and goes once the task runs', async () => {
    // Each task waits in the demo's queue for the first third of its time: 10 s of clock time.
    const rig = await providerRig('fal', { durationMs: 30_000 });
    /** Each task's queue positions as its updates said them, a repeat left out. */
    const said = new Map<string, (number | undefined)[]>();
    const unsendable: unknown[] = [];
    rig.core.engine.onDidUpdate(({ record, live }) => {
      // What the window is sent: the IPC contract's schema must take it.
      if (!liveStateSchema().safeParse(live).success) unsendable.push(live);
      const positions = said.get(record.localId) ?? [];
      if (positions.length === 0 || positions.at(-1) !== live.queuePosition) {
        positions.push(live.queuePosition);
      }
      said.set(record.localId, positions);
    });
    rig.core.engine.start();
    // Three tasks a second apart: each has the ones before it ahead of it in the queue.
    const ids: string[] = [];
    for (const prompt of ['first in line', 'second in line', 'third in line']) {
      const localId = await submitOne(rig, prompt);
      await untilAccepted(rig, localId);
      ids.push(localId);
      await rig.pass(1_000);
    }
    const [first, second, third] = ids as [string, string, string];
    expect(rig.core.engine.live(first).queuePosition).toBe(0);
    expect(rig.core.engine.live(second).queuePosition).toBe(1);
    expect(rig.core.engine.live(third).queuePosition).toBe(2);

    const done = await rig.settle(ids);
    expect(done.map((record) => record.status)).toEqual(['completed', 'completed', 'completed']);
    // Before the first poll nothing is known; then the place, moving up; then none (running).
    expect(said.get(first)).toEqual([undefined, 0, undefined]);
    expect(said.get(second)).toEqual([undefined, 1, 0, undefined]);
    expect(said.get(third)).toEqual([undefined, 2, 1, 0, undefined]);
    for (const localId of ids)
      expect(rig.core.engine.live(localId)).not.toHaveProperty('queuePosition');
    expect(unsendable).toEqual([]);
    expect(rig.service.log.submits).toHaveLength(3);
  });
});
