/**
 * The `tasks:cancel`, `tasks:cancelMany` and `tasks:stopWatching` handlers over the real core
 * against the demo service's dialects on loopback, called the way the page calls them (through
 * runRequest: every input through the contract's schema first). Hostile inputs are refused
 * before anything is asked of a service.
 */
import { describe, expect, it } from 'vitest';
import { taskCancelHandlers } from '../../../electron/ipc/task-cancel-handlers';
import { MAX_IDS_PER_BATCH } from '../../../shared/domain/limits';
import type { ProviderId } from '../../../shared/domain/providers';
import type { EventChannel, RequestOutput } from '../../../shared/ipc/contract';
import { ipcCaller, okValue } from '../../support/ipc';
import { providerRig, type ProviderRig } from '../providers/provider-harness';
import { submitOne, untilAccepted } from '../providers/provider-scenarios';

async function wired(provider: ProviderId) {
  // Polls at whole milliseconds (30 phase slots of 10 ms), as a real clock's times are: the
  // records leave through the contract's schema, which wants whole milliseconds.
  const rig = await providerRig(provider, { durationMs: 60_000 }, { pollIntervalMs: 300 });
  rig.core.engine.start();
  const emitted: [EventChannel, unknown][] = [];
  const handlers = taskCancelHandlers({
    engine: rig.core.engine,
    cancels: rig.core.cancels,
    emit: (channel, payload) => emitted.push([channel, payload]),
  });
  return { rig, emitted, call: ipcCaller(handlers) };
}

/** Runs an IPC call to its end, moving the rig's clock while the service answers. */
async function answered<T>(rig: ProviderRig, pending: Promise<T>): Promise<T> {
  let done: { value: T } | null = null;
  void pending.then((value) => (done = { value }));
  await rig.drive(() => done !== null, { withinMs: 120_000 });
  return done!.value;
}

async function running(rig: ProviderRig, prompt: string): Promise<string> {
  const localId = await submitOne(rig, prompt);
  await untilAccepted(rig, localId);
  return localId;
}

describe('tasks:cancel', () => {
  it('cancels a queued fal task: the answer carries the ended task, the ledger says not billed', async () => {
    const { rig, call } = await wired('fal');
    rig.core.costs.setPrice({
      provider: 'fal',
      model: '',
      unit: 'USD',
      basis: 'image',
      micros: 3_000,
    });
    const localId = await running(rig, 'queued at fal');
    const outcome = okValue(await answered(rig, call('tasks:cancel', { localId })));
    expect(outcome).toMatchObject({
      kind: 'canceled',
      localId,
      item: {
        record: { status: 'failed', error: { kind: 'canceled' }, cost: { source: 'not_billed' } },
      },
    });
    expect(JSON.stringify(outcome)).not.toContain('sk-alice');
  });

  it('answers a service without cancel with its sentence and asks nothing; Stop watching holds the task', async () => {
    const { rig, call } = await wired('bfl');
    const localId = await running(rig, 'bfl cannot cancel');
    const sent = rig.service.log.requests.length;
    const outcome = okValue(await answered(rig, call('tasks:cancel', { localId })));
    expect(outcome).toMatchObject({
      kind: 'unsupported',
      reason: { sentence: { key: 'error.service.noCancel' } },
    });
    expect(rig.service.log.requests).toHaveLength(sent);
    const stopped = okValue(await call('tasks:stopWatching', { localIds: [localId, 'unknown'] }));
    expect(stopped).toMatchObject({
      items: [{ record: { localId, status: 'processing', hold: 'timed_out' } }],
      skipped: 1,
    });
    expect(stopped.items[0]!.record.stoppedWatchingAt).toBeGreaterThan(0);
  });

  it('says an unknown id is not running, without asking a service', async () => {
    const { rig, call } = await wired('fal');
    const outcome = okValue(await call('tasks:cancel', { localId: 'no-such-task' }));
    expect(outcome).toEqual({
      kind: 'not_running',
      localId: 'no-such-task',
      item: null,
      reason: expect.objectContaining({ sentence: { key: 'error.library.taskNotInHistory' } }),
    });
    expect(rig.service.log.requests.filter((entry) => entry.route === 'cancel')).toEqual([]);
  });
});

describe('tasks:cancelMany', () => {
  it('is one action: each task asked in turn, its progress sent, each outcome in the order asked', async () => {
    const { rig, call, emitted } = await wired('dashscope');
    const queued = await running(rig, 'pending at DashScope');
    const done = await running(rig, 'finished at DashScope');
    rig.service.completeTask(rig.stored(done).taskId!);
    const raw = await answered(rig, call('tasks:cancelMany', { localIds: [queued, done, queued] }));
    const value: RequestOutput<'tasks:cancelMany'> = okValue(raw);
    expect(value.outcomes.map((outcome) => [outcome.localId, outcome.kind])).toEqual([
      [queued, 'canceled'],
      [done, 'finished'],
    ]);
    expect(value.outcomes[1]!.item!.record.status).toBe('completed');
    expect(emitted).toEqual([
      ['tasks:cancelProgress', { done: 1, total: 2 }],
      ['tasks:cancelProgress', { done: 2, total: 2 }],
    ]);
  });
});

describe('hostile inputs', () => {
  const tooMany = Array.from({ length: MAX_IDS_PER_BATCH + 1 }, (_, n) => `id-${n}`);
  it.each([
    ['tasks:cancel', undefined],
    ['tasks:cancel', {}],
    ['tasks:cancel', { localId: '' }],
    ['tasks:cancel', { localId: 'x'.repeat(10_000) }],
    ['tasks:cancel', { localId: 42 }],
    ['tasks:cancel', { localId: 'a', taskId: 'b' }],
    ['tasks:cancel', { localId: 'a', baseUrl: 'https://attacker.example' }],
    ['tasks:cancelMany', { localIds: [] }],
    ['tasks:cancelMany', { localIds: tooMany }],
    ['tasks:cancelMany', { localIds: 'a' }],
    ['tasks:cancelMany', { localIds: [{ localId: 'a' }] }],
    ['tasks:stopWatching', { localIds: [] }],
    ['tasks:stopWatching', { localIds: ['a'], hold: null }],
    ['tasks:stopWatching', { localId: 'a' }],
  ] as const)('%s refuses input %# before anything is asked', async (channel, input) => {
    const { rig, call, emitted } = await wired('fal');
    const localId = await running(rig, 'must not be touched');
    const before = rig.stored(localId);
    const result = await call(channel, input);
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(rig.service.log.requests.filter((entry) => entry.route === 'cancel')).toEqual([]);
    expect(rig.stored(localId)).toMatchObject({ status: 'processing', hold: before.hold });
    expect(emitted).toEqual([]);
  });
});
