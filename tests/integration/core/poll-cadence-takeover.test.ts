/**
 * A task taken over from a process that ended without letting it go (crashed, killed) may have
 * been polled a moment before, with that poll's time not yet on disk (a poll's bookkeeping is
 * written later: bookkeeping-writes.ts). The process taking it over waits one interval before
 * asking, so the service, on loopback and on the test's clock, never sees two polls of the task
 * less than 3 s apart.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { THIS_HOST } from '../../../electron/core/fs/process-owner';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { startDemoService } from '../../../electron/demo-service/server';
import { ManualClock } from '../../fakes/manual-clock';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';
import { answered, countedTransport } from '../../support/in-flight';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const INTERVAL = 3_000;
/** An owner on this machine whose process cannot exist (above any pid the kernel gives). */
const DEAD_OWNER = `${THIS_HOST}:2000000000:gone`;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a task taken over from a process that ended without letting go', () => {
  it('is polled no sooner than one interval after that process’s last poll', async () => {
    const dir = await tempFolder('takeover-cadence');
    cleanups.push(() => removeFolder(dir));
    const clock = new ManualClock(Date.now());
    const demo = await startDemoService({ durationMs: 3_600_000, now: () => clock.now() });
    cleanups.push(() => demo.close());
    const requests = countedTransport((url: string | URL | Request, init?: RequestInit) =>
      fetch(url, init),
    );
    const open = async (): Promise<PictorCore> => {
      const core = await openPictorCore({
        imageEngine: testImageEngine,
        dataDir: join(dir, 'data'),
        galleryDir: join(dir, 'gallery'),
        fetch: requests.transport,
        credentials: new StaticCredentials(demo.url, 'demo'),
        clock,
        localServers: OWNERS_UNREAD,
        engine: { pollIntervalMs: INTERVAL },
        ...bundledCoreWorkers(),
      });
      cleanups.push(() => core.close());
      return core;
    };
    const pollsOf = (taskId: string) =>
      demo.log.polls.filter((entry) => entry.path.includes(taskId)).map((entry) => entry.at);
    /**
     * Moves the clock in small steps until `done`, standing still while a request is out or the
     * service answers (in-flight.ts): a request reaches the service at the time the engine sent it.
     */
    const until = async (done: () => boolean): Promise<void> => {
      for (let step = 0; !done(); step += 1) {
        expect(
          step,
          `${done.toString()} ${JSON.stringify(demo.log.polls.map((e) => [e.at, e.path, e.status]))}`,
        ).toBeLessThan(2_000);
        await clock.advance(50);
        // A turn of real time for what the step set off to reach the transport, then none while
        // its request is out.
        await new Promise<void>((resolve) => setTimeout(resolve, 2));
        await answered(() => requests.busy() || demo.answering() > 0);
      }
    };

    const first = await open();
    first.engine.start();
    const [record] = await first.engine.submit(
      { prompt: 'left behind', size: '64x64' },
      targetAt(demo.url),
    );
    const localId = record!.localId;
    await until(() => first.engine.get(localId)?.taskId != null);
    const taskId = first.engine.get(localId)!.taskId!;
    await until(() => pollsOf(taskId).length >= 2 && !first.engine.live(localId).polling);
    // The first process goes quiet with its last poll's time in memory only, and its lease
    // reads as a dead process's: what a crash right after a poll leaves.
    await first.engine.pause();
    expect(first.history.get(localId)?.lastPolledAt ?? 0).toBeLessThan(pollsOf(taskId).at(-1)!);
    first.history.releaseLeases(first.history.leaseOf(localId)!.owner);
    first.history.claimLeases([localId], DEAD_OWNER, clock.now(), clock.now() + 45_000);

    const second = await open();
    second.engine.start();
    expect(second.history.leaseOf(localId)?.owner).not.toBe(DEAD_OWNER);
    const before = pollsOf(taskId).length;
    await until(() => pollsOf(taskId).length >= before + 2);
    const polls = pollsOf(taskId);
    for (let i = 1; i < polls.length; i += 1) {
      expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(INTERVAL);
    }
  });
});
