/**
 * The command line tried as a newcomer would, as child processes of the bundled CLI: the prompt
 * as the words after `generate`, and the built-in demo (`--provider demo`, `pictor demo`) with no
 * key and no address, started inside the command and closed with it. A demo task the command did
 * not see finish is resumed by the command it prints. SERVICE_API_KEY, when set, reaches no
 * output, no file and no service (the world's checks after each test), and the world's own
 * service hears nothing from a demo run.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, expectSavedImage, onlyTask, useCliWorlds, type CliWorld } from './cli-harness';
import { describeRun, type CliRun } from './run-cli';

const newWorld = useCliWorlds();

/** A demo run: no --base-url added, the demo's tasks this long. */
function onDemo(world: CliWorld, args: string[], durationMs: number, key: string | null = null) {
  return world.run(args, {
    named: false,
    key,
    env: { PICTOR_DEMO_DURATION_MS: String(durationMs) },
  });
}

/** A demo task's duration (ms) that no test outlasts: the longest PICTOR_DEMO_DURATION_MS. */
const NEVER_ENDS = 600_000;

/** The arguments of the command a line printed after `Resume with: pictor ` (single-quoted parts kept whole). */
function printedArgs(run: CliRun, after: RegExp): string[] {
  const line = run.stderr.split('\n').find((text) => after.test(text));
  expect(line, describeRun(run)).toBeDefined();
  const command = line!.replace(after, '').replace(/^.*? resume /, 'resume ');
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((part) => part[1] ?? part[2] ?? '');
}

describe('the built-in demo on the command line', () => {
  it('generate --provider demo "prompt" makes and saves a picture with no key and no address', async () => {
    const world = await newWorld();
    const run = await onDemo(
      world,
      ['generate', '--provider', 'demo', 'a lighthouse at dusk', '--size', '64x48'],
      200,
    );
    expectExit(run, 0);
    expect(run.stderr).toMatch(
      /^Using Pictor's built-in demo service, started inside this command/,
    );
    expect(run.stderr).not.toMatch(/SERVICE_API_KEY/);
    const [path] = run.stdout.trim().split('\n');
    const sidecar = await expectSavedImage(path!, { width: 64, height: 48 });
    expect(sidecar).toMatchObject({
      record: {
        endpoint: 'demo:',
        request: { prompt: 'a lighthouse at dusk' },
        cost: { source: 'free' },
      },
    });
    const listed = await world.run(['list', '--provider', 'demo']);
    expectExit(listed, 0);
    expect(listed.stdout).toMatch(/ demo {6}completed .+ 1\/1 {2}a lighthouse at dusk\n$/);
    expect(world.service.log, 'the world’s service heard nothing').toEqual([]);
  });

  it('never reads SERVICE_API_KEY on the demo, and says so', async () => {
    const world = await newWorld();
    const run = await onDemo(
      world,
      ['generate', '--provider', 'demo', 'three', 'owls', '--size', '32x32', '--json'],
      200,
      QUIRKY_KEYS.alice,
    );
    expectExit(run, 0);
    expect(run.stderr).toContain('SERVICE_API_KEY is not used, and goes nowhere.');
    expect(onlyTask(run)).toMatchObject({ status: 'completed', prompt: 'three owls' });
    expect(world.service.log).toEqual([]);
  });

  it('a demo task the command stopped watching is resumed by the command it printed', async () => {
    const world = await newWorld();
    const first = await onDemo(
      world,
      [
        'generate',
        '--provider',
        'demo',
        'a slow lighthouse',
        '--size',
        '32x32',
        '--timeout',
        '0.3',
      ],
      NEVER_ENDS,
    );
    expectExit(first, 3);
    const resume = printedArgs(first, /^Task \S+ is still processing.+Resume with: /);
    expect(resume).toEqual(expect.arrayContaining(['resume', '--provider', 'demo']));
    expect(resume).not.toContain('--base-url');
    // A run with a key for another service leaves it waiting, and says how to resume it.
    const elsewhere = await world.run(['resume', '--all'], { key: QUIRKY_KEYS.alice });
    expectExit(elsewhere, 3);
    expect(elsewhere.stderr).toMatch(
      /is waiting: This task was made on Pictor's built-in demo service\. Resume it with --provider demo/,
    );
    // The printed command, as typed: the next demo makes the task again, created when it first
    // was, and it completes (this demo's tasks take no time, so at once).
    const second = await onDemo(world, resume, 0);
    expectExit(second, 0);
    const [path] = second.stdout.trim().split('\n');
    await expectSavedImage(path!, { width: 32, height: 32 });
    const tasks = await world.list();
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ status: 'completed' });
    expect(world.service.submits()).toEqual([]);
  });

  it('pictor demo explains itself, draws the sample prompt, and shows the way to a real service', async () => {
    const world = await newWorld();
    const run = await onDemo(world, ['demo', '--size', '32x32', '--json'], 200);
    expectExit(run, 0);
    expect(run.stderr).toMatch(
      / demo is .+ generate --provider demo: it runs Pictor's command line/,
    );
    expect(run.stderr).toContain('No prompt given, so the sample prompt');
    expect(run.stderr).toMatch(/To use a real service, set SERVICE_API_KEY to its key and run /);
    const task = onlyTask(run);
    expect(task.status).toBe('completed');
    const sidecar = await readFile(task.images[0]!.path!.replace(/image-1\.png$/, 'pictor.json'));
    expect(sidecar.toString()).toContain('a lighthouse on a rocky coast at dusk');
  });
});

