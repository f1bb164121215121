/**
 * After a crash and a restart the app carries on at once with tasks the dead process
 * leased (its pid is gone), while a task leased by a live process waits for that lease to end;
 * a pid reused by another process only delays, never locks out; and a task leased by a process
 * the app cannot see (another machine) waits for the lease to end too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';

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
    const now = Date.now();
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

    core = await openPictorCore({
      imageEngine: testImageEngine,
      dataDir: dir,
      galleryDir: join(dir, 'gallery'),
      fetch,
      credentials: new StaticCredentials(service.baseUrl, QUIRKY_KEYS.alice),
      clock: systemClock,
      engine: { pollIntervalMs: 100 },
    });
    const started = Date.now();
    core.engine.start({ resume: true });
    const polledAt = (record: TaskRecord) => service!.polls(record.taskId!)[0]?.at;
    await vi.waitFor(() => expect(polledAt(records.dead)).toBeDefined(), { timeout: 2_000 });
    expect(polledAt(records.dead)! - started).toBeLessThan(1_000);
    await vi.waitFor(
      () => {
        expect(polledAt(records.live)).toBeDefined();
        expect(polledAt(records.elsewhere)).toBeDefined();
      },
      { timeout: 6_000, interval: 50 },
    );
    expect(polledAt(records.live)).toBeGreaterThanOrEqual(now + 3_000);
    expect(polledAt(records.elsewhere)).toBeGreaterThanOrEqual(now + 3_000);
    await core.engine.whenSettled(Object.values(records).map((record) => record.localId));
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
