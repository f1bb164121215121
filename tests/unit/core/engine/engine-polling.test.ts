import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from './engine-harness';
import { heldPoll, serviceError } from '../../../fakes/scripted-service-client';

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, i) => time - times[i]!);
}

describe('TaskEngine: polling', () => {
  it('polls every 3 s while processing, starting one interval after the submit', async () => {
    const h = engineHarness();
    h.client.durationMs = 10_000;
    await h.engine.submit({ prompt: 'cadence' }, TARGET);
    await h.clock.advance(30_000);
    const polls = h.client.pollsOf('task-1');
    const submittedAt = h.client.submits[0]!.at;
    expect(polls[0]! - submittedAt).toBe(3_000);
    expect(gaps(polls).every((gap) => gap === 3_000)).toBe(true);
    expect(polls).toHaveLength(Math.ceil(10_000 / 3_000));
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', polls: polls.length });
  });

  it('never has two polls of one task in flight, even when the service is slower than the interval', async () => {
    const h = engineHarness();
    h.client.durationMs = 20_000;
    await h.engine.submit({ prompt: 'slow answers' }, TARGET);
    await h.clock.advance(3_000);
    const { step, release } = heldPoll();
    h.client.pollSteps = [step];
    await h.clock.advance(30_000);
    expect(h.client.maxInFlightPolls).toBe(1);
    const before = h.client.polls.length;
    release();
    await h.clock.advance(60_000);
    expect(h.client.polls.length).toBeGreaterThan(before);
    expect(h.client.maxInFlightPolls).toBe(1);
  });

  it('spreads the polls of many tasks submitted together over the interval', async () => {
    const h = engineHarness();
    h.client.durationMs = 30_000;
    await h.engine.submit({ prompt: 'crowd' }, TARGET, 60);
    await h.clock.advance(29_000);
    const perSecond = new Map<number, number>();
    for (const poll of h.client.polls) {
      const second = Math.floor(poll.at / 1_000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual((60 / 3) * 1.5);
    for (let i = 1; i <= 60; i += 1) {
      const polls = h.client.pollsOf(`task-${i}`);
      expect(gaps(polls).every((gap) => gap === 3_000)).toBe(true);
    }
  });

  it('backs off on server and network errors, honours Retry-After, and keeps the task', async () => {
    const h = engineHarness();
    h.client.durationMs = 100_000;
    await h.engine.submit({ prompt: 'flaky' }, TARGET);
    await h.clock.advance(3_000);
    h.client.pollSteps = [
      serviceError('server', { httpStatus: 502 }),
      serviceError('server', { httpStatus: 503 }),
      serviceError('network', { mayHaveReachedService: false }),
      serviceError('rate_limited', { httpStatus: 429, retryAfterMs: 40_000 }),
    ];
    await h.clock.advance(200_000);
    const polls = h.client.pollsOf('task-1');
    // Gap 0 is the regular cadence before the first error; then the backoff doubles.
    const observed = gaps(polls).slice(1, 6);
    expect(observed[0]).toBe(3_000);
    expect(observed[1]).toBe(6_000);
    expect(observed[2]).toBe(12_000);
    expect(observed[3]).toBeGreaterThanOrEqual(40_000);
    expect(observed[4]).toBe(3_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', error: null });
  });

  it('records the current problem while backing off, for the UI', async () => {
    const h = engineHarness();
    h.client.durationMs = 100_000;
    await h.engine.submit({ prompt: 'offline' }, TARGET);
    h.client.pollSteps = [serviceError('network', { mayHaveReachedService: false })];
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      hold: null,
      error: { kind: 'network' },
    });
  });

  it('a 404 to the key that created the task marks it not found', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'vanishes' }, TARGET);
    await h.clock.advance(1_000);
    h.client.tasks.delete('task-1');
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'not_found',
      error: { kind: 'not_found' },
    });
  });

  it('a 401 to the creating key holds every task of that account until the key changes', async () => {
    const h = engineHarness();
    h.client.durationMs = 20_000;
    await h.engine.submit({ prompt: 'key revoked' }, TARGET, 3);
    await h.clock.advance(1_000);
    h.client.pollSteps = [serviceError('auth', { httpStatus: 401 })];
    await h.clock.advance(6_000);
    const held = h.history.all();
    expect(held.map((r) => r.hold)).toEqual(['key_rejected', 'key_rejected', 'key_rejected']);
    const pollsWhileHeld = h.client.polls.length;
    await h.clock.advance(60_000);
    expect(h.client.polls.length).toBe(pollsWhileHeld);
    h.credentials.setKey('sk-alice-2');
    h.engine.keyChanged();
    await h.clock.advance(10_000);
    expect(h.history.all().map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    expect(h.client.polls.at(-1)!.key).toBe('sk-alice-2');
  });

  it('waits, visibly and without failing, for the key of the account that created a task', async () => {
    const h = engineHarness();
    h.client.durationMs = 5_000;
    await h.engine.submit({ prompt: 'alice only' }, TARGET);
    await h.clock.advance(1_000);
    h.credentials.setKey('sk-bob');
    h.engine.keyChanged();
    await h.clock.advance(60_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      hold: 'awaiting_key',
      error: { kind: 'auth' },
    });
    h.credentials.setKey('sk-alice');
    h.engine.keyChanged();
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', hold: null });
  });

  it('waiting for another account’s key longer than the watch timeout still says it waits for that key', async () => {
    const h = engineHarness({ watchTimeoutMs: 30_000 });
    h.client.durationMs = 600_000;
    await h.engine.submit({ prompt: 'alice only' }, TARGET);
    await h.clock.advance(1_000);
    h.credentials.setKey('sk-bob');
    h.engine.keyChanged();
    await h.clock.advance(120_000);
    // Another key of the wrong account is saved: the task is tried with it, and waits again.
    h.credentials.setKey('sk-bob');
    h.engine.keyChanged();
    await h.clock.advance(10_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      hold: 'awaiting_key',
      error: { kind: 'auth' },
    });
  });

  it('with no key at all, tasks wait instead of failing', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'key cleared' }, TARGET);
    await h.clock.advance(1_000);
    h.credentials.setKey(null);
    await h.clock.advance(10_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'processing', hold: 'awaiting_key' });
  });

  it('a watch timeout keeps the id, stops polling, and resume completes the task without a resubmit', async () => {
    const h = engineHarness({ watchTimeoutMs: 10_000 });
    h.client.durationMs = 30_000;
    await h.engine.submit({ prompt: 'slow' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'processing',
      hold: 'timed_out',
      taskId: 'task-1',
    });
    const polls = h.client.polls.length;
    await h.clock.advance(30_000);
    expect(h.client.polls.length).toBe(polls);
    h.engine.resumeTask('local-1');
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', hold: null });
    expect(h.client.submits).toHaveLength(1);
  });

  it('times out tasks at the deadline even between polls, and resumes them at the next start', async () => {
    const h = engineHarness({ watchTimeoutMs: 4_000, pollIntervalMs: 3_000 });
    h.client.durationMs = 20_000;
    await h.engine.submit({ prompt: 'deadline' }, TARGET);
    await h.clock.advance(4_000);
    expect(h.history.get('local-1')!.hold).toBe('timed_out');
    await h.clock.advance(30_000);
    await h.restart();
    await h.clock.advance(3_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed' });
  });

  it('tracks a task id created elsewhere without submitting, and does not track it twice', async () => {
    const h = engineHarness();
    const id = h.client.createTask('sk-alice-2', 'made elsewhere', 7_000);
    const record = await h.engine.track(id, { prompt: 'made elsewhere' });
    expect(record).toMatchObject({ origin: 'tracked', status: 'processing', taskId: id });
    const again = await h.engine.track(` ${id} `);
    expect(again.localId).toBe(record.localId);
    await h.clock.advance(12_000);
    expect(h.history.get(record.localId)).toMatchObject({
      status: 'completed',
      images: [{ state: 'saved' }],
    });
    expect(h.client.submits).toHaveLength(0);
    await expect(h.engine.track('bad id')).rejects.toThrow();
    await expect(h.engine.track('')).rejects.toThrow();
  });

  it('after the machine sleeps, polls come back spread out rather than in one burst', async () => {
    const h = engineHarness();
    h.client.durationMs = 600_000;
    await h.engine.submit({ prompt: 'sleeper' }, TARGET, 30);
    await h.clock.advance(10_000);
    const before = h.client.polls.length;
    await h.clock.jump(300_000);
    const burst = h.client.polls.slice(before).filter((poll) => poll.at === h.clock.now()).length;
    expect(burst).toBeLessThanOrEqual(2);
    await h.clock.advance(3_000);
    const afterWake = h.client.polls.slice(before);
    expect(afterWake.length).toBeGreaterThanOrEqual(30);
    expect(afterWake.length).toBeLessThanOrEqual(32);
  });

  it('wake() polls right away, spread over one interval, and forgets the backoff', async () => {
    const h = engineHarness();
    h.client.durationMs = 600_000;
    await h.engine.submit({ prompt: 'offline then back' }, TARGET);
    await h.clock.advance(3_000);
    h.client.pollSteps = Array.from({ length: 4 }, () => serviceError('network'));
    await h.clock.advance(3_000 + 6_000 + 12_000);
    const before = h.client.polls.length;
    h.engine.wake();
    await h.clock.advance(3_000);
    expect(h.client.polls.length).toBeGreaterThan(before);
  });

  it('stop() leaves no timers and no work behind', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'bye' }, TARGET, 5);
    await h.clock.advance(4_000);
    await h.engine.stop();
    expect(h.clock.pending).toBe(0);
  });
});

describe('TaskEngine: what polling remembers of ended tasks', () => {
  /** How many tasks' last polls the poller remembers (its PollStamps; both private). */
  const remembered = (engine: object): number =>
    (engine as { poller?: { sent?: { size: number } } }).poller?.sent?.size ?? -1;

  it('forgets the last poll of each ended task once its interval is over', async () => {
    const h = engineHarness();
    h.client.durationMs = 3_000;
    await h.engine.submit({ prompt: 'a day of bursts' }, TARGET, 40);
    await h.clock.advance(10_000);
    expect(h.history.all().filter((r) => r.status === 'completed')).toHaveLength(40);
    // Each ended at a poll, so its stamp still bounds a poll of it for the rest of the interval.
    expect(remembered(h.engine)).toBe(40);
    // A later burst's tasks end after that interval: the earlier ones' stamps are gone.
    await h.engine.submit({ prompt: 'the next burst' }, TARGET, 5);
    await h.clock.advance(10_000);
    expect(h.history.all().filter((r) => r.status === 'completed')).toHaveLength(45);
    expect(remembered(h.engine)).toBe(5);
  });
});
