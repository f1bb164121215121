import { describe, expect, it } from 'vitest';
import { withRetryTiming } from '../../../../electron/core/engine/engine-context';
import { DEFAULT_ENGINE_OPTIONS } from '../../../../electron/core/engine/engine-types';
import { silentLogger } from '../../../../electron/ports/logger';
import { ManualClock } from '../../../fakes/manual-clock';

function timing(random = 0.5) {
  const clock = new ManualClock();
  const aborter = new AbortController();
  const options = { ...DEFAULT_ENGINE_OPTIONS, pollIntervalMs: 1_000, maxBackoffMs: 5_000 };
  const ctx = withRetryTiming({
    clock,
    logger: silentLogger,
    random: () => random,
    options,
    signal: aborter.signal,
    get: () => undefined,
    commit: (record) => record,
    runInBackground: (work) => work,
    isStopped: () => aborter.signal.aborted,
    isPaused: () => false,
    owns: () => true,
    announceLive: () => undefined,
    watchSleep: () => undefined,
  });
  return { clock, aborter, ctx };
}

describe('the engine context’s retry timing', () => {
  it('backs off from the poll interval, doubling, capped, with Retry-After as a floor', () => {
    const { ctx } = timing();
    expect([1, 2, 3, 4].map((failures) => ctx.backoff(failures))).toEqual([
      1_000, 2_000, 4_000, 5_000,
    ]);
    expect(ctx.backoff(1, 30_000)).toBe(30_050);
  });

  it('sleeps on the engine clock', async () => {
    const { clock, ctx } = timing();
    let woke = false;
    void ctx.sleep(2_000).then(() => (woke = true));
    await clock.advance(1_999);
    expect(woke).toBe(false);
    await clock.advance(1);
    expect(woke).toBe(true);
  });

  it('wakes a sleep at once when the engine stops, leaving no timer behind', async () => {
    const { clock, aborter, ctx } = timing();
    const sleeping = ctx.sleep(60_000);
    aborter.abort();
    await sleeping;
    expect(clock.pending).toBe(0);
  });
});
