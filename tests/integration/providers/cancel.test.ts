/**
 * "Cancel on the service" (core/batch/cancel-tasks.ts) through the real core against each dialect
 * of the demo service on loopback: a task cancelled while queued, while running, once the service
 * already finished it, and when the service refuses; the ledger's `not_billed` where the service
 * says so; "Stop watching" for the services that cannot cancel; a selection one request at a time.
 */
import { describe, expect, it } from 'vitest';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import {
  CANCEL_ANSWER_WAIT_MS,
  TaskCancels,
  type CancelOutcome,
} from '../../../electron/core/batch/cancel-tasks';
import { providerRig, type DialectId, type ProviderRig } from './provider-harness';
import { expectKeyOnlyInItsHeader, submitOne, untilAccepted } from './provider-scenarios';

/** A task's life at the demo: queued its first third (20 s here), then running for 40 s. */
const DURATION_MS = 60_000;
const RUNNING_AT_MS = 25_000;

async function rigOf(provider: ProviderId): Promise<ProviderRig> {
  const rig = await providerRig(provider, { durationMs: DURATION_MS });
  // Priced, so every task enters the ledger with an estimate the cancel must turn to not billed.
  rig.core.costs.setPrice({ provider, model: '', unit: 'USD', basis: 'image', micros: 40_000 });
  rig.core.engine.start();
  return rig;
}

/** Cancels the tasks, moving the clock while the service is asked and answers. */
async function cancel(
  rig: ProviderRig,
  localIds: readonly string[],
  progress: [number, number][] = [],
): Promise<CancelOutcome[]> {
  const cancels = new TaskCancels(rig.core.engine, rig.clock);
  let outcomes: CancelOutcome[] | null = null;
  void cancels
    .cancel(localIds, { onProgress: (done, total) => progress.push([done, total]) })
    .then((done) => (outcomes = done));
  await rig.drive(() => outcomes !== null, { withinMs: CANCEL_ANSWER_WAIT_MS * 2 });
  return outcomes ?? [];
}

async function runningTask(rig: ProviderRig, prompt: string): Promise<string> {
  const localId = await submitOne(rig, prompt);
  await untilAccepted(rig, localId);
  return localId;
}

function cancelRequests(rig: ProviderRig) {
  return rig.service.log.requests.filter((entry) => entry.route === 'cancel');
}

/** The demo's id of the task (to finish it there). */
function serviceId(rig: ProviderRig, localId: string): string {
  return rig.stored(localId).taskId!;
}

const CANCELLING: readonly DialectId[] = ['fal', 'replicate', 'dashscope'];

describe.each(CANCELLING)('%s: cancel on the service', (provider) => {
  it('a queued task: the service is told once, the task ends canceled and is not billed', async () => {
    const rig = await rigOf(provider);
    const localId = await runningTask(rig, 'a queued change of mind');
    expect(rig.stored(localId).cost).toMatchObject({ source: 'estimated' });
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({
      kind: 'canceled',
      localId,
      record: { status: 'failed', error: { kind: 'canceled' } },
    });
    expect(outcome!.reason).toBeUndefined();
    const stored = rig.stored(localId);
    expect(stored).toMatchObject({ status: 'failed', error: { kind: 'canceled' }, images: [] });
    expect(stored.canceledByUserAt).toBeDefined();
    expect(stored.cost?.source).toBe('not_billed');
    expect(cancelRequests(rig)).toHaveLength(1);
    expect(cancelRequests(rig)[0]!.status).toBeGreaterThanOrEqual(200);
    expect(cancelRequests(rig)[0]!.status).toBeLessThan(300);
    expectKeyOnlyInItsHeader(rig);
  });

  it('a task the service already finished: its images are kept, whatever the service said to the cancel', async () => {
    const rig = await rigOf(provider);
    const localId = await runningTask(rig, 'done before the cancel');
    rig.service.completeTask(serviceId(rig, localId));
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({ kind: 'finished', record: { status: 'completed' } });
    // fal and DashScope refuse a cancel of a finished task; Replicate answers it unchanged.
    const [asked] = cancelRequests(rig);
    expect(asked!.status).toBe(provider === 'replicate' ? 200 : 400);
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
    expect(done!.cost?.source).not.toBe('not_billed');
  });

  it('a service that refuses the cancel: its reason is said, the task runs on and completes', async () => {
    const rig = await rigOf(provider);
    const localId = await runningTask(rig, 'refused to stop');
    rig.service.addFault({ route: 'cancel', effect: { type: 'status', status: 409 } });
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({ kind: 'refused', record: { status: 'processing' } });
    expect(outcome!.reason?.message.length).toBeGreaterThan(10);
    expect(outcome!.reason?.sentence).toBeDefined();
    expect(rig.stored(localId).canceledByUserAt).toBeUndefined();
    // The service ends it now, not at its 60 s (300 polls to drive): the watch went on to see it.
    rig.service.completeTask(serviceId(rig, localId));
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
  });
});

