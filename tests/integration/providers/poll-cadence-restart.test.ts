/**
 * The service is asked about a task every three seconds at most, whichever process asks: a
 * library closed and opened again (the app after a CLI command, or the reverse) takes the time
 * of the task's last poll from the history and keeps the interval, measured where the service
 * sees the requests (the demo on loopback, on the test's clock). A task whose last poll is older
 * is polled at once.
 */
import { describe, expect, it } from 'vitest';
import { providerRig, SIZE, type ProviderRig } from './provider-harness';

const INTERVAL = 3_000;

/** When the service was asked about `taskId`, in order. */
function pollsOf(r: ProviderRig, taskId: string): number[] {
  return r.service.log.polls.filter((entry) => entry.path.includes(taskId)).map((e) => e.at);
}

async function polledTask(r: ProviderRig): Promise<string> {
  r.core.engine.start();
  const [record] = await r.core.engine.submit({ prompt: 'cadence', size: SIZE.bfl }, r.target);
  await r.drive(() => r.core.engine.get(record!.localId)?.taskId != null);
  const taskId = r.core.engine.get(record!.localId)!.taskId!;
  await r.drive(() => pollsOf(r, taskId).length >= 2);
  return taskId;
}

describe('the poll interval across processes', () => {
  it.each([0, 400, 1_500, 2_900])(
    'keeps 3 s between polls when another process takes the task up %i ms after a poll',
    async (offset) => {
      const r = await providerRig('bfl', { durationMs: 3_600_000 }, { pollIntervalMs: INTERVAL });
      const taskId = await polledTask(r);
      if (offset > 0) await r.pass(offset);
      await r.restart();
      r.core.engine.start();
      const before = pollsOf(r, taskId).length;
      await r.drive(() => pollsOf(r, taskId).length >= before + 3);
      const polls = pollsOf(r, taskId);
      for (let i = 1; i < polls.length; i += 1) {
        expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(INTERVAL);
      }
    },
  );

  it('polls at once a task taken up long after its last poll', async () => {
    const r = await providerRig('bfl', { durationMs: 3_600_000 }, { pollIntervalMs: INTERVAL });
    const taskId = await polledTask(r);
    await r.core.close();
    await r.clock.advance(60_000);
    await r.restart();
    const startedAt = r.clock.now();
    r.core.engine.start();
    const before = pollsOf(r, taskId).length;
    await r.drive(() => pollsOf(r, taskId).length > before);
    expect(pollsOf(r, taskId).at(-1)).toBe(startedAt);
  });
});
