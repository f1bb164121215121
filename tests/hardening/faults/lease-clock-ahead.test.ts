/**
 * A task leased by a Pictor process of ANOTHER machine (a library on a shared drive), whose lease
 * was stamped by a clock an hour ahead of this one: this machine's clock was set back an hour
 * after the lease was written, or the other machine's runs an hour fast. Its owner cannot be asked
 * whether it lives, so the lease is waited out, but by a lease length of this process's own timers
 * at most (45 s), never the hour the clocks differ: a lease its owner stopped renewing is over.
 * One its owner keeps renewing (every 15 s, each an hour ahead) is never taken, however long.
 *
 * The real core on the manual clock (support/clock-driver.ts) against a scripted service on
 * loopback; the other machine's process is played by the test writing its lease into the shared
 * history, as that process would.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { ClockDriver } from '../support/clock-driver';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The engine's lease length (DEFAULT_ENGINE_OPTIONS.leaseMs) and its owner's renewal. */
const LEASE_MS = 45_000;
const RENEW_MS = LEASE_MS / 3;
/** How far ahead of this machine's clock the other machine's leases are stamped. */
const AHEAD_MS = 3_600_000;
const OWNER = 'render-box.example:4242:the-other-machine';

let service: QuirkyService | undefined;
let core: PictorCore | undefined;
let other: HistoryStore | undefined;
let dir: string | undefined;
afterEach(async () => {
  other?.close();
  other = undefined;
  await core?.close();
  core = undefined;
  await service?.close();
  service = undefined;
  if (dir) await removeFolder(dir);
  dir = undefined;
});

function task(now: number): TaskRecord {
  const prompt = 'left by the other machine';
  const taskId = service!.createTaskFor('alice', prompt);
  return {
    ...newTaskRecord(
      {
        localId: 'local-elsewhere',
        taskId,
        origin: 'submitted',
        endpoint: service!.baseUrl,
        account: syncFingerprint(QUIRKY_KEYS.alice),
        request: { prompt },
      },
      now - 10_000,
    ),
    status: 'processing',
    submittedAt: now - 10_000,
  };
}

/**
 * A library holding the task, leased to the other machine's process (written with its clock, an
 * hour ahead), and the core started on it; `renew` writes that lease again, as its owner does.
 */
async function leasedElsewhere(driver: ClockDriver) {
  service = await startQuirkyService({ durationMs: 200 });
  dir = await tempFolder('lease-ahead');
  const record = task(driver.clock.now());
  other = HistoryStore.open(join(dir, HISTORY_FILE));
  other.putMany([record]);
  const renew = () => {
    const theirNow = driver.clock.now() + AHEAD_MS;
    expect(other!.claimLeases([record.localId], OWNER, theirNow, theirNow + LEASE_MS)).toEqual([
      record.localId,
    ]);
  };
  renew();
  const polls: number[] = [];
  core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: dir,
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => {
      if (url.includes(`/v1/tasks/${record.taskId}`)) polls.push(driver.clock.now());
      return driver.fetch(url, init);
    },
    credentials: new StaticCredentials(service.baseUrl, QUIRKY_KEYS.alice),
    clock: driver.coreClock,
    localServers: OWNERS_UNREAD,
    engine: { pollIntervalMs: 1_000 },
    ...bundledCoreWorkers(),
  });
  core.engine.start({ resume: true });
  driver.watch(core.engine, [record.localId]);
  return { record, polls, renew };
}

describe("another machine's lease stamped by a clock an hour ahead", () => {
  it('left unrenewed, is taken over within a lease length of this clock, not an hour', async () => {
    const driver = new ClockDriver();
    const start = driver.clock.now();
    const { record, polls } = await leasedElsewhere(driver);
    await driver.advanceTo(start + LEASE_MS - 1_000);
    expect(polls).toHaveLength(0);
    await driver.runUntil(() => polls.length > 0, AHEAD_MS);
    expect(polls[0]).toBeGreaterThanOrEqual(start + LEASE_MS);
    // A lease length, the look a little after it, and the interval a task taken from a process
    // that did not let go waits (its last poll may not be on disk).
    expect(polls[0]).toBeLessThanOrEqual(start + LEASE_MS + 2_000);
    expect(core!.history.leaseOf(record.localId)?.owner).not.toBe(OWNER);
  });

  it('renewed by its owner, is never taken; once it stops, within a lease length', async () => {
    const driver = new ClockDriver();
    const start = driver.clock.now();
    const { polls, renew } = await leasedElsewhere(driver);
    // Four lease lengths, renewed every third of one, as a live owner does.
    let at = start;
    for (let renewal = 1; renewal <= 12; renewal += 1) {
      at += RENEW_MS;
      await driver.advanceTo(at);
      renew();
    }
    expect(polls).toHaveLength(0);
    const stopped = driver.clock.now();
    await driver.runUntil(() => polls.length > 0, AHEAD_MS);
    expect(polls[0]).toBeGreaterThanOrEqual(stopped + LEASE_MS - RENEW_MS);
    expect(polls[0]).toBeLessThanOrEqual(stopped + LEASE_MS + 2_000);
  });
});
