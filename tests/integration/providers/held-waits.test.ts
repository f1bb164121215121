/**
 * The wait a service holds until a task ends (core/engine/held-waits.ts), through the real core
 * against the demo's Replicate (`Prefer: wait` on a prediction's read) and fal (the status
 * stream) on loopback, one manual clock for both: a completion reaches the engine on the held
 * wait, not at the next poll; a wait cut midway, one that says nonsense, or a server that does
 * not hold leaves the task polled at the usual interval, submitted once; a held wait that ends at
 * its limit is followed by another, and none is held past the task's watch deadline; a cancel
 * while it is open ends the task, and a refused one is read by a poll at once; a pause does not
 * wait for it; a restart holds the wait again. Today's contract (the seed's interface) has no held wait: it is polled every 3 s.
 *
 * The holds run on the one manual clock too (the client's time limit on a stream, the demo's on
 * `Prefer: wait`, the engine's reading of how long a wait was held): while a wait is held the test
 * moves the clock itself and waits on what the service logged.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ProviderId } from '../../../shared/domain/providers';
import type { FaultEffect, RequestLogEntry } from '../../../electron/demo-service/types';
import { providerRig, type ProviderRig } from './provider-harness';
import { submitOne } from './provider-scenarios';

const INTERVAL_MS = 3_000;
/** A task at the demo runs this long (queued its first third). */
const DURATION_MS = 6_000;
const WAIT_WITHIN = { timeout: 15_000, interval: 5 };

type HeldDialect = Extract<ProviderId, 'replicate' | 'fal'>;

/** Whether a request of the log is the dialect's held wait (not a plain poll). */
function isHeld(entry: RequestLogEntry): boolean {
  return entry.path.endsWith('/status/stream') || entry.headers['prefer'] !== undefined;
}

const held = (rig: ProviderRig) => rig.service.log.requests.filter(isHeld);
/** The plain polls (fal's status reads, not its result's). */
const polls = (rig: ProviderRig) =>
  rig.service.log.requests.filter(
    (entry) =>
      entry.route === 'poll' &&
      !isHeld(entry) &&
      (rig.provider !== 'fal' || entry.path.endsWith('/status')),
  );
const submits = (rig: ProviderRig) =>
  rig.service.log.requests.filter((entry) => entry.route === 'submit');

async function rigOf(provider: ProviderId, heldWaitMs = 20_000): Promise<ProviderRig> {
  const rig = await providerRig(
    provider,
    { durationMs: DURATION_MS },
    { pollIntervalMs: INTERVAL_MS, heldWaitMs },
  );
  rig.core.engine.start();
  return rig;
}

/** Submits a task and moves the clock to its first poll, whose held wait is then open. */
async function submittedAndHeld(rig: ProviderRig, prompt = 'a harbour at noon'): Promise<string> {
  const localId = await submitOne(rig, prompt);
  await rig.drive(() => rig.core.history.get(localId)?.taskId != null);
  await rig.clock.advance(INTERVAL_MS);
  await vi.waitFor(
    () => expect(held(rig).filter((e) => e.status === null)).toHaveLength(1),
    WAIT_WITHIN,
  );
  return localId;
}

const statusOf = (rig: ProviderRig, localId: string) => rig.core.history.get(localId)?.status;

/** Garbage where the held answer should be, in each dialect's own content type. */
const GARBAGE: Record<HeldDialect, FaultEffect> = {
  fal: {
    type: 'body',
    status: 200,
    contentType: 'text/event-stream',
    body: 'data: {"status": COMPLETED\n\n',
  },
  replicate: { type: 'body', status: 200, contentType: 'application/json', body: '{"id": [}' },
};

