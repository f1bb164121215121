/**
 * After a crash and a restart the app carries on at once with tasks the dead process
 * leased (its pid is gone), while a task leased by a live process waits for that lease to end;
 * a pid reused by another process only delays, never locks out; and a task leased by a process
 * the app cannot see (another machine) waits for the lease to end too. The core runs on the
 * manual clock (support/clock-driver.ts): "at once" and "at the lease's end" are read from the
 * clock the engine keeps, whatever the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { ClockDriver } from '../support/clock-driver';

let service: QuirkyService | undefined;
let core: PictorCore | undefined;
let dir: string | undefined;
afterEach(async () => {
  await core?.close();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

describe('a task whose lease another process holds', () => {
  it('is taken at once from a dead process, and only at the end from a live or unknown one', async () => {
    service = await startQuirkyService({ durationMs: 200 });
    dir = await mkdtemp(join(tmpdir(), 'pictor-lease-owner-'));
    const driver = new ClockDriver();
    const now = driver.clock.now();
    const owners = {
      dead: `${hostname()}:${deadPid()}:crashed-app`,
      live: `${hostname()}:${process.ppid}:running-cli`,
      elsewhere: `another-machine:${deadPid()}:remote`,
    };
    const records: Record<keyof typeof owners, TaskRecord> = {
      dead: task('dead', now),
      live: task('live', now),
      elsewhere: task('elsewhere', now),
    };
    const store = HistoryStore.open(join(dir, HISTORY_FILE));
    store.putMany(Object.values(records));
    // Leases that end in 3 s (a killed process's lease runs on until its end).
    for (const [name, owner] of Object.entries(owners))
      store.claimLeases([records[name as keyof typeof owners].localId], owner, now, now + 3_000);
    store.close();

    // When the engine first asked for each task, on its own clock.
    const firstPoll = new Map<string, number>();
    core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: dir,
      galleryDir: join(dir, 'gallery'),
      fetch: (url, init) => {
        const taskId = /\/v1\/tasks\/([^/?]+)/.exec(url)?.[1];
        if (taskId && !firstPoll.has(taskId)) firstPoll.set(taskId, driver.clock.now());
        return driver.fetch(url, init);
      },
      credentials: new StaticCredentials(service.baseUrl, QUIRKY_KEYS.alice),
      clock: driver.coreClock,
      engine: { pollIntervalMs: 100 },
    });
    core.engine.start({ resume: true });
    const ids = Object.values(records).map((record) => record.localId);
    driver.watch(core.engine, ids);
    const polledAt = (record: TaskRecord) => firstPoll.get(record.taskId!);
    await driver.runUntil(
      () => Object.values(records).every((record) => polledAt(record) !== undefined),
      60_000,
    );
    // At once: the first moment of the engine's life, not a poll interval later.
    expect(polledAt(records.dead)).toBe(now);
    expect(polledAt(records.live)).toBeGreaterThanOrEqual(now + 3_000);
    expect(polledAt(records.elsewhere)).toBeGreaterThanOrEqual(now + 3_000);
    // The service finishes its tasks in real time (200 ms): poll on until it has.
    let settled = false;
    void core.engine.whenSettled(ids).then(() => {
      settled = true;
    });
    await driver.runUntil(() => settled, 3_600_000);
    for (const record of Object.values(records))
      expect(core.history.get(record.localId)?.status).toBe('completed');
  });
});

function task(name: string, now: number): TaskRecord {
  const taskId = service!.createTaskFor('alice', `left by the ${name} process`);
  return {
    ...newTaskRecord(
      {
        localId: `local-${name}`,
        taskId,
        origin: 'submitted',
        endpoint: service!.baseUrl,
        account: syncFingerprint(QUIRKY_KEYS.alice),
        request: { prompt: `left by the ${name} process` },
      },
      now - 10_000,
    ),
    status: 'processing',
    submittedAt: now - 10_000,
    watchStartedAt: now - 10_000,
  };
}
