/**
 * Polling through a gateway that misbehaves, and tasks that fail with an `error` of either
 * shape the spec leaves "not shown".
 */
import { describe, expect, it } from 'vitest';
import { expectExit, onlyTask, useCliWorlds } from './cli-harness';
import { jsonLines } from './run-cli';

const newWorld = useCliWorlds();

describe('pictor generate while polling', () => {
  it('survives a 502 HTML page, a 503 with an HTTP-date Retry-After and a 429', async () => {
    const world = await newWorld({
      durationMs: 1_500,
      pollFaults: ['html502', 'date503', 'throttle429'],
    });
    const run = await world.run(['generate', '--prompt', 'stormy sea', '--json']);
    expectExit(run, 0);
    const line = onlyTask(run);
    expect(line).toMatchObject({ status: 'completed', exitCode: 0, error: null });
    expect(line.images.map((image) => image.state)).toEqual(['saved']);
    const polls = world.service.polls(line.taskId!);
    expect(polls.slice(0, 3).map((poll) => poll.status)).toEqual([502, 503, 429]);
    expect(polls.at(-1)!.status).toBe(200);
    // The HTTP-date is 2 s ahead rounded down to the second, so at least ~1 s away.
    expect(polls[2]!.at - polls[1]!.at, 'Retry-After date honoured').toBeGreaterThanOrEqual(900);
    expect(polls[3]!.at - polls[2]!.at, 'Retry-After: 1 honoured').toBeGreaterThanOrEqual(900);
    expect(run.stdout + run.stderr, 'no raw HTML shown').not.toMatch(/<html|<!DOCTYPE/i);
    expect(world.service.submits()).toHaveLength(1);
  });

  it('a failed task with a string error: exit 1 and the message in --json error', async () => {
    const world = await newWorld({
      durationMs: 100,
      outcome: () => ({ kind: 'failed', error: 'content policy violation' }),
    });
    const run = await world.run(['generate', '--prompt', 'forbidden', '--json']);
    expectExit(run, 1);
    const line = onlyTask(run);
    expect(line).toMatchObject({ status: 'failed', exitCode: 1, hold: null });
    expect(line.error).toContain('content policy violation');
    expect(line.images).toEqual([]);
  });

  it('a failed task with an object error {code, message}: exit 1 and the message', async () => {
    const world = await newWorld({
      durationMs: 100,
      outcome: () => ({
        kind: 'failed',
        error: { code: 'moderation_blocked', message: 'Prompt was blocked by the safety system' },
      }),
    });
    const run = await world.run(['generate', '--prompt', 'forbidden', '--json']);
    expectExit(run, 1);
    const line = onlyTask(run);
    expect(line).toMatchObject({ status: 'failed', exitCode: 1 });
    expect(line.error).toContain('Prompt was blocked by the safety system');
    expect(line.error).not.toContain('[object Object]');
  });

  it('with several tasks the exit code is the highest: one completed, one failed → 1', async () => {
    const world = await newWorld({
      durationMs: 100,
      outcome: (task) =>
        task.seq === 1 ? { kind: 'completed' } : { kind: 'failed', error: 'out of ideas' },
    });
    const run = await world.run(['generate', '--prompt', 'pair', '--count', '2', '--json']);
    expectExit(run, 1);
    const lines = jsonLines(run);
    const byTask = new Map(lines.map((line) => [line.taskId, line]));
    const [first, second] = world.service.tasks();
    expect(byTask.get(first!.id)).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(byTask.get(second!.id)).toMatchObject({ status: 'failed', exitCode: 1 });
    expect(world.service.submits()).toHaveLength(2);
  });
});
