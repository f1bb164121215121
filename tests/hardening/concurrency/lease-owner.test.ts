/**
 * After a crash and a restart the app carries on at once with tasks the dead process
 * leased (its pid is gone), while a task leased by a live process waits for that lease to end;
 * a pid reused by another process only delays, never locks out; and a task leased by a process
 * the app cannot see (another machine) waits for the lease to end too. A process killed while
 * the app waits for its lease (a CLI command, SIGKILL) has its task taken over within a second
 * of the app's clock, not at the lease's end; crafted owners (pid 0, -1, huge, not a number)
 * never have the app signal anything. Where the system tells a process's start (Linux), an owner's
 * name says it (process-owner.ts ownerName), and a lease whose pid a process of another start has
 * now (the system gave the dead owner's pid again) is taken at once, where it kept the task
 * waiting for the lease's end; a name without a start (an older Pictor's) is judged by its pid as
 * before. The pid given again is played by a live process whose start the name does not say.
 * The core runs on the manual clock
 * (support/clock-driver.ts): "at once" and "at the lease's end" are read from the clock the
 * engine keeps, whatever the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { processStart } from '../../../electron/core/fs/process-owner';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { newTaskRecord, type TaskRecord } from '../../../shared/domain/task-record';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials, syncFingerprint } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { ClockDriver } from '../support/clock-driver';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { liveProcess } from '../../support/live-process';
import { OWNERS_UNREAD } from '../../support/owners-unread';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: QuirkyService | undefined;
let core: PictorCore | undefined;
let dir: string | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await core?.close();
  core = undefined;
  await service?.close();
  if (dir) await removeFolder(dir);
});

function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

describe('a task whose lease another process holds', () => {
  it('is taken at once from a dead process, and only at the end from a live or unknown one', async () => {
    service = await startQuirkyService({ durationMs: 200 });
    dir = await tempFolder('lease-owner');
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
      localServers: OWNERS_UNREAD,
      engine: { pollIntervalMs: 100 },
      ...bundledCoreWorkers(),
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

/** The lease's length the engine would give (45 s, DEFAULT_ENGINE_OPTIONS.leaseMs). */
const LEASE_MS = 45_000;

/** Puts the tasks in a fresh library, each leased to its owner until `now + LEASE_MS`. */
async function leasedLibrary(now: number, leases: ReadonlyMap<TaskRecord, string>): Promise<void> {
  dir = await tempFolder('lease-owner');
  const store = HistoryStore.open(join(dir, HISTORY_FILE));
  store.putMany([...leases.keys()]);
  for (const [record, owner] of leases)
    store.claimLeases([record.localId], owner, now, now + LEASE_MS);
  store.close();
}

/** Opens the core on the library, started, recording when each task was first polled. */
async function startCore(
  driver: ClockDriver,
  ids: readonly string[],
): Promise<Map<string, number>> {
  const firstPoll = new Map<string, number>();
  core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: dir!,
    galleryDir: join(dir!, 'gallery'),
    fetch: (url, init) => {
      const taskId = /\/v1\/tasks\/([^/?]+)/.exec(url)?.[1];
      if (taskId && !firstPoll.has(taskId)) firstPoll.set(taskId, driver.clock.now());
      return driver.fetch(url, init);
    },
    credentials: new StaticCredentials(service!.baseUrl, QUIRKY_KEYS.alice),
    clock: driver.coreClock,
    localServers: OWNERS_UNREAD,
    engine: { pollIntervalMs: 100 },
    ...bundledCoreWorkers(),
  });
  core.engine.start({ resume: true });
  driver.watch(core.engine, ids);
  return firstPoll;
}