describe.each(['replicate', 'fal'] as const)('%s: the held wait', (provider) => {
  it('brings the completion on the held wait, before the next poll is due, and polls once to read it', async () => {
    const rig = await rigOf(provider);
    const localId = await submittedAndHeld(rig);
    const polledBefore = polls(rig).length;
    // The task ends while the wait is held: less than an interval of clock time passes.
    await rig.clock.advance(DURATION_MS - INTERVAL_MS + 100);
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('completed'), WAIT_WITHIN);
    expect(polls(rig).length - polledBefore).toBe(1);
    expect(held(rig)).toHaveLength(1);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a held wait dropped while the task runs: the task is polled at the interval, no wait again, submitted once', async () => {
    const rig = await rigOf(provider);
    rig.service.addFault({ route: 'poll', effect: { type: 'reset' }, times: 1 });
    const localId = await submitOne(rig, 'a dropped stream');
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(held(rig).map((entry) => entry.fault)).toEqual(['reset']);
    expect(polls(rig).length).toBeGreaterThanOrEqual(2);
    expectPolledAtInterval(rig);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a held wait cut inside its answer as the task ends: the poll after it reads the task', async () => {
    const rig = await rigOf(provider);
    rig.service.addFault({ route: 'poll', effect: { type: 'truncate' }, times: 1 });
    const localId = await submittedAndHeld(rig, 'a cut stream');
    await rig.clock.advance(DURATION_MS - INTERVAL_MS + 100);
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('completed'), WAIT_WITHIN);
    expect(held(rig).map((entry) => entry.fault)).toEqual(['truncate']);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a held wait that answers garbage: the task is polled at the interval and completes', async () => {
    const rig = await rigOf(provider);
    rig.service.addFault({ route: 'poll', effect: GARBAGE[provider], times: 1 });
    const localId = await submitOne(rig, 'a garbled stream');
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(held(rig)).toHaveLength(1);
    expectPolledAtInterval(rig);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a wait held to its limit is followed by the poll and, at the next interval, another held wait', async () => {
    // A one-second hold (Replicate: `Prefer: wait=1`; fal: the stream closed by the client).
    const rig = await rigOf(provider, 1_000);
    const localId = await submittedAndHeld(rig);
    // Nothing ends while it is held: it comes back at its limit, and the task is polled.
    await rig.clock.advance(1_000);
    await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
    expect(statusOf(rig, localId)).toBe('processing');
    // The next wait is held an interval after that poll, not sooner.
    const polledAt = polls(rig)[0]!.at;
    await rig.drive(() => held(rig).length === 2, { withinMs: INTERVAL_MS + 1_000 });
    expect(held(rig)[1]!.at - polledAt).toBeGreaterThanOrEqual(INTERVAL_MS);
    await rig.clock.advance(DURATION_MS);
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('completed'), WAIT_WITHIN);
    expect(submits(rig)).toHaveLength(1);
  });

  it('the user cancels while the wait is held: the cancel is sent, and the wait brings its end', async () => {
    const rig = await rigOf(provider);
    const localId = await submittedAndHeld(rig, 'changed my mind');
    const asked = rig.clock.now();
    const marked = await rig.core.engine.cancelOnService(localId);
    expect(marked.canceledByUserAt).toBe(asked);
    // No clock moves: the held wait ends with the cancel and the poll after it reads it.
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('failed'), WAIT_WITHIN);
    expect(rig.core.history.get(localId)?.error?.kind).toBe('canceled');
    expect(rig.service.log.requests.filter((entry) => entry.route === 'cancel')).toHaveLength(1);
    await vi.waitFor(() => expect(rig.service.answering()).toBe(0), WAIT_WITHIN);
    expect(submits(rig)).toHaveLength(1);
  });

  it("is never held past the task's watch deadline: the watch ends at it, the task kept, submitted once", async () => {
    // A watch of 4 s: the first wait opens at 3 s with one second of the watch left.
    const rig = await providerRig(
      provider,
      { durationMs: DURATION_MS },
      { pollIntervalMs: INTERVAL_MS, heldWaitMs: 20_000, watchTimeoutMs: 4_000 },
    );
    rig.core.engine.start();
    const localId = await submittedAndHeld(rig, 'a short watch');
    // The wait comes back within what was left of the watch, not its 20 s, and the task is polled.
    await rig.clock.advance(1_000);
    await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
    expect(statusOf(rig, localId)).toBe('processing');
    // The watch ends at its deadline, a second of clock time on.
    await rig.drive(() => rig.core.history.get(localId)?.hold === 'timed_out', {
      withinMs: 1_500,
    });
    expect(rig.core.history.get(localId)?.taskId).not.toBeNull();
    expect(held(rig)).toHaveLength(1);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a cancel the service refuses while the wait is held: its outcome is read by a poll at once, with no wait before it', async () => {
    const rig = await rigOf(provider);
    rig.service.addFault({
      route: 'cancel',
      effect: { type: 'status', status: 400, body: 'json' },
    });
    const localId = await submittedAndHeld(rig, 'a refused cancel');
    await expect(rig.core.engine.cancelOnService(localId)).rejects.toThrow();
    // No clock moves: the held wait ends and the poll goes out now, not at the wait's 20 s.
    await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
    expect(held(rig)).toHaveLength(1);
    expect(statusOf(rig, localId)).toBe('processing');
    expect(submits(rig)).toHaveLength(1);
  });

  it('a pause (the gallery changing folder) does not wait for a held wait', async () => {
    const rig = await rigOf(provider);
    const localId = await submittedAndHeld(rig, 'a pause while held');
    const started = performance.now();
    await rig.core.engine.pause();
    // Real time: the wait's hold is 20 s of it.
    expect(performance.now() - started).toBeLessThan(10_000);
    rig.core.engine.resume();
    await rig.clock.advance(DURATION_MS);
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('completed'), WAIT_WITHIN);
    expect(submits(rig)).toHaveLength(1);
  });

  it('a restart while the wait is held holds it again from the new process, submitted once', async () => {
    const rig = await rigOf(provider);
    const localId = await submittedAndHeld(rig, 'across a restart');
    await rig.restart();
    rig.core.engine.start();
    await vi.waitFor(
      () => expect(held(rig).filter((e) => e.status === null)).toHaveLength(1),
      WAIT_WITHIN,
    );
    await rig.clock.advance(DURATION_MS);
    await vi.waitFor(() => expect(statusOf(rig, localId)).toBe('completed'), WAIT_WITHIN);
    expect(held(rig).length).toBeGreaterThanOrEqual(2);
    expect(submits(rig)).toHaveLength(1);
  });
});

