/**
 * A paused engine (the library changing folder) keeps its leases in the shared history: they are
 * renewed on the engine's clock and never let go, so no other Pictor process takes its tasks
 * over; after the pause the same task is polled again on its own id and completes, sent once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { ManualClock } from '../../fakes/manual-clock';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pausedCore(): Promise<{ core: PictorCore; demo: DemoService; clock: ManualClock }> {
  const dir = await tempFolder('pause-leases');
  cleanups.push(() => removeFolder(dir));
  // Tasks stay processing until the test completes them.
  const demo = await startDemoService({ durationMs: 3_600_000 });
  cleanups.push(() => demo.close());
  const clock = new ManualClock(Date.now());
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(demo.url, 'demo'),
    clock,
    localServers: OWNERS_UNREAD,
    engine: { pollIntervalMs: 100, leaseMs: 3_000 },
    ...bundledCoreWorkers(),
  });
  cleanups.push(() => core.close());
  return { core, demo, clock };
}

describe('TaskEngine.pause with a shared history', () => {
  it('keeps the leases of its tasks renewed while paused, then polls the same task again', async () => {
    const { core, demo, clock } = await pausedCore();
    core.engine.start();
    const accepted = new Promise<void>((resolve) => {
      const subscription = core.engine.onDidUpdate(({ record }) => {
        if (record.taskId === null) return;
        subscription.dispose();
        resolve();
      });
    });
    const [record] = await core.engine.submit(
      { prompt: 'held on to', size: '64x64' },
      targetAt(demo.url),
    );
    const localId = record!.localId;
    await accepted;
    const owner = core.history.leaseOf(localId)?.owner;
    expect(owner).toBeDefined();

    await core.engine.pause();
    const polls = demo.log.polls.length;
    // Ten lease lengths: a lease left alone would have ended many times over.
    await clock.advance(30_000);
    const lease = core.history.leaseOf(localId);
    expect(lease?.owner).toBe(owner);
    expect(lease!.expiresAt).toBeGreaterThan(clock.now());
    expect(demo.log.polls).toHaveLength(polls);

    core.engine.resume();
    const taskId = core.engine.get(localId)!.taskId!;
    demo.completeTask(taskId);
    const settled = core.engine.whenSettled([localId]);
    await clock.advance(200);
    const [done] = await settled;
    expect(done).toMatchObject({ status: 'completed', taskId });
    expect(demo.log.submits).toHaveLength(1);
    expect(demo.log.polls.length).toBeGreaterThan(polls);
  });
});
