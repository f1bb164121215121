/**
 * The service is asked about a task every three seconds, never sooner: a resume (after a pause,
 * or "Resume" on the task) at any point of a poll cycle waits for the rest of the interval since
 * the task's last poll, and one whose last poll is older polls at once.
 */
import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from './engine-harness';
import { heldPoll } from '../../../fakes/scripted-service-client';

const INTERVAL = 3_000;
/** Where in a cycle the resume comes, in ms after the task's last poll. */
const OFFSETS = [0, 1, 400, 1_500, 2_900, 2_999, 3_000, 5_000];

function gaps(times: number[]): number[] {
  return times.slice(1).map((time, i) => time - times[i]!);
}

/** A processing task polled once, the clock `offset` ms after that poll. */
async function polledOnce(offset: number) {
  const h = engineHarness();
  h.client.durationMs = 3_600_000;
  h.engine.start();
  const [record] = await h.engine.submit({ prompt: 'cadence' }, TARGET);
  await h.clock.advance(INTERVAL);
  expect(h.client.pollsOf('task-1')).toHaveLength(1);
  await h.clock.advance(offset);
  return { h, localId: record!.localId };
}

function expectCadence(polls: number[]): void {
  for (const gap of gaps(polls)) expect(gap).toBeGreaterThanOrEqual(INTERVAL);
}

describe('TaskEngine: the poll interval across resumes', () => {
  it.each(OFFSETS)(
    'keeps 3 s between polls when resumed after a pause %i ms into a cycle',
    async (offset) => {
      const { h } = await polledOnce(offset);
      await h.engine.pause();
      h.engine.resume();
      await h.clock.advance(20_000);
      const polls = h.client.pollsOf('task-1');
      expect(polls.length).toBeGreaterThan(5);
      expectCadence(polls);
      // Not later than needed: the first poll after the resume is due once the interval is over.
      expect(polls[1]! - polls[0]!).toBeLessThanOrEqual(Math.max(offset, INTERVAL) + INTERVAL);
    },
  );

  it.each(OFFSETS)(
    'keeps 3 s between polls when the task is resumed %i ms into a cycle',
    async (offset) => {
      const { h, localId } = await polledOnce(offset);
      h.engine.resumeTask(localId);
      await h.clock.advance(1_000);
      h.engine.resumeTask(localId);
      await h.clock.advance(20_000);
      const polls = h.client.pollsOf('task-1');
      expect(polls.length).toBeGreaterThan(5);
      expectCadence(polls);
    },
  );

  it('keeps 3 s between polls when resumed while a poll is out', async () => {
    const { h, localId } = await polledOnce(INTERVAL - 1);
    const { step, release } = heldPoll();
    h.client.pollSteps = [step];
    await h.clock.advance(1);
    expect(h.client.pollsOf('task-1')).toHaveLength(2);
    h.engine.resumeTask(localId);
    await h.clock.advance(500);
    release();
    await h.clock.advance(20_000);
    expectCadence(h.client.pollsOf('task-1'));
    expect(h.client.maxInFlightPolls).toBe(1);
  });

  it('polls at once a resumed task whose last poll is older than the interval', async () => {
    const { h, localId } = await polledOnce(0);
    await h.engine.pause();
    await h.clock.advance(10_000);
    const resumedAt = h.clock.now();
    h.engine.resume();
    await h.clock.advance(0);
    expect(h.client.pollsOf('task-1').at(-1)).toBe(resumedAt);
    await h.clock.advance(10_000);
    const at = h.clock.now();
    h.engine.resumeTask(localId);
    await h.clock.advance(0);
    // The last poll was 1 s ago at most (3 s cadence): the resume waits for the interval.
    const last = h.client.pollsOf('task-1');
    expectCadence(last);
    expect(last.at(-1)! <= at).toBe(true);
  });

  it('honours a last poll recorded by another process (the history)', async () => {
    const h = engineHarness({ bookkeepingWriteMs: 0 });
    h.client.durationMs = 3_600_000;
    h.engine.start();
    await h.engine.submit({ prompt: 'handed over' }, TARGET);
    await h.clock.advance(INTERVAL);
    await h.clock.advance(400);
    // Another process takes the task up from the history, 400 ms after the last poll.
    await h.restart();
    await h.clock.advance(20_000);
    const polls = h.client.pollsOf('task-1');
    expect(polls.length).toBeGreaterThan(5);
    expectCadence(polls);
  });
});
