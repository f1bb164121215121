/**
 * What the CLI does when the submit is not a plain 200: throttled (wait, do not duplicate),
 * refused key, no credits.
 */
import { describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, onlyTask, UNKNOWN_KEY, useCliWorlds } from './cli-harness';
import { describeRun } from './run-cli';

const newWorld = useCliWorlds();

/** A sentence for a person, not a stack trace or a raw body. */
function expectSentence(text: string, about: RegExp): void {
  expect(text.trim().split(/\s+/).length, text).toBeGreaterThanOrEqual(3);
  expect(text, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(text).toMatch(about);
}

describe('pictor generate when the submit is refused', () => {
  it('waits out 429s (with and without Retry-After) and ends with exactly one task', async () => {
    const world = await newWorld({ durationMs: 300, submitThrottle: ['retry-after', 'bare'] });
    const run = await world.run(['generate', '--prompt', 'busy day', '--json'], {
      timeoutMs: 55_000,
    });
    expectExit(run, 0);
    const submits = world.service.submits();
    expect(submits.map((submit) => submit.status)).toEqual([429, 429, 200]);
    expect(submits[1]!.at - submits[0]!.at, 'Retry-After: 1 honoured').toBeGreaterThanOrEqual(900);
    const tasks = world.service.tasks();
    expect(tasks).toHaveLength(1);
    const line = onlyTask(run);
    expect(line).toMatchObject({ taskId: tasks[0]!.id, status: 'completed', exitCode: 0 });
    expect(line.images.map((image) => image.state)).toEqual(['saved']);
  }, 60_000);

  it('401 with a string error: exit 6 (refused, not a usage error), a sentence about the key, recorded as submit_failed', async () => {
    const world = await newWorld();
    const run = await world.run(['generate', '--prompt', 'anything'], { key: UNKNOWN_KEY });
    expectExit(run, 6);
    expectSentence(run.stderr, /key/i);
    expect(run.stdout.trim(), 'no image paths').toBe('');
    expect(world.service.tasks()).toHaveLength(0);
    expect(
      world.service.log.filter((entry) => entry.method === 'GET'),
      'no polling',
    ).toEqual([]);
    const listed = await world.list();
    expect(listed, describeRun(world.runs.at(-1)!)).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 'submit_failed', taskId: null });
  });

  it('402 no credits: exit 6 with a credits message, --json says submit_failed', async () => {
    const world = await newWorld();
    const run = await world.run(['generate', '--prompt', 'anything'], { key: QUIRKY_KEYS.carol });
    expectExit(run, 6);
    expectSentence(run.stderr, /credit/i);
    expect(world.service.submits().map((submit) => submit.status)).toEqual([402]);

    const json = await world.run(['generate', '--prompt', 'again', '--json'], {
      key: QUIRKY_KEYS.carol,
    });
    expectExit(json, 6);
    const line = onlyTask(json);
    expect(line).toMatchObject({ status: 'submit_failed', taskId: null, exitCode: 6 });
    expect(line.error).toMatch(/credit/i);
    expect(world.service.submits(), 'each refused submit was sent once').toHaveLength(2);
    expect(world.service.tasks()).toHaveLength(0);
  });
});
