/**
 * Refused submits through the real core and the `tasks:submit` (and `tasks:resend`) handlers against the quirky
 * service on loopback: a refused key (401), an account without credits (402) and an unreachable
 * service leave no history row and are reported once (a `refused` change of `tasks:updated`) with the request; a
 * request the service refuses as invalid (400) stays a row; a batch whose first request is
 * refused sends no other; nothing is ever sent twice.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import type { Emit, IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import { TaskUpdates } from '../../../electron/ipc/task-updates';
import { silentLogger } from '../../../electron/ports/logger';
import {
  events,
  type EventChannel,
  type TaskChange,
  type TaskItem,
} from '../../../shared/ipc/contract';
import { QUIRKY_KEYS, startQuirkyService, type QuirkyService } from '../../fakes/quirky-service';
import { StaticCredentials } from '../../fakes/static-credentials';
import { closedPort } from '../../support/http-servers';
import { makeTaskRecord } from '../../support/task-records';
import { testImageEngine } from '../../support/image-engine';
import { ipcCaller, okValue } from '../../support/ipc';
import { targetAt } from '../../support/submit-target';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(baseUrl: string, key: string) {
  const dir = await tempFolder('refused');
  const core: PictorCore = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir: join(dir, 'data'),
    galleryDir: join(dir, 'gallery'),
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(baseUrl, key),
    clock: systemClock,
    requestTimeoutMs: 2_000,
    engine: { pollIntervalMs: 100, maxBackoffMs: 200 },
    ...bundledCoreWorkers(),
  });
  cleanups.push(async () => {
    await core.close();
    await removeFolder(dir);
  });
  core.engine.start();
  const emitted: [EventChannel, unknown][] = [];
  // Parsed as the bridge does, so nothing outside the contract's schema could leave.
  const emit = (channel: EventChannel, payload: unknown) =>
    emitted.push([channel, events[channel].parse(payload)]);
  const changes = new TaskUpdates({ clock: systemClock, emit: emit as Emit, logger: silentLogger });
  cleanups.push(async () => changes.dispose());
  const deps = {
    core: core,
    chooseFolder: async () => null,
    emit,
    changes,
  } as unknown as Parameters<typeof taskHandlers>[0];
  const handlers = taskHandlers(deps) as IpcHandlers;
  const submit = async (request: Record<string, unknown>, count = 1): Promise<TaskItem[]> => {
    const target = targetAt(baseUrl);
    return okValue(await ipcCaller(handlers)('tasks:submit', { request, target, count }));
  };
  const sent = () =>
    emitted.flatMap(([channel, payload]) =>
      channel === 'tasks:updated' ? (payload as TaskChange[]) : [],
    );
  const refusals = () =>
    sent().flatMap(({ change, ...rest }) => (change === 'refused' ? [rest] : []));
  const removed = () =>
    sent().flatMap((change) => (change.change === 'removed' ? [{ localId: change.localId }] : []));
  /** The selection's "Submit again" of `localIds`, through the one channel. */
  const resend = async (localIds: string[]) =>
    okValue(
      await ipcCaller(handlers)('tasks:resend', { localIds, as: 'each', onlyFailed: true }),
    ) as { items: TaskItem[]; skipped: number };
  return { core, submit, refusals, removed, resend };
}

async function quirky(): Promise<QuirkyService> {
  const service = await startQuirkyService({ durationMs: 100 });
  cleanups.push(() => service.close());
  return service;
}

