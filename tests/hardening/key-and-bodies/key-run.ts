/**
 * The scenario of key-safety.test.ts: one full run of the recorded app against a demo service
 * (refused keys and base URLs, a wrong key, the right key, tasks under faults, a failed task), a
 * restart, and a start after the settings file was edited to a plain-http remote base URL.
 * Everything the app sends and the renderer receives is recorded into `ctx`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DemoDuration, DemoService } from '../../../electron/demo-service/types';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { startRecordedApp, type FetchCall, type IpcRecord, type RecordedApp } from './recorded-app';
import { pageTarget } from '../../support/submit-target';
import { ownAddress } from '../../support/own-address';

/** What the scenario needs and what it fills in. */
export interface KeyRunContext {
  readonly seed: string;
  readonly key: string;
  readonly wrongKey: string;
  readonly tasks: number;
  readonly userDataDir: string;
  readonly galleryDir: string;
  readonly service: DemoService;
  /** How long the service's tasks run (its `durationMs`), put back after one is held running. */
  readonly duration: DemoDuration;
  readonly fetchCalls: FetchCall[];
  readonly ipc: IpcRecord[];
  /** The user-facing text of every refusal (message and detail). */
  readonly refusals: string[];
}

/** Base URLs the Settings field must refuse: plain http to a host that is not this computer. */
export const REFUSED_BASE_URLS = [
  'http://example.test',
  'http://10.0.0.1',
  'http://192.168.1.20:8080/v1',
];
export const TAMPERED_BASE_URL = 'http://10.0.0.1';

function start(ctx: KeyRunContext): Promise<RecordedApp> {
  const { userDataDir, galleryDir, fetchCalls, ipc } = ctx;
  return startRecordedApp({ userDataDir, galleryDir, fetchCalls, ipc });
}

async function expectRefused(ctx: KeyRunContext, result: Promise<{ ok: boolean }>, what: string) {
  const answer = (await result) as { ok: boolean; error?: { message: string; detail?: string } };
  expect(answer.ok, `${what} (seed ${ctx.seed})`).toBe(false);
  ctx.refusals.push(`${answer.error?.message ?? ''} ${answer.error?.detail ?? ''}`);
}

/** Submits `count` tasks, in batches of at most 10 (the contract's limit, as the renderer does). */
async function submit(app: RecordedApp, prompt: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let left = count; left > 0; left -= 10)
    ids.push(...(await submitBatch(app, prompt, Math.min(left, 10))));
  return ids;
}

async function submitBatch(app: RecordedApp, prompt: string, count: number): Promise<string[]> {
  const target = pageTarget(app.runtime);
  const request = { prompt, size: '64x64' };
  const result = await app.invoke('tasks:submit', { request, target, count });
  expect(result.ok, JSON.stringify(result)).toBe(true);
  return (result as { value: { record: TaskRecord }[] }).value.map((item) => item.record.localId);
}

async function settle(app: RecordedApp, localIds: string[]): Promise<TaskRecord[]> {
  return app.runtime.core.engine.whenSettled(localIds);
}

