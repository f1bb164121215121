/**
 * A request's time limit runs on the core's clock (service-client.ts, time-limit.ts): on a manual
 * clock a poll the service never answers is ended when the clock reaches its limit, not after
 * that much real time, and not before. The task is kept and polled again; nothing is submitted
 * twice. Real core, demo service on loopback, its `hang` fault.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { ManualClock } from '../../fakes/manual-clock';
import { StaticCredentials } from '../../fakes/static-credentials';
import { targetAt } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { openTestCore } from './core-harness';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const LIMIT_MS = 15_000;
const INTERVAL_MS = 3_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openOver(clock: ManualClock, demo: DemoService): Promise<PictorCore> {
  const dir = await tempFolder('time-limit');
  cleanups.push(() => removeFolder(dir));
  const core = await openTestCore(dir, new StaticCredentials(demo.url, 'demo'), {
    clock,
    requestTimeoutMs: LIMIT_MS,
    engine: { pollIntervalMs: INTERVAL_MS, maxBackoffMs: INTERVAL_MS },
  });
  cleanups.push(() => core.close());
  return core;
}

describe('a request the service never answers', () => {
  it('is ended when the core’s clock reaches its time limit; the task is polled again, never resubmitted', async () => {
    const clock = new ManualClock(Date.now());
    const demo = await startDemoService({ durationMs: 4 * INTERVAL_MS, now: () => clock.now() });
    cleanups.push(() => demo.close());
    demo.addFault({ route: 'poll', effect: { type: 'hang' }, times: 1 });
    const core = await openOver(clock, demo);
    core.engine.start();
    const [record] = await core.engine.submit(
      { prompt: 'never answered', size: '64x64' },
      targetAt(demo.url),
    );
    const localId = record!.localId;
    await vi.waitFor(() => expect(core.engine.get(localId)?.taskId).toBeTruthy(), UNTIL);

    // The first poll goes out and the service holds it without a word.
    await clock.advance(INTERVAL_MS);
    await vi.waitFor(() => expect(demo.log.polls).toHaveLength(1), UNTIL);
    expect(core.engine.isAsking(localId)).toBe(true);
    const sentAt = clock.now();
    const sentReally = performance.now();

    // A moment short of the limit on the clock the request is still out (however long that took).
    await clock.advance(LIMIT_MS - 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(core.engine.isAsking(localId), 'ended before its limit').toBe(true);

    // At the limit it ends, with no more real time than the loopback needs.
    await clock.advance(1);
    await vi.waitFor(() => expect(core.engine.isAsking(localId)).toBe(false), UNTIL);
    expect(clock.now() - sentAt).toBe(LIMIT_MS);
    // On the real clock it would have taken the whole limit: the end came from the core's clock.
    expect(performance.now() - sentReally, 'waited for the limit in real time').toBeLessThan(
      LIMIT_MS,
    );
    expect(core.engine.get(localId)?.status).not.toBe('failed');

    // The task is kept: polled again (the fault is spent) until it completes, on its one submit.
    // The clock moves only while no request is out, so none meets its limit but by the fault.
    for (let step = 0; core.engine.get(localId)?.status !== 'completed'; step += 1) {
      expect(step, JSON.stringify(core.engine.get(localId))).toBeLessThan(100);
      await vi.waitFor(() => expect(core.engine.isAsking(localId)).toBe(false), UNTIL);
      await clock.advance(INTERVAL_MS);
    }
    expect(demo.log.submits).toHaveLength(1);
    expect(demo.log.polls.length).toBeGreaterThan(1);
    expect(new Set(demo.log.polls.map((entry) => entry.path)).size).toBe(1);
  });
});