describe('a submit refused for the account', () => {
  it.each([
    ['a refused key (401)', 'sk-nobody-0123456789abcdef', 'auth'],
    ['an account without credits (402)', QUIRKY_KEYS.carol, 'credits'],
  ])(
    '%s in "Generate 10" sends one request, is reported once, and leaves no row',
    async (_, key, kind) => {
      const service = await quirky();
      const a = await app(service.baseUrl, key);
      const request = { prompt: 'a storm over the lighthouse', size: '64x64' };
      const items = await a.submit(request, 10);
      await expect.poll(() => a.removed().length, UNTIL).toBe(9);
      expect(a.refusals()).toEqual([
        {
          localId: items[0]!.record.localId,
          request,
          kind,
          message: expect.stringMatching(kind === 'auth' ? /refused the API key/ : /credits/),
          // The record's sentence comes with it, for the window's language.
          sentence: expect.objectContaining({ key: expect.stringMatching(/^error\.service\./) }),
        },
      ]);
      expect(a.removed()).toEqual(items.slice(1).map((item) => ({ localId: item.record.localId })));
      expect(a.core.history.list({ cursor: null }).items).toEqual([]);
      for (const item of items) expect(a.core.engine.get(item.record.localId)).toBeUndefined();
      // The first request alone: the others would have been refused the same way.
      expect(service.submits()).toHaveLength(1);
    },
  );

  it('a task sent again (the selection’s action) is followed the same way: reported once, no row', async () => {
    const service = await quirky();
    const a = await app(service.baseUrl, QUIRKY_KEYS.carol);
    const old = makeTaskRecord({
      localId: 'old-failed',
      status: 'submit_failed',
      endpoint: targetAt(service.baseUrl).endpoint,
      request: { prompt: 'a storm again', size: '64x64' },
    });
    a.core.history.putMany([old]);
    const { items } = await a.resend([old.localId]);
    await expect.poll(() => a.refusals().length, UNTIL).toBe(1);
    expect(a.refusals()[0]).toMatchObject({ kind: 'credits', request: old.request });
    expect(a.refusals()[0]).not.toMatchObject({ localId: old.localId });
    expect(items.map((item) => item.record.localId)).not.toContain(old.localId);
    // The stored task stays as it was; the new one is gone.
    expect(a.core.history.list({ cursor: null }).items).toEqual([old]);
    expect(service.submits()).toHaveLength(1);
  });

  it('an unreachable service leaves no row, and nothing was sent', async () => {
    const port = await closedPort();
    const a = await app(`http://127.0.0.1:${port}`, 'sk-anything-0123456789');
    await a.submit({ prompt: 'nobody listens' });
    await expect.poll(() => a.refusals().length, UNTIL).toBe(1);
    expect(a.refusals()[0]).toMatchObject({
      kind: 'network',
      request: { prompt: 'nobody listens' },
    });
    expect(a.core.history.list({ cursor: null }).items).toEqual([]);
  });
});

describe('a submit refused for the request (400)', () => {
  it('stays a row to edit, is not reported as an account problem and is not sent again', async () => {
    const service = await quirky();
    const a = await app(service.baseUrl, QUIRKY_KEYS.alice);
    // The client lets six digits through; this service takes four at most and answers 400.
    const [item] = await a.submit({ prompt: 'too big', size: '99999x99999' });
    await expect
      .poll(() => a.core.engine.get(item!.record.localId)?.status, UNTIL)
      .toBe('submit_failed');
    expect(a.core.engine.get(item!.record.localId)?.error?.kind).toBe('bad_request');
    expect(a.core.history.get(item!.record.localId)?.status).toBe('submit_failed');
    expect(a.refusals()).toEqual([]);
    expect(service.submits()).toHaveLength(1);
  });

  it('stops the rest of a batch: one request, the others say they were not sent', async () => {
    const service = await quirky();
    const a = await app(service.baseUrl, QUIRKY_KEYS.alice);
    const items = await a.submit({ prompt: 'too big', size: '99999x99999' }, 3);
    const ids = items.map((item) => item.record.localId);
    await expect
      .poll(() => ids.map((id) => a.core.history.get(id)?.status), UNTIL)
      .toEqual(['submit_failed', 'submit_failed', 'submit_failed']);
    expect(a.core.history.get(ids[0]!)?.error?.kind).toBe('bad_request');
    for (const id of ids.slice(1))
      expect(a.core.history.get(id)?.error?.message).toMatch(/^Not sent: the first request/);
    expect(service.submits()).toHaveLength(1);
    expect(a.refusals()).toEqual([]);
  });

  it('an accepted submit is kept and followed as usual; a batch follows its first', async () => {
    const service = await quirky();
    const a = await app(service.baseUrl, QUIRKY_KEYS.alice);
    const items = await a.submit({ prompt: 'all good', size: '64x64' }, 3);
    const done = await a.core.engine.whenSettled(items.map((item) => item.record.localId));
    expect(done.map((record) => record.status)).toEqual(['completed', 'completed', 'completed']);
    expect(service.submits()).toHaveLength(3);
    expect(a.refusals()).toEqual([]);
  });
});
