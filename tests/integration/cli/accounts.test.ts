/**
 * A task belongs to the account that created it (spec §4 rule 1, §5): another account's key
 * sees 404, which must not turn the task into a failure; any key of the right account resumes it.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../fakes/manual-clock';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, onlyTask, STOP_WATCHING, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

describe('pictor with more than one account', () => {
  it("alice's task resumed with bob's key waits for a key; alice's second key completes it", async () => {
    // The task runs on the service's manual clock: processing until alice's second key resumes it.
    const clock = new ManualClock(Date.now());
    const world = await newWorld({ durationMs: 2_500, now: () => clock.now() });
    const run = await world.run([
      'generate',
      '--prompt',
      'private',
      '--timeout',
      STOP_WATCHING,
      '--json',
    ]);
    expectExit(run, 3);
    const [task] = world.service.tasks();
    expect(task!.account).toBe('alice');

    const asBob = await world.run(['resume', task!.id, '--json'], { key: QUIRKY_KEYS.bob });
    expectExit(asBob, 3);
    const held = onlyTask(asBob);
    expect(held).toMatchObject({ taskId: task!.id, status: 'processing', hold: 'awaiting_key' });
    expect(held.images.every((image) => image.state !== 'saved')).toBe(true);
    const afterBob = await world.list();
    expect(
      afterBob.map((line) => line.status),
      'never failed or not_found',
    ).toEqual(['processing']);

    await clock.jump(2_500);
    const asAlice = await world.run(['resume', task!.id, '--json'], { key: QUIRKY_KEYS.alice2 });
    expectExit(asAlice, 0);
    const done = onlyTask(asAlice);
    expect(done).toMatchObject({ taskId: task!.id, status: 'completed', hold: null, exitCode: 0 });
    expect(done.images.map((image) => image.state)).toEqual(['saved']);
    expect(world.service.submits()).toHaveLength(1);
    expect(world.service.tasks()).toHaveLength(1);
    const listed = await world.list();
    expect(listed.map((line) => [line.taskId, line.status])).toEqual([[task!.id, 'completed']]);
  });

  it('tracking an id the service does not know (404 to the same key): not_found, exit 1', async () => {
    const world = await newWorld();
    const run = await world.run(['track', 'gen-doesnotexist0000', '--json']);
    expectExit(run, 1);
    expect(onlyTask(run)).toMatchObject({
      taskId: 'gen-doesnotexist0000',
      status: 'not_found',
      exitCode: 1,
    });
    expect(world.service.submits()).toHaveLength(0);
  });
});
