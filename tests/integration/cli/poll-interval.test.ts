/**
 * The spec's cadence with the default interval: a query every three seconds while processing
 * (spec §3, §4 rule 2, §8). The one test that runs at full speed (~3 s): the task ends before the
 * first poll, which comes one interval after the submit, so the run shows one whole interval on
 * the real clock, in the real command with no --poll-interval. That the first poll is exactly one
 * interval after the submit and every later gap the interval too is shown on a manual clock
 * (engine-polling.test.ts), and the 3 s default by cli-args'. (Waiting out a second poll, as this
 * test did, showed the same interval again and cost 3 s more of an idle worker.)
 */
import { describe, expect, it } from 'vitest';
import { expectExit, onlyTask, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

const DURATION_MS = 1_500;

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
    const [submit] = world.service.submits();
    const polls = world.service.polls(line.taskId!);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.length).toBeLessThanOrEqual(Math.ceil(DURATION_MS / 3_000) + 1);
    const times = [submit!.at, ...polls.map((poll) => poll.at)];
    const gaps = times.slice(1).map((at, index) => Math.round(at - times[index]!));
    // Only bounds a loaded machine cannot break: load makes gaps longer and polls fewer, never
    // shorter or more. That the engine polls no later than planned is shown on a manual clock
    // (engine-polling.test.ts: every gap exactly the interval), and the 3 s default by cli-args'.
    for (const gap of gaps) {
      expect(
        gap,
        `gaps from the submit and between polls: ${gaps.join(', ')} ms`,
      ).toBeGreaterThanOrEqual(2_700);
    }
  }, 60_000);
});