describe('a running task', () => {
  it.each(['fal', 'replicate'] as const)(
    '%s: stops a running task; it ends canceled and is not billed',
    async (provider) => {
      const rig = await rigOf(provider);
      const localId = await runningTask(rig, 'running, then canceled');
      await rig.pass(RUNNING_AT_MS);
      expect(rig.service.tasks()[0]!.status).toBe('processing');
      const [outcome] = await cancel(rig, [localId]);
      expect(outcome).toMatchObject({ kind: 'canceled', record: { error: { kind: 'canceled' } } });
      expect(rig.stored(localId).cost?.source).toBe('not_billed');
    },
  );

  it('dashscope: cancels only a PENDING task; a RUNNING one is refused with its reason and completes', async () => {
    const rig = await rigOf('dashscope');
    const localId = await runningTask(rig, 'already running at DashScope');
    await rig.pass(RUNNING_AT_MS);
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({ kind: 'refused', record: { status: 'processing' } });
    expect(cancelRequests(rig)[0]!.status).toBe(400);
    expect(`${outcome!.reason?.message} ${outcome!.reason?.detail ?? ''}`).toMatch(/PENDING/);
    rig.service.completeTask(serviceId(rig, localId));
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
  });
});

describe.each(['bfl', 'pictor'] as const)('%s: a service without cancel', (provider) => {
  it('says so and sends nothing; Stop watching holds the task with its id, and Resume finishes it', async () => {
    const rig = await rigOf(provider);
    const localId = await runningTask(rig, 'cannot be canceled');
    const sent = rig.service.log.requests.length;
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({
      kind: 'unsupported',
      reason: { sentence: { key: 'error.service.noCancel' } },
    });
    if (provider === 'bfl') {
      expect(outcome!.reason?.sentence?.params).toEqual({ service: PROVIDERS.bfl.label });
    }
    expect(rig.service.log.requests).toHaveLength(sent);

    const cancels = new TaskCancels(rig.core.engine, rig.clock);
    const stopped = cancels.stopWatching([localId, localId, 'not-a-task']);
    expect(stopped.skipped).toBe(1);
    expect(stopped.records).toHaveLength(1);
    const held = rig.stored(localId);
    expect(held).toMatchObject({ status: 'processing', hold: 'timed_out' });
    expect(held.stoppedWatchingAt).toBe(rig.clock.now());
    expect(held.taskId).toBe(serviceId(rig, localId));
    const polls = rig.service.log.polls.length;
    await rig.pass(10_000);
    expect(rig.service.log.polls.length, 'no poll after Stop watching').toBe(polls);

    rig.service.completeTask(held.taskId!);
    rig.core.engine.resumeTask(localId);
    const [done] = await rig.settle([localId]);
    expect(done).toMatchObject({ status: 'completed', images: [{ state: 'saved' }] });
  });
});

describe('a refusal', () => {
  it('fal: "already completed" is followed by a poll at once, so the images come without waiting', async () => {
    // Polls a minute apart: only the poll that follows the refusal can bring the result now.
    const rig = await providerRig('fal', { durationMs: DURATION_MS }, { pollIntervalMs: 60_000 });
    rig.core.engine.start();
    const localId = await runningTask(rig, 'finished between two polls');
    rig.service.completeTask(serviceId(rig, localId));
    const before = rig.clock.now();
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({ kind: 'finished', record: { status: 'completed' } });
    expect(cancelRequests(rig).map((entry) => entry.status)).toEqual([400]);
    expect(rig.clock.now() - before).toBeLessThan(CANCEL_ANSWER_WAIT_MS);
  });
});

describe('a task whose watch timed out', () => {
  it('is cancelled all the same: a new watch starts, so its next answer comes', async () => {
    const rig = await providerRig('fal', { durationMs: DURATION_MS }, { watchTimeoutMs: 5_000 });
    rig.core.engine.start();
    const localId = await runningTask(rig, 'stopped watching, then cancelled');
    await rig.drive(() => rig.stored(localId).hold === 'timed_out');
    const [outcome] = await cancel(rig, [localId]);
    expect(outcome).toMatchObject({ kind: 'canceled', record: { error: { kind: 'canceled' } } });
    expect(rig.stored(localId)).toMatchObject({ status: 'failed', hold: null });
  });
});

describe('a selection', () => {
  it('asks one task at a time with its progress, and says how each went', async () => {
    const rig = await rigOf('fal');
    const queued = await runningTask(rig, 'first, queued');
    const finished = await runningTask(rig, 'second, finished at the service');
    rig.service.completeTask(serviceId(rig, finished));
    const progress: [number, number][] = [];
    const outcomes = await cancel(rig, [queued, finished, queued, 'unknown-task'], progress);
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual([
      'canceled',
      'finished',
      'not_running',
    ]);
    expect(outcomes[2]!.reason?.sentence?.key).toBe('error.library.taskNotInHistory');
    // The unknown id and the repeat were not sent.
    const asked = cancelRequests(rig);
    expect(asked).toHaveLength(2);
    // A task that already ended is not asked about again.
    const again = await cancel(rig, [queued]);
    expect(again).toMatchObject([
      { kind: 'not_running', reason: { sentence: { key: 'error.service.cancelNotNow' } } },
    ]);
    expect(cancelRequests(rig)).toHaveLength(2);
  });
});
