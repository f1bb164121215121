/**
 * The wall clock set while tasks poll (NTP, the user, a time zone set wrong and corrected): the
 * service is still asked every three seconds, never sooner and not hours later. Node's timers run
 * on the monotonic clock, so a set clock moves only what `now()` says (ManualClock.setWall); a
 * time stamped before the change (a record's last poll, a planned phase, a watch's start) is then
 * in the "future" and must not hold a task back by the hours the clock went back, in the process
 * that stamped it or after a restart.
 *
 * Poll times are judged on the timers' clock: the service's log stamps the wall clock, so each
 * poll after a change is shifted back by it.
 */
import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from '../../unit/core/engine/engine-harness';

const INTERVAL = 3_000;
const HOUR = 3_600_000;
/** How far the clock is set back: under an interval, about one, a minute, an hour, a day, a year. */
const SET_BACKS = [1, 1_500, INTERVAL, 60_000, HOUR, 24 * HOUR, 365 * 24 * HOUR];
/** Where in a poll cycle the clock is set, in ms after the task's last poll. */
const PHASES = [0, 1_500, INTERVAL - 1];
/** How long the run is watched after the change, on the timers' clock. */
const WATCH = 30_000;

type Harness = ReturnType<typeof engineHarness>;

/** A harness whose one task (bookkeeping written at once) was polled once, `phase` ms ago. */
async function polledOnce(phase: number): Promise<Harness> {
  const h = engineHarness({ bookkeepingWriteMs: 0 });
  h.client.durationMs = 10 * 365 * 24 * HOUR;
  h.engine.start();
  await h.engine.submit({ prompt: 'through the night' }, TARGET);
  await h.clock.advance(INTERVAL);
  expect(h.client.pollsOf('task-1')).toHaveLength(1);
  await h.clock.advance(phase);
  return h;
}

/** The task's polls on the timers' clock, the wall clock having been set by `shift` after `before` polls. */
function timerTimes(h: Harness, before: number, shift: number): number[] {
  return h.client.pollsOf('task-1').map((at, i) => (i < before ? at : at - shift));
}

/** Every gap between polls is at least one interval and at most two. */
function expectCadence(times: number[]): void {
  expect(times.length).toBeGreaterThanOrEqual(WATCH / INTERVAL);
  const gaps = times.slice(1).map((time, i) => time - times[i]!);
  for (const gap of gaps) {
    expect(gap).toBeGreaterThanOrEqual(INTERVAL);
    expect(gap).toBeLessThanOrEqual(2 * INTERVAL);
  }
}

describe('the wall clock set while tasks poll', () => {
  describe.each(SET_BACKS)('set back %i ms', (back) => {
    it.each(PHASES)('keeps polling every 3 s when set %i ms into a cycle', async (phase) => {
      const h = await polledOnce(phase);
      h.clock.setWall(-back);
      await h.clock.advance(WATCH);
      expectCadence(timerTimes(h, 1, -back));
    });

    it.each(PHASES)(
      'a restart %i ms into a cycle polls within an interval, never sooner',
      async (phase) => {
        const h = await polledOnce(phase);
        h.clock.setWall(-back);
        await h.restart();
        await h.clock.advance(WATCH);
        expectCadence(timerTimes(h, 1, -back));
      },
    );

    it('every one of 40 tasks keeps polling every 3 s', async () => {
      const h = engineHarness({ bookkeepingWriteMs: 0 });
      h.client.durationMs = 10 * 365 * 24 * HOUR;
      h.engine.start();
      await h.engine.submit({ prompt: 'a crowd' }, TARGET, 40);
      await h.clock.advance(INTERVAL + 1_000);
      const before = h.client.polls.length;
      h.clock.setWall(-back);
      await h.clock.advance(WATCH);
      const after = h.client.polls.slice(before);
      for (let task = 1; task <= 40; task += 1) {
        const polls = after.filter((poll) => poll.id === `task-${task}`);
        expect(polls.length, `task-${task}`).toBeGreaterThanOrEqual(WATCH / INTERVAL - 1);
      }
    });

    it('a watch timeout still ends the watch about its length after it began', async () => {
      const h = engineHarness({ watchTimeoutMs: 60_000 });
      h.client.durationMs = 10 * 365 * 24 * HOUR;
      h.engine.start();
      await h.engine.submit({ prompt: 'watched' }, TARGET);
      await h.clock.advance(30_000);
      h.clock.setWall(-back);
      // The set-back may lengthen the watch by what had run (30 s), never by more.
      await h.clock.advance(29_000);
      expect(h.history.get('local-1')?.hold).toBeNull();
      await h.clock.advance(60_000 + INTERVAL);
      expect(h.history.get('local-1')).toMatchObject({ status: 'processing', hold: 'timed_out' });
    });
  });

  it.each([1_500, INTERVAL, HOUR, 24 * HOUR])(
    'set forward %i ms, polls stay one interval apart on the timers’ clock',
    async (forward) => {
      const h = await polledOnce(1_000);
      h.clock.setWall(forward);
      await h.clock.advance(WATCH);
      expectCadence(timerTimes(h, 1, forward));
    },
  );
});
