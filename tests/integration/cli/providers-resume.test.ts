/**
 * A task of each provider outlives the CLI that submitted it. Killed after the service accepted
 * the task, the CLI's `resume --all --provider <d> --base-url <demo>` finishes it without
 * submitting again (the demo's log counts one submit). Stopped by its watch timeout, the CLI
 * exits 3 and prints a resume line with --provider that, run as printed, saves the image. Without
 * --provider, the same resume waits and names the option.
 */
import { describe, expect, it } from 'vitest';
import { expectExit, STOP_WATCHING } from './cli-harness';
import {
  DIALECTS,
  commandWords,
  expectKeyOnlyInDialectHeader,
  printedCommands,
  useProviderWorlds,
} from './providers-harness';
import { jsonLines } from './run-cli';

const newWorld = useProviderWorlds();

/** Long enough that no task ends unless the test completes it through the control API. */
const FOREVER = ['--duration', '600000'];

describe.each(DIALECTS)('--provider %s', (dialect) => {
  it('resumes after the CLI was killed, without submitting again', async () => {
    const world = await newWorld(dialect, FOREVER);
    const running = world.start(['generate', ...world.named, '--prompt', 'a lighthouse']);
    // The progress line names the service's id: the submit was answered and the id is stored.
    await running.stderrLine(/^\[[^\]]+\] processing /);
    running.child.kill('SIGKILL');
    expect((await running.finished).code).toBeNull();

    const [task] = await world.service.tasks();
    await world.service.control(`tasks/${task!.id}/complete`);
    const resumed = await world.run(['resume', '--all', ...world.named, '--json']);
    expectExit(resumed, 0);
    expect(jsonLines(resumed)[0]).toMatchObject({ taskId: task!.id, status: 'completed' });
    const log = await world.service.log();
    expect(log.submits).toHaveLength(1);
    expectKeyOnlyInDialectHeader(dialect, log);
  });

  it('exits 3 at the watch timeout with a resume line that names the provider and works', async () => {
    const world = await newWorld(dialect, FOREVER);
    const watched = await world.run([
      'generate',
      ...world.named,
      '--prompt',
      'p',
      '--timeout',
      STOP_WATCHING,
    ]);
    expectExit(watched, 3);
    const [command] = printedCommands(watched);
    expect(command, watched.stderr).toBeDefined();
    const words = commandWords(command!);
    expect(words.slice(words.indexOf('--provider'), words.indexOf('--provider') + 4)).toEqual([
      '--provider',
      dialect,
      '--base-url',
      world.service.url,
    ]);

    // The key given for today's contract is not sent with this provider's task: it waits and
    // says which --provider it needs.
    const unnamed = await world.run(['resume', '--all', '--base-url', world.service.url]);
    expectExit(unnamed, 3);
    expect(unnamed.stderr).toMatch(new RegExp(`resume it with --provider ${dialect}`));

    const [task] = await world.service.tasks();
    await world.service.control(`tasks/${task!.id}/complete`);
    const pasted = await world.run(words.slice(0, words.indexOf('--data-dir')).concat('--json'));
    expectExit(pasted, 0);
    expect(jsonLines(pasted)[0]).toMatchObject({ provider: dialect, status: 'completed' });
    const log = await world.service.log();
    expect(log.submits).toHaveLength(1);
    expectKeyOnlyInDialectHeader(dialect, log);
  });
});

describe('resume --all --provider, with tasks of two services in one library', () => {
  it('resumes only that provider’s tasks and never says an address a record gives', async () => {
    const world = await newWorld('fal', FOREVER);
    const address = new URL(world.service.url).host;
    // The built-in demo's tasks take this long (ms) in each command's own demo: the next
    // command's demo makes the task again, created when it first was, with its own duration.
    const demoTakes = (ms: number) => ({ env: { PICTOR_DEMO_DURATION_MS: String(ms) } });
    const stopped = (args: string[]) =>
      world.run([...args, '--timeout', STOP_WATCHING], demoTakes(600_000));
    // A fal task and a built-in demo task, each left processing when the CLI stopped watching.
    expectExit(await stopped(['generate', ...world.named, '--prompt', 'on fal']), 3);
    expectExit(await stopped(['generate', '--provider', 'demo', '--prompt', 'on the demo']), 3);
    const [falTask] = await world.service.tasks();
    const pollsBefore = (await world.service.log()).polls.length;

    const demo = await world.run(['resume', '--all', '--provider', 'demo', '--json'], demoTakes(0));
    expectExit(demo, 0);
    expect(jsonLines(demo)).toHaveLength(1);
    expect(jsonLines(demo)[0]).toMatchObject({ prompt: 'on the demo', status: 'completed' });
    expect(demo.stdout + demo.stderr).not.toContain(address);
    expect(demo.stderr).not.toContain(falTask!.id);
    expect((await world.service.log()).polls, 'the fal task is not polled').toHaveLength(
      pollsBefore,
    );

    // Nothing of the demo's is left: --provider demo says so, and names no other service's task.
    const none = await world.run(['resume', '--all', '--provider', 'demo']);
    expectExit(none, 0);
    expect(none.stderr).toMatch(/^Nothing to resume of Pictor's built-in demo service/m);
    expect(none.stdout + none.stderr).not.toContain(address);

    await world.service.control(`tasks/${falTask!.id}/complete`);
    const fal = await world.run(['resume', '--all', ...world.named, '--json']);
    expectExit(fal, 0);
    expect(jsonLines(fal)).toHaveLength(1);
    expect(jsonLines(fal)[0]).toMatchObject({
      taskId: falTask!.id,
      provider: 'fal',
      status: 'completed',
    });
  });
});
