/**
 * Today's contract through the same provider-aware core (credentials naming `pictor`), and what
 * profiles add between services: a key entered for one kind of service never goes with a task
 * of another.
 */
import { describe, expect, it } from 'vitest';
import { providerOf } from '../../../shared/domain/providers';
import { KEY, keySightings, providerRig } from './provider-harness';
import { expectKeyOnlyInItsHeader, submitOne, untilAccepted } from './provider-scenarios';

describe('pictor and the other profiles side by side', () => {
  it('today’s contract: one submit, a saved PNG, a record as earlier releases wrote it (no provider, no addresses)', async () => {
    const rig = await providerRig('pictor');
    rig.core.engine.start();
    const localId = await submitOne(rig, 'a plain contract');
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({
      status: 'completed',
      images: [{ state: 'saved', mime: 'image/png' }],
    });
    // Today's contract stays unnamed, so its records read the same in earlier releases.
    expect(providerOf(done!)).toBe('pictor');
    expect(done!.provider).toBeUndefined();
    expect(done!.handles).toBeUndefined();
    expect(rig.stored(localId).provider).toBeUndefined();
    expect(rig.service.log.submits).toHaveLength(1);
    expectKeyOnlyInItsHeader(rig);
  });

  it('a fal task waits, sending nothing, while the key is entered for another kind of service', async () => {
    const rig = await providerRig('fal', { durationMs: 3_600_000 });
    rig.core.engine.start();
    const localId = await submitOne(rig, 'one service’s task');
    const { taskId } = await untilAccepted(rig, localId);
    rig.credentials.setProvider('pictor');
    rig.core.engine.keyChanged();
    await rig.drive(() => rig.core.engine.get(localId)?.hold === 'awaiting_key');
    const sent = rig.service.log.requests.length;
    // Polls due meanwhile would have gone out by now: none did.
    await rig.pass(10_000);
    expect(rig.service.log.requests).toHaveLength(sent);
    expect(rig.stored(localId)).toMatchObject({
      status: 'processing',
      hold: 'awaiting_key',
      error: { sentence: { key: 'error.service.wrongProviderKey' } },
    });
    // The key entered for fal again: the task continues and completes, sent once.
    rig.credentials.setProvider('fal');
    rig.service.completeTask(taskId!);
    rig.core.engine.keyChanged();
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', hold: null, images: [{ state: 'saved' }] });
    expect(rig.service.log.submits).toHaveLength(1);
    expect(
      keySightings(rig.service.log.requests, KEY).every((seen) => seen.value === `Key ${KEY}`),
    ).toBe(true);
  });
});