describe('the prompt as the words after generate', () => {
  it('is sent as the prompt, one quoted argument or several words joined by spaces', async () => {
    const world = await newWorld({ durationMs: 200 });
    const quoted = await world.run(['generate', 'a lighthouse at dusk', '--size', '32x32']);
    expectExit(quoted, 0);
    const words = await world.run(['generate', '--size', '32x32', 'a', 'red', 'fox']);
    expectExit(words, 0);
    const prompts = world.service
      .submits()
      .map((submit) => (JSON.parse(submit.body) as { prompt: string }).prompt);
    expect(prompts).toEqual(['a lighthouse at dusk', 'a red fox']);
  });

  it('is refused with a sentence, exit 2 and nothing sent: twice, a pasted key, no address', async () => {
    const world = await newWorld();
    const twice = await world.run(['generate', 'one', '--prompt', 'two']);
    expectExit(twice, 2);
    expect(twice.stderr).toMatch(/^generate takes its prompt once/);
    const pasted = await world.run(['generate', QUIRKY_KEYS.bob]);
    expectExit(pasted, 2);
    expect(pasted.stderr).toMatch(/looks like an API key, so nothing was sent/);
    const nowhere = await world.run(['generate', 'a lighthouse'], { named: false });
    expectExit(nowhere, 2);
    expect(nowhere.stderr).toMatch(/use --provider demo: its built-in demo service/);
    const demoAddress = await world.run(['generate', '--provider', 'demo', 'p']);
    expectExit(demoAddress, 2);
    expect(demoAddress.stderr).toMatch(/it takes no --base-url/);
    expect(world.service.log).toEqual([]);
  });
});

describe('the short id generate prints', () => {
  it('is taken by every command that names a task', async () => {
    const world = await newWorld();
    const made = await onDemo(world, ['generate', '--provider', 'demo', 'a kite'], 200);
    expectExit(made, 0);
    const short = /^\[([0-9a-f]{8})\] submitting /m.exec(made.stderr)?.[1];
    expect(short, made.stderr).toBeDefined();
    const [path] = made.stdout.trim().split('\n');
    expect(path).toContain(`_${short!}/`);

    const resumed = await onDemo(world, ['resume', short!, '--provider', 'demo', '--json'], 200);
    expectExit(resumed, 0);
    expect(onlyTask(resumed).localId.startsWith(short!)).toBe(true);
    expectExit(await world.run(['rate', `${short!}#1`, '4'], { named: false }), 0);
    const listed = await world.run(['list', '--rating', '>=4'], { named: false });
    expect(listed.stdout.trim().split('\n'), describeRun(listed)).toEqual([
      expect.stringMatching(/^\S+#1 +★★★★ /),
    ]);
    const archive = `${world.dataDir}/one.zip`;
    const exported = await world.run(['export', archive, '--task', short!], { named: false });
    expectExit(exported, 0);
    expect(exported.stdout).toMatch(/^Exported 1 task\(s\)/);
    // An id no task starts with is said so, without repeating it.
    const none = await world.run(['export', `${archive}.2`, '--task', 'ffffffff'], {
      named: false,
    });
    expectExit(none, 2);
    expect(none.stderr).not.toContain('ffffffff');
  });
});
