/**
 * `pictor cancel <task-id>…` against the demo service in each dialect on loopback (both in this
 * process: providers-harness.ts): a task left queued by a generate that stopped watching (exit 3) is canceled (exit 0,
 * not billed), one the service already finished keeps its images (exit 1), a refusal says the
 * service's reason (exit 1), BFL cannot cancel and is never asked (exit 1), and a mistake in the
 * command line or a task Pictor cannot ask about is a usage error (exit 2). The key goes only in
 * the dialect's header, to the service the task lives on.
 */
import { describe, expect, it } from 'vitest';
import { expectExit, STOP_WATCHING } from './cli-harness';
import {
  expectKeyOnlyInDialectHeader,
  useProviderWorlds,
  type Dialect,
  type ProviderWorld,
} from './providers-harness';
import { jsonLines } from './run-cli';

const newWorld = useProviderWorlds();

/** Long enough that no task ends unless the test ends it: queued its first 200 s. */
const FOREVER = ['--duration', '600000'];

/** A task the service has (queued), left by a generate that stopped watching; its service id. */
async function leftQueued(world: ProviderWorld, prompt: string): Promise<string> {
  const before = (await world.service.tasks()).length;
  const watched = await world.run([
    'generate',
    ...world.named,
    '--prompt',
    prompt,
    '--timeout',
    STOP_WATCHING,
  ]);
  expectExit(watched, 3);
  const tasks = await world.service.tasks();
  expect(tasks).toHaveLength(before + 1);
  return tasks.at(-1)!.id;
}

async function cancelRequests(world: ProviderWorld) {
  return (await world.service.log()).requests.filter((entry) => entry.route === 'cancel');
}

interface CancelJson {
  readonly localId: string;
  readonly taskId: string;
  readonly status: string;
  readonly exitCode: number;
  readonly cancel: string;
  readonly cancelReason: string | null;
  readonly cost: { readonly source: string } | null;
  readonly images: readonly { readonly state: string; readonly path: string | null }[];
}

function cancelLines(run: Parameters<typeof jsonLines>[0]): CancelJson[] {
  return jsonLines(run) as unknown as CancelJson[];
}

describe.each(['fal', 'replicate', 'dashscope'] as const)('--provider %s', (dialect: Dialect) => {
  it('cancels a queued task: exit 0, the service told once, the task not billed', async () => {
    const world = await newWorld(dialect, FOREVER);
    const priced = await world.run([
      'prices',
      'set',
      '--provider',
      dialect,
      '--amount',
      '0.04',
      '--unit',
      'USD',
    ]);
    expectExit(priced, 0);
    const taskId = await leftQueued(world, 'changed my mind');
    const canceled = await world.run(['cancel', taskId, ...world.named, '--json']);
    expectExit(canceled, 0);
    expect(cancelLines(canceled)).toEqual([
      expect.objectContaining({
        taskId,
        status: 'failed',
        exitCode: 0,
        cancel: 'canceled',
        cancelReason: null,
        cost: expect.objectContaining({ source: 'not_billed' }),
      }),
    ]);
    const asked = await cancelRequests(world);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.status).toBeLessThan(300);
    expectKeyOnlyInDialectHeader(dialect, await world.service.log());
    // The same task again: it no longer runs, and nothing is asked.
    const again = await world.run(['cancel', taskId, ...world.named]);
    expectExit(again, 1);
    expect(again.stderr).toContain('no longer running');
    expect(await cancelRequests(world)).toHaveLength(1);
  });

  it('a task the service already finished: exit 1, its images saved and printed', async () => {
    const world = await newWorld(dialect, FOREVER);
    const taskId = await leftQueued(world, 'finished first');
    await world.service.control(`tasks/${taskId}/complete`);
    const late = await world.run(['cancel', taskId, ...world.named]);
    expectExit(late, 1);
    expect(late.stderr).toMatch(/before it could be canceled; its images are kept/);
    const [path] = late.stdout.trim().split('\n');
    expect(path).toMatch(/\.png$/);
    expect((await cancelRequests(world)).map((entry) => entry.status)).toEqual([
      dialect === 'replicate' ? 200 : 400,
    ]);
  });
});

describe('refusals and mistakes', () => {
  it('a service that refuses: exit 1 with its reason; the task is still there to resume', async () => {
    const world = await newWorld('fal', FOREVER);
    const taskId = await leftQueued(world, 'refused');
    await world.service.control('faults', {
      route: 'cancel',
      effect: { type: 'status', status: 409 },
    });
    const refused = await world.run(['cancel', taskId, ...world.named, '--json']);
    expectExit(refused, 1);
    const [line] = cancelLines(refused);
    expect(line).toMatchObject({ taskId, status: 'processing', cancel: 'refused', exitCode: 1 });
    expect(line!.cancelReason).toMatch(/409/);
  });

  it('BFL cannot cancel: exit 1, it says so, and the service is never asked', async () => {
    const world = await newWorld('bfl', FOREVER);
    const taskId = await leftQueued(world, 'cannot be canceled');
    const requests = (await world.service.log()).requests.length;
    const said = await world.run(['cancel', taskId, ...world.named]);
    expectExit(said, 1);
    expect(said.stderr).toContain('Black Forest Labs has no way to cancel a task');
    expect(said.stderr).toContain('the id is kept');
    expect((await world.service.log()).requests).toHaveLength(requests);
  });

  it('several tasks: one request at a time, a line each, the highest exit code', async () => {
    const world = await newWorld('fal', FOREVER);
    const queued = await leftQueued(world, 'first');
    const finished = await leftQueued(world, 'second');
    await world.service.control(`tasks/${finished}/complete`);
    const both = await world.run(['cancel', queued, finished, queued, ...world.named, '--json']);
    expectExit(both, 1);
    expect(cancelLines(both).map((line) => [line.taskId, line.cancel])).toEqual([
      [queued, 'canceled'],
      [finished, 'finished'],
    ]);
    expect(await cancelRequests(world)).toHaveLength(2);
  });

  it('exit 2: no id, an unknown id, no key, or a task of another service (never sent the key)', async () => {
    const world = await newWorld('fal', FOREVER);
    const taskId = await leftQueued(world, 'stays queued');
    expectExit(await world.run(['cancel', ...world.named]), 2);
    const unknown = await world.run(['cancel', taskId, 'no-such-task', ...world.named]);
    expectExit(unknown, 2);
    expect(unknown.stderr).toContain('No task "no-such-task"');
    const keyless = await world.run(['cancel', taskId, ...world.named], { key: null });
    expectExit(keyless, 2);
    expect(keyless.stderr).toContain('SERVICE_API_KEY');
    const elsewhere = await world.run([
      'cancel',
      taskId,
      '--provider',
      'fal',
      '--base-url',
      'http://127.0.0.1:9/elsewhere',
    ]);
    expectExit(elsewhere, 2);
    expect(elsewhere.stderr).toMatch(/was not canceled: This task lives on/);
    expect(await cancelRequests(world)).toEqual([]);
  });
});