describe('a wall clock set back during a hold (NTP, the user)', () => {
  // fal's hold is the client's own (the stream closed at its limit, a timer of the clock). The
  // demo holds `Prefer: wait` on the wall clock it shares with the engine, which moves its end as
  // far back: the engine then reads the hold's full length, as no real service makes it.
  it('fal: is no early answer, and the next interval holds the wait again', async () => {
    const rig = await rigOf('fal', 1_000);
    await submittedAndHeld(rig);
    // A minute back while the wait is held: the hold's time (the timers') runs on as before.
    rig.clock.setWall(-60_000);
    await rig.clock.advance(1_000);
    await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
    // Read on the wall clock, the wait answered "before" it was held: of no use, polled only.
    await rig.drive(() => held(rig).length === 2, { withinMs: INTERVAL_MS + 1_000 });
    expect(submits(rig)).toHaveLength(1);
  });
});

describe('waits held at once', () => {
  it('are at most 4 (each holds a connection): a fifth task is polled meanwhile', async () => {
    const rig = await rigOf('fal');
    const localIds: string[] = [];
    for (let n = 0; n < 5; n += 1) localIds.push(await submitOne(rig, `task ${n}`));
    await rig.drive(() => localIds.every((id) => rig.core.history.get(id)?.taskId != null));
    // To just before the tasks end (two intervals after their submit): every first poll is due
    // by then (the planner places each in a whole 100 ms slot of the interval after the submit),
    // and no task has ended, so a wait is still held however late a loaded machine's request
    // reaches the service. A move of two whole intervals ended every task with the clock: the
    // demo answered the waits at its next look (20 ms of real time), and a loaded machine's test
    // saw none of them open.
    await rig.clock.advance(DURATION_MS - INTERVAL_MS / 30);
    await vi.waitFor(() => {
      expect(held(rig).filter((entry) => entry.status === null)).toHaveLength(4);
      expect(polls(rig).length).toBeGreaterThanOrEqual(1);
    }, WAIT_WITHIN);
    expect(held(rig)).toHaveLength(4);
    await rig.clock.advance(DURATION_MS);
    await vi.waitFor(
      () => expect(localIds.map((id) => statusOf(rig, id)).slice(0, 5)).toContain('completed'),
      WAIT_WITHIN,
    );
  });
});

describe('a server that does not hold', () => {
  it('replicate: an answer at once to `Prefer: wait` leaves the task polled every interval, not held again', async () => {
    const rig = await rigOf('replicate');
    const localId = await submitOne(rig, 'an impatient server');
    await rig.drive(() => rig.core.history.get(localId)?.taskId != null);
    // The held read answered at once, as a server that ignores `Prefer` answers.
    const answeredAtOnce = RUNNING_PREDICTION(rig.core.history.get(localId)?.taskId ?? '');
    rig.service.addFault({ route: 'poll', effect: answeredAtOnce, times: 1 });
    // To the first poll, and no further until the poll after the wait is out: the engine judges
    // "at once" on its clock, and a clock moved while the answer was on its way (a loaded
    // machine's settle) read as a wait the server held.
    await rig.clock.advance(INTERVAL_MS);
    await vi.waitFor(() => expect(polls(rig)).toHaveLength(1), WAIT_WITHIN);
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(held(rig)).toHaveLength(1);
    expectPolledAtInterval(rig);
  });
});

describe("today's contract (the seed's interface)", () => {
  it('has no held wait: polled every 3 s, never sooner', async () => {
    const rig = await rigOf('pictor');
    const localId = await submitOne(rig, 'the seed');
    const [done] = await rig.settle([localId]);
    expect(done?.status).toBe('completed');
    expect(held(rig)).toEqual([]);
    expect(polls(rig).length).toBeGreaterThanOrEqual(2);
    expectPolledAtInterval(rig);
  });
});

/** A prediction still processing, as a server answers a read it did not hold. */
function RUNNING_PREDICTION(id: string): FaultEffect {
  return {
    type: 'body',
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ id, status: 'processing', output: null, error: null }),
  };
}

/** Every two plain polls of the task are at least one interval apart on the clock. */
function expectPolledAtInterval(rig: ProviderRig): void {
  const times = polls(rig).map((entry) => entry.at);
  for (let i = 1; i < times.length; i += 1) {
    expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(INTERVAL_MS);
  }
}
