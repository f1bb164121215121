/**
 * The spec's cadence with the default interval: a query every three seconds while processing
 * (spec §3, §4 rule 2, §8). The one test that runs at full speed (~6 s): the task outlasts the
 * first poll (3 s after the submit) by 1.5 s and ends before the second, so the run shows one whole
 * gap. That every gap is the interval, exactly, is shown on a manual clock (engine-polling.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { expectExit, onlyTask, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

const DURATION_MS = 4_500;

describe('pictor generate with the default poll interval', () => {
  it('polls about every 3 s, and not more often than the task needs', async () => {
    const world = await newWorld({ durationMs: DURATION_MS });
    const run = await world.run(['generate', '--prompt', 'patience', '--timeout', '40', '--json'], {
      fast: false,
      timeoutMs: 50_000,
    });
    expectExit(run, 0);
    const line = onlyTask(run);
    expect(line.status).toBe('completed');
    const times = world.service.polls(line.taskId!).map((poll) => poll.at);
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times.length).toBeLessThanOrEqual(Math.ceil(DURATION_MS / 3_000) + 2);
    const gaps = times.slice(1).map((at, index) => Math.round(at - times[index]!));
    // Only bounds a loaded machine cannot break: load makes gaps longer and polls fewer, never
    // shorter or more. That the engine polls no later than planned is shown on a manual clock
    // (engine-polling.test.ts: every gap exactly the interval), and the 3 s default by cli-args'.
    for (const gap of gaps) {
      expect(gap, `gaps between polls: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(2_700);
    }
  }, 60_000);
});
