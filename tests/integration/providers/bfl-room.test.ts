/**
 * BFL runs at most 24 of a key's tasks at once, and the engine holds a new task back while 24
 * run. Counted only are tasks that can still finish for this library: a task removed while it
 * ran, or on hold (never polled again unless the user acts), gives its place up, so such tasks
 * never keep a key's new tasks "submitting" forever. A task held back says why, in the window
 * and on the command line.
 */
import { describe, expect, it } from 'vitest';
import { CliProgress } from '../../../electron/cli/cli-progress';
import { profileOf } from '../../../electron/core/service/providers/profiles';
import type { TaskEngineOptions, TaskUpdate } from '../../../electron/core/engine/engine-types';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { CROWD_TIMING, providerRig, SIZE, type ProviderRig } from './provider-harness';

const CAP = profileOf('bfl').maxInFlight!;
const WAITING = `waiting: ${CAP} tasks already running on Black Forest Labs`;

/** A rig whose service itself takes any number of tasks: the engine's own count is tested. */
async function rig(engine: Partial<TaskEngineOptions> = {}): Promise<ProviderRig> {
  const made = await providerRig(
    'bfl',
    { maxActiveTasks: 1_000, durationMs: 3_600_000 },
    { ...CROWD_TIMING, ...engine },
  );
  made.core.engine.start();
  return made;
}

/** `count` tasks the service has taken (each has its id), polled from now on. */
async function running(r: ProviderRig, count: number): Promise<TaskRecord[]> {
  const records = await r.core.engine.submit(
    { prompt: 'a crowd', size: SIZE.bfl },
    r.target,
    count,
  );
  await r.drive(() => records.every((record) => r.core.engine.get(record.localId)?.taskId));
  return records;
}

/** A new task while `CAP` run: it waits, and says so on the command line. */
async function waitingTask(r: ProviderRig) {
  const lines: string[] = [];
  const updates: TaskUpdate[] = [];
  const subscription = r.core.engine.onDidUpdate((update) => updates.push(update));
  const [next] = await r.core.engine.submit({ prompt: 'one more', size: SIZE.bfl }, r.target);
  const localId = next!.localId;
  await r.pass(10_000);
  // The command line's progress, as `pictor generate` shows it.
  const progress = new CliProgress(
    new Set([localId]),
    (line) => lines.push(line),
    () => 0,
  );
  for (const update of updates) progress.onUpdate(update);
  expect(r.service.log.submits).toHaveLength(CAP);
  expect(r.core.engine.get(localId)?.status).toBe('submitting');
  expect(r.core.engine.live(localId).runningAtLimit).toBe(CAP);
  expect(lines.some((line) => line.includes(WAITING))).toBe(true);
  return { localId, lines, dispose: () => subscription.dispose() };
}

async function expectSent(r: ProviderRig, localId: string): Promise<void> {
  await r.drive(() => r.core.engine.get(localId)?.taskId != null);
  expect(r.service.log.submits).toHaveLength(CAP + 1);
  expect(r.core.engine.get(localId)?.status).toBe('processing');
  expect(r.core.engine.live(localId).runningAtLimit).toBeUndefined();
}

describe('bfl: the running tasks a key has at once', () => {
  it('sends the 25th task once the 24 running are removed, having said why it waited', async () => {
    const r = await rig();
    const crowd = await running(r, CAP);
    const waiting = await waitingTask(r);
    for (const record of crowd) expect(await r.core.engine.remove(record.localId)).toBe(true);
    await expectSent(r, waiting.localId);
    waiting.dispose();
  });

  it('sends a task removed ones would have held back, straight away', async () => {
    const r = await rig();
    const crowd = await running(r, CAP);
    for (const record of crowd) await r.core.engine.remove(record.localId);
    const [next] = await r.core.engine.submit({ prompt: 'one more', size: SIZE.bfl }, r.target);
    await expectSent(r, next!.localId);
  });

  it('does not count tasks on hold, never polled again: their watch timed out', async () => {
    const r = await rig({ watchTimeoutMs: 20_000 });
    const crowd = await running(r, CAP);
    const waiting = await waitingTask(r);
    await r.drive(() =>
      crowd.every((record) => r.core.engine.get(record.localId)?.hold === 'timed_out'),
    );
    await expectSent(r, waiting.localId);
    waiting.dispose();
  });
});