/** Waits until the service knows the task's id (it is submitted). */
async function taskIdOf(app: RecordedApp, localId: string): Promise<string> {
  for (;;) {
    const taskId = app.runtime.core.engine.get(localId)?.taskId;
    if (taskId) return taskId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Keys the vault must refuse and base URLs Settings must refuse, through the IPC handlers. */
async function refuseBadInput(ctx: KeyRunContext, app: RecordedApp): Promise<void> {
  const { key: KEY, wrongKey: WRONG } = ctx;
  await expectRefused(
    ctx,
    app.invoke('keys:set', {
      provider: 'pictor',
      skipCheck: true,
      key: `Bearer ${KEY}`,
      allowWeakStorage: false,
    }),
    'Bearer key',
  );
  await expectRefused(
    ctx,
    app.invoke('keys:set', {
      provider: 'pictor',
      skipCheck: true,
      key: `${KEY} ${WRONG}`,
      allowWeakStorage: false,
    }),
    'two keys',
  );
  await expectRefused(
    ctx,
    app.invoke('keys:set', {
      provider: 'pictor',
      skipCheck: true,
      key: KEY.repeat(200),
      allowWeakStorage: false,
    }),
    'huge key',
  );
  for (const baseUrl of REFUSED_BASE_URLS)
    await expectRefused(
      ctx,
      app.invoke('settings:update', ownAddress(baseUrl)),
      `base URL ${baseUrl}`,
    );
}

/** The service's 401 for a wrong key: the task is held, the connection test fails. */
async function wrongKeyFirst(ctx: KeyRunContext, app: RecordedApp): Promise<string> {
  const { service, wrongKey: WRONG, seed: SEED } = ctx;
  expect((await app.invoke('settings:update', ownAddress(service.url))).ok).toBe(true);
  expect(
    (
      await app.invoke('keys:set', {
        provider: 'pictor',
        skipCheck: true,
        key: WRONG,
        allowWeakStorage: false,
      })
    ).ok,
  ).toBe(true);
  const [held] = await submit(app, 'submitted with the wrong key', 1);
  const [rejected] = await settle(app, [held!]);
  expect(JSON.stringify(rejected), `seed ${SEED}`).toMatch(/key/i);
  const probe = (await app.invoke('service:testConnection', { baseUrl: service.url })) as {
    value: { ok: boolean };
  };
  expect(probe.value.ok).toBe(false);
  return held!;
}

/**
 * The right key, then tasks under a 429 on submit, 500s on polls and a download, and one task
 * the service fails with a message that echoes the key (a hostile or careless server).
 */
async function firstRun(ctx: KeyRunContext): Promise<TaskRecord[]> {
  const { key: KEY, service, tasks: TASKS } = ctx;
  const app = await start(ctx);
  try {
    await refuseBadInput(ctx, app);
    const held = await wrongKeyFirst(ctx, app);
    expect(
      (
        await app.invoke('keys:set', {
          provider: 'pictor',
          skipCheck: true,
          key: KEY,
          allowWeakStorage: false,
        })
      ).ok,
    ).toBe(true);
    service.addFault({
      route: 'submit',
      times: 1,
      effect: { type: 'status', status: 429, retryAfter: 0 },
    });
    service.addFault({
      route: 'poll',
      times: 2,
      effect: { type: 'status', status: 500, body: 'html' },
    });
    service.addFault({ route: 'image', times: 1, effect: { type: 'status', status: 500 } });
    const lighthouse = await submit(app, 'lighthouse at dusk', TASKS);
    const ids = [held, ...lighthouse];
    // The task the service fails must still be running when it does, however slow the machine:
    // it alone is given a long run (the others are at the service first, with their own).
    for (const localId of lighthouse) await taskIdOf(app, localId);
    service.setDuration(600_000);
    const [doomed] = await submit(app, 'this one fails', 1);
    const doomedId = await taskIdOf(app, doomed!);
    service.setDuration(ctx.duration);
    service.failTask(doomedId, {
      code: 'content_policy',
      message: `Refused for the key ${KEY} (Bearer ${KEY}).`,
    });
    const done = await settle(app, [...ids, doomed!]);
    expect(
      (await app.invoke('service:testConnection', { baseUrl: service.url })) as unknown,
    ).toMatchObject({
      value: { ok: true },
    });
    for (const channel of ['tasks:list', 'gallery:list'] as const) await app.invoke(channel, {});
    for (const channel of ['settings:get', 'keys:getStatuses', 'app:getInfo'] as const)
      await app.invoke(channel);
    return done;
  } finally {
    await app.close();
  }
}

async function afterRestart(ctx: KeyRunContext): Promise<TaskRecord[]> {
  const app = await start(ctx);
  try {
    expect((await app.invoke('keys:getStatuses')) as unknown).toMatchObject({
      ok: true,
      value: { pictor: { state: 'ready' } },
    });
    const ids = await submit(app, 'after the restart', 1);
    const done = await settle(app, ids);
    await app.invoke('tasks:list', {});
    await app.invoke('gallery:list', {});
    return done;
  } finally {
    await app.close();
  }
}

/**
 * A third start after the settings file was edited by hand to a plain-http remote service: the
 * app must not send the key there (the recording fetch would show the request).
 */
async function tamperedStart(ctx: KeyRunContext): Promise<TaskRecord | undefined> {
  const path = join(ctx.userDataDir, 'settings.json');
  const stored = JSON.parse(await readFile(path, 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  const entry = Object.values(stored).find((value) => value && 'serviceBaseUrls' in value)!;
  entry['serviceBaseUrls'] = {
    ...(entry['serviceBaseUrls'] as object),
    ...ownAddress(TAMPERED_BASE_URL).serviceBaseUrls,
  };
  await writeFile(path, JSON.stringify(stored));
  const app = await start(ctx);
  try {
    // The page names the service as the (tampered) settings give it; main checks it.
    const target = pageTarget(app.runtime);
    const request = { prompt: 'tampered' };
    const result = await app.invoke('tasks:submit', { request, target, count: 1 });
    if (!result.ok) return undefined;
    const [item] = (result as { value: { record: TaskRecord }[] }).value;
    const [done] = await settle(app, [item!.record.localId]);
    return done;
  } finally {
    await app.close();
  }
}

/** The three starts, in order; returns the tasks each one settled. */
export async function runWithKey(ctx: KeyRunContext) {
  const first = await firstRun(ctx);
  const second = await afterRestart(ctx);
  const tampered = await tamperedStart(ctx);
  return { first, second, tampered };
}
