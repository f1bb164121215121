/**
 * A watch timeout does not cancel generation (spec §3 rule 1): the id is kept, `resume`
 * continues it without a new submit; `track` adopts an id created elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../fakes/manual-clock';
import { expectExit, expectSavedImage, onlyTask, STOP_WATCHING, useCliWorlds } from './cli-harness';
import { describeRun, jsonLines } from './run-cli';

const newWorld = useCliWorlds();

// The tasks below run on the service's manual clock: they are still processing when the watch
// stops (STOP_WATCHING), whatever the machine's load, and end when the test moves the clock past
// their duration (a resume waited 2.2 s of wall time for them before).

/** A task's duration on the service's clock (ms). */
const SLOW_MS = 2_500;

describe('pictor resume and track', () => {
  it('a watch timeout on a slow task exits 3 naming the id and the resume command; resume completes it', async () => {
    const clock = new ManualClock(Date.now());
    const world = await newWorld({ durationMs: SLOW_MS, now: () => clock.now() });
    const run = await world.run([
      'generate',
      '--prompt',
      'slow glacier',
      '--timeout',
      STOP_WATCHING,
      '--json',
    ]);
    expectExit(run, 3);
    const line = onlyTask(run);
    const [task] = world.service.tasks();
    expect(line).toMatchObject({
      taskId: task!.id,
      status: 'processing',
      hold: 'timed_out',
      exitCode: 3,
    });
    expect(run.stderr).toContain(task!.id);
    expect(run.stderr, 'the resume command is shown').toMatch(/\bresume\b/);

    await clock.jump(SLOW_MS);
    const resumed = await world.run(['resume', task!.id, '--json']);
    expectExit(resumed, 0);
    const done = onlyTask(resumed);
    expect(done).toMatchObject({ taskId: task!.id, status: 'completed', hold: null, exitCode: 0 });
    await expectSavedImage(done.images[0]!.path!, { width: 64, height: 64 });
    expect(world.service.submits(), 'resume never submits').toHaveLength(1);
    expect(world.service.tasks()).toHaveLength(1);
  });

  it('resume --all continues every timed-out task, with no new submit', async () => {
    const clock = new ManualClock(Date.now());
    const world = await newWorld({ durationMs: SLOW_MS, now: () => clock.now() });
    const run = await world.run([
      'generate',
      '--prompt',
      'twins',
      '--count',
      '2',
      '--timeout',
      STOP_WATCHING,
    ]);
    expectExit(run, 3);
    const ids = world.service.tasks().map((task) => task.id);
    for (const id of ids) expect(run.stderr).toContain(id);

    await clock.jump(SLOW_MS);
    const resumed = await world.run(['resume', '--all', '--json']);
    expectExit(resumed, 0);
    const lines = jsonLines(resumed);
    expect(lines.map((line) => line.taskId).sort(), describeRun(resumed)).toEqual([...ids].sort());
    expect(lines.every((line) => line.status === 'completed' && line.exitCode === 0)).toBe(true);
    expect(world.service.submits()).toHaveLength(2);
    const listed = await world.list();
    expect(listed.map((task) => task.status)).toEqual(['completed', 'completed']);
  });

  it('track adopts a task created outside the app and completes it into the gallery', async () => {
    const world = await newWorld({ durationMs: 800 });
    const id = world.service.createTaskFor('alice', 'painted elsewhere', '40x24');
    const run = await world.run(['track', id, '--prompt', 'painted elsewhere', '--json']);
    expectExit(run, 0);
    const line = onlyTask(run);
    expect(line).toMatchObject({ taskId: id, status: 'completed', exitCode: 0 });
    const sidecar = await expectSavedImage(line.images[0]!.path!, { width: 40, height: 24 });
    expect(JSON.stringify(sidecar)).toContain(id);
    expect(world.service.submits(), 'track never submits').toHaveLength(0);
    expect(world.service.polls(id).length).toBeGreaterThanOrEqual(1);
    const listed = await world.list();
    expect(listed.map((task) => [task.taskId, task.status])).toEqual([[id, 'completed']]);
  });
});
