/**
 * Quit mid-run and restart: every task resumes and no service sees a second submit
 * (electron/core/engine/send-mark.ts). The real core against the demo's bfl dialect on one manual
 * clock: a batch larger than BFL's cap on a key's running tasks waits for room, part of it stored
 * but never sent when the app quits; the next start sends that part, once each, and polls the rest.
 */
import { describe, expect, it } from 'vitest';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { syncFingerprint } from '../../fakes/static-credentials';
import { CROWD_TIMING, KEY, providerRig, SIZE, type ProviderRig } from './provider-harness';

/** A task as a process stored it before sending it; `sendState` absent: an earlier version's. */
function stored(rig: ProviderRig, localId: string, fields: Partial<TaskRecord>): TaskRecord {
  const record = newTaskRecord(
    {
      localId,
      taskId: null,
      origin: 'submitted',
      endpoint: rig.service.url,
      account: syncFingerprint(KEY),
      provider: 'bfl',
      request: { prompt: `left as ${localId}`, size: SIZE.bfl },
    },
    rig.clock.now(),
  );
  return { ...record, ...fields };
}

describe('bfl: tasks stored but never sent, across a quit', () => {
  it('sends the part of a batch that waited for room once each, and never sends the rest again', async () => {
    const cap = profileOf('bfl').maxInFlight!;
    const rig = await providerRig('bfl', { maxActiveTasks: cap, durationMs: 20_000 }, CROWD_TIMING);
    rig.core.engine.start();
    const request = { prompt: 'a crowd at the gate', size: SIZE.bfl };
    const records = await rig.core.engine.submit(request, rig.target, cap + 3);
    const ids = records.map((record) => record.localId);
    const accepted = (): string[] => ids.filter((id) => rig.stored(id).taskId !== null);
    await rig.drive(() => accepted().length === cap);
    const running = new Map(accepted().map((id) => [id, rig.stored(id).taskId]));
    const waiting = ids.filter((id) => !running.has(id));
    for (const id of waiting) {
      expect(rig.stored(id)).toMatchObject({ status: 'submitting', sendState: 'queued' });
    }
    expect(rig.service.log.submits).toHaveLength(cap);

    await rig.restart();
    rig.core.engine.start();
    const done = await rig.settle(ids);
    expect(done.map((record) => record.status)).toEqual(ids.map(() => 'completed'));
    expect(done.every((record) => record.images[0]?.state === 'saved')).toBe(true);
    // One submit a task, every one taken: the running ones polled on under their ids.
    expect(rig.service.log.submits.map((entry) => entry.status)).toEqual(ids.map(() => 200));
    expect(rig.service.tasks()).toHaveLength(ids.length);
    for (const [id, taskId] of running) expect(rig.stored(id).taskId).toBe(taskId);
    // The batch's tasks, each under its own id: the waiting ones were sent once room freed.
    const ended = Math.min(...rig.service.tasks().map((task) => task.completesAt));
    for (const id of waiting) {
      const task = rig.service.tasks().find((one) => one.id === rig.stored(id).taskId);
      expect(task?.createdAt).toBeGreaterThanOrEqual(ended);
      expect(rig.stored(id).batchId).toBe(ids[0]);
    }
  });

  it('never sends a task whose process ended after its mark, before its request left', async () => {
    const rig = await providerRig('bfl');
    // The fault: the request is never handed over, and the process ends.
    rig.core.client.submit = (_credentials, _request, signal) =>
      new Promise((_, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    rig.core.engine.start();
    const [record] = await rig.core.engine.submit(
      { prompt: 'cut off', size: SIZE.bfl },
      rig.target,
    );
    await rig.drive(() => rig.stored(record!.localId).sendState === 'sent');
    await rig.restart();
    rig.core.engine.start();
    const [after] = await rig.settle([record!.localId]);
    expect(after).toMatchObject({ status: 'submit_unknown', error: { kind: 'interrupted' } });
    expect(rig.service.log.submits).toHaveLength(0);
  });

  it('keeps an earlier version’s record to today’s rule, and sends a queued one beside it', async () => {
    const rig = await providerRig('bfl');
    rig.core.history.putMany([
      stored(rig, 'earlier-version', {}),
      stored(rig, 'earlier-after-429', {
        error: { kind: 'rate_limited', message: 'Too many requests.', httpStatus: 429 },
      }),
      stored(rig, 'queued', { sendState: 'queued' }),
    ]);
    rig.core.engine.start();
    const done = await rig.settle(['earlier-version', 'earlier-after-429', 'queued']);
    expect(done.map((record) => record.status)).toEqual([
      'submit_unknown',
      'submit_failed',
      'completed',
    ]);
    expect(rig.service.log.submits.map((entry) => entry.status)).toEqual([200]);
  });
});