describe('a process killed while another waits for its lease', () => {
  it('has its task taken over within a second of the clock, never while it lives', async () => {
    service = await startQuirkyService({ durationMs: 200 });
    const driver = new ClockDriver();
    const now = driver.clock.now();
    // A real process of this machine holds the lease (a CLI command at work).
    const holder = await liveProcess();
    const record = task('cli', now);
    await leasedLibrary(now, new Map([[record, `${hostname()}:${holder.pid}:cli-command`]]));
    const firstPoll = await startCore(driver, [record.localId]);
    // Alive: ten seconds of the app's clock (ten looks at the owner), and the task is not touched.
    await driver.advanceTo(now + 10_000);
    expect(firstPoll.has(record.taskId!)).toBe(false);
    // Killed and reaped (a zombie still answers kill(pid, 0)): gone for this machine.
    const closed = once(holder, 'close');
    holder.kill('SIGKILL');
    await closed;
    const killedAt = driver.clock.now();
    await driver.runUntil(() => firstPoll.has(record.taskId!), LEASE_MS);
    // Within one look (1 s) and a little, where the lease's end was 35 s away.
    expect(firstPoll.get(record.taskId!)).toBeLessThanOrEqual(killedAt + 1_100);
    expect(firstPoll.get(record.taskId!)).toBeLessThan(now + LEASE_MS);
  });

  it('never signals a crafted owner, and waits out its lease', async () => {
    service = await startQuirkyService({ durationMs: 200 });
    const driver = new ClockDriver();
    const now = driver.clock.now();
    // kill(0, 0) and kill(-1, 0) address process groups; the others are no pid at all.
    const pids = [
      '0',
      '-1',
      '-0',
      '99999999999',
      '2147483648',
      'abc',
      '',
      '0x10',
      '1e3',
      ' 12',
      '1.5',
    ];
    const leases = new Map<TaskRecord, string>(
      pids.map((pid, n) => [task(`crafted-${n}`, now), `${hostname()}:${pid}:crafted`]),
    );
    leases.set(task('no-colon', now), hostname());
    await leasedLibrary(now, leases);
    const kill = vi.spyOn(process, 'kill');
    const ids = [...leases.keys()].map((record) => record.localId);
    const firstPoll = await startCore(driver, ids);
    await driver.advanceTo(now + 10_000);
    expect(firstPoll.size).toBe(0);
    await driver.runUntil(() => firstPoll.size === leases.size, LEASE_MS);
    for (const at of firstPoll.values()) expect(at).toBeGreaterThanOrEqual(now + LEASE_MS);
    expect(kill).not.toHaveBeenCalled();
  });
});

describe.runIf(process.platform === 'linux')('a lease whose pid the system gave again', () => {
  it('is taken at once when its name says another start; waited out when it says none or this one', async () => {
    // Tasks that run on while the test looks at the leases this engine writes.
    service = await startQuirkyService({ durationMs: 3_600_000 });
    const driver = new ClockDriver();
    const now = driver.clock.now();
    // The live process that has the pid now, and its start.
    const holder = await liveProcess();
    const start = processStart(holder.pid);
    expect(start).not.toBeNull();
    const named = (said: string) => `${hostname()}:${holder.pid}:${said}${randomUUID()}`;
    const records = {
      recycled: task('recycled', now),
      older: task('older', now),
      same: task('same', now),
    };
    await leasedLibrary(
      now,
      new Map([
        // The dead engine started before the process given its pid.
        [records.recycled, named(`s${BigInt(start!) - 1n}.`)],
        [records.older, named('')],
        [records.same, named(`s${start}.`)],
      ]),
    );
    const firstPoll = await startCore(
      driver,
      Object.values(records).map((r) => r.localId),
    );
    await driver.runUntil(() => firstPoll.size === 3, LEASE_MS * 2);
    expect(firstPoll.get(records.recycled.taskId!)).toBe(now);
    expect(firstPoll.get(records.older.taskId!)).toBeGreaterThanOrEqual(now + LEASE_MS);
    expect(firstPoll.get(records.same.taskId!)).toBeGreaterThanOrEqual(now + LEASE_MS);
    // This engine's own name says its start, its host and pid where an older Pictor reads them
    // (the pid the next-to-last part, the host before it).
    const parts = core!.history.leaseOf(records.recycled.localId)!.owner.split(':');
    expect(parts.slice(0, -2).join(':')).toBe(hostname());
    expect(parts.at(-2)).toBe(String(process.pid));
    expect(parts.at(-1)).toMatch(new RegExp(`^s${processStart(process.pid)}\\.`));
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
