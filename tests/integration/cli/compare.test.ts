/**
 * `pictor compare`, through the CLI's entry in this process (run-cli.ts's runCliHere), against three demo services on loopback (fal answering its
 * first submit 429 with Retry-After, Replicate 402, BFL working), each provider's key from its
 * own PICTOR_KEY_<PROVIDER>: the group id and each target's row (the seed fal and BFL said with
 * it), the exit code the highest of its tasks', `compare show`, `list --compare`, and a hard cap
 * refusing the compare (exit 6, nothing stored or sent).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { taskSeed } from '../../../electron/demo-service/prng';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { STOP_WATCHING } from './cli-harness';
import { describeRun, runCliHere } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KEYS = { fal: 'fal-cli-key-8c1d', replicate: 'r8_cli-key-72ab', bfl: 'bfl-cli-key-5e90' };

async function world() {
  const start = (dialect: 'fal' | 'replicate' | 'bfl', extra = {}) =>
    startDemoService({
      dialect,
      accounts: [{ account: 'alice', key: KEYS[dialect] }],
      durationMs: { min: 200, max: 400 },
      ...extra,
    });
  const fal = await start('fal', { rateLimit: 1 });
  const replicate = await start('replicate', {
    accounts: [{ account: 'alice', key: KEYS.replicate, credits: 0 }],
  });
  const bfl = await start('bfl');
  const home = await tempFolder('compare-cli');
  cleanups.push(async () => {
    for (const service of [fal, replicate, bfl]) await service.close();
    await removeFolder(home);
  });
  const dataDir = join(home, 'data');
  const env = {
    PICTOR_KEY_FAL: KEYS.fal,
    PICTOR_KEY_REPLICATE: KEYS.replicate,
    PICTOR_KEY_BFL: KEYS.bfl,
  };
  const cli = (args: readonly string[], options: { timeout?: string; env?: object } = {}) =>
    runCliHere(
      [
        ...args,
        '--data-dir',
        dataDir,
        '--poll-interval',
        '0.2',
        '--timeout',
        options.timeout ?? '30',
      ],
      { home, env: { ...env, ...options.env } },
    );
  const urls = [`fal=${fal.url}`, `replicate=${replicate.url}`, `bfl=${bfl.url}`].flatMap((url) => [
    '--base-url',
    url,
  ]);
  return { fal, replicate, bfl, cli, urls };
}

const serviceTasks = (service: DemoService) => service.tasks().map((task) => task.status);

const accepted = (service: DemoService) =>
  service.log.submits.filter((entry) => (entry.status ?? 0) < 300).length;

describe('pictor compare', () => {
  it('prints the group and each target, exits with the highest code, and shows the group again', async () => {
    const { fal, replicate, bfl, cli, urls } = await world();
    const targets = ['fal', 'replicate', 'bfl'].flatMap((t) => ['--target', t]);
    const run = await cli(['compare', '--prompt', 'a lighthouse', ...targets, ...urls, '--json']);
    // Replicate refused the submit (402): exit 6, the highest of the three.
    expect(run.code, describeRun(run)).toBe(6);
    const out = JSON.parse(run.stdout) as {
      group: string;
      exitCode: number;
      tasks: {
        slot: number;
        label: string;
        status: string;
        localId: string;
        taskId: string | null;
        exitCode: number;
        seed: number | null;
        images: string[];
      }[];
    };
    expect(out.exitCode).toBe(6);
    expect(out.tasks.map((task) => [task.slot, task.status, task.exitCode])).toEqual([
      [1, 'completed', 0],
      [2, 'submit_failed', 6],
      [3, 'completed', 0],
    ]);
    expect(out.tasks[0]?.label).toBe('fal.ai · fal-ai/flux/schnell');
    // fal and BFL say the seed they used (the demo's, from its seed 1 and the task id);
    // Replicate's task was never made.
    const [falTask, replicateTask, bflTask] = out.tasks;
    expect(falTask?.seed).toBe(taskSeed(1, falTask!.taskId!));
    expect(bflTask?.seed).toBe(taskSeed(1, bflTask!.taskId!));
    expect(replicateTask?.seed).toBeNull();
    expect(accepted(fal)).toBe(1);
    expect(fal.log.submits.map((entry) => entry.status)).toEqual([429, 200]);
    expect(accepted(replicate)).toBe(0);
    expect(accepted(bfl)).toBe(1);

    // The short group id compare printed is enough, as for every id the commands take.
    const show = await cli(['compare', 'show', out.group.slice(0, 8)]);
    expect(show.code, describeRun(show)).toBe(6);
    const lines = show.stdout.trim().split('\n');
    const rows = lines.filter((line) => !line.startsWith(' '));
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('submit_failed');
    // Each id says what it is: Pictor's (short, as generate prints it) and the service's.
    expect(rows[0]).toContain(`  id ${falTask!.localId.slice(0, 8)}  task ${falTask!.taskId!}  `);
    expect(rows[0]).toMatch(
      /^fal\.ai · fal-ai\/flux\/schnell {2}id [0-9a-f]{8} {2}task \S+ {2}completed {2}\d+\.\d s {2}/,
    );
    // Each saved image's path, under its task's row.
    expect(falTask!.images).toHaveLength(1);
    expect(lines[1]).toBe(`    ${falTask!.images[0]!}`);
    expect(lines.filter((line) => line.startsWith('    '))).toEqual(
      [falTask, bflTask].flatMap((task) => task!.images.map((path) => `    ${path}`)),
    );
    expect(rows.map((row) => row.split('  ').at(-1))).toEqual([
      `seed ${String(falTask?.seed)}`,
      'seed –',
      `seed ${String(bflTask?.seed)}`,
    ]);

    const list = await cli(['list', '--compare', out.group.slice(0, 8), '--json']);
    expect(list.code, describeRun(list)).toBe(0);
    const listed = list.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { taskId: string | null; seed: number | null });
    expect(listed).toHaveLength(3);
    expect(new Map(listed.map((task) => [task.taskId, task.seed]))).toEqual(
      new Map(out.tasks.map((task) => [task.taskId, task.seed])),
    );
    const other = await cli(['list', '--compare', crypto.randomUUID()]);
    expect(other.stdout).toBe('');
  }, 60_000);

  it('refuses a compare over a hard cap with exit 6, storing and sending nothing', async () => {
    const { fal, bfl, cli, urls } = await world();
    for (const provider of ['fal', 'bfl']) {
      const price = await cli([
        'prices',
        'set',
        '--provider',
        provider,
        '--amount',
        '0.05',
        '--unit',
        'USD',
      ]);
      expect(price.code, describeRun(price)).toBe(0);
    }
    const cap = await cli(['caps', 'set', '--period', 'day', '--amount', '0.08', '--unit', 'USD']);
    expect(cap.code, describeRun(cap)).toBe(0);
    const run = await cli([
      'compare',
      '--prompt',
      'a kite',
      '--target',
      'fal',
      '--target',
      'bfl',
      ...urls,
    ]);
    expect(run.code, describeRun(run)).toBe(6);
    expect(run.stderr).toMatch(/cap/i);
    expect(fal.log.submits).toEqual([]);
    expect(bfl.log.submits).toEqual([]);
    const list = await cli(['list']);
    expect(list.stdout).toBe('');
  }, 60_000);

  it('compare cancel stops each running task with its own provider’s key at its own address, and says which cannot be stopped', async () => {
    const { fal, bfl, cli, urls } = await world();
    for (const service of [fal, bfl]) service.setDuration(600_000);
    const targets = ['--target', 'fal', '--target', 'bfl'];
    const run = await cli(['compare', '--prompt', 'a slow kite', ...targets, ...urls, '--json'], {
      timeout: STOP_WATCHING,
    });
    expect(run.stdout, describeRun(run)).not.toBe('');
    const out = JSON.parse(run.stdout) as { group: string; tasks: { status: string }[] };
    expect(out.tasks.map((task) => task.status)).toEqual(['processing', 'processing']);

    // Without the keys nothing is sent: each task is said to have none, exit 1.
    const keyless = await cli(['compare', 'cancel', out.group, ...urls], {
      env: { PICTOR_KEY_FAL: '', PICTOR_KEY_BFL: '' },
    });
    expect(keyless.code, describeRun(keyless)).toBe(1);
    expect(keyless.stderr).toMatch(/no key/i);
    const cancels = (service: DemoService) =>
      service.log.requests.filter((entry) => entry.route === 'cancel');
    expect([...cancels(fal), ...cancels(bfl)]).toEqual([]);

    // fal's key bound to another address: the task recorded at fal's own is not stopped with it,
    // and neither address hears from the CLI.
    const elsewhere = await startDemoService({ dialect: 'fal' });
    try {
      const moved = await cli([
        'compare',
        'cancel',
        out.group,
        '--base-url',
        `fal=${elsewhere.url}`,
      ]);
      expect(moved.code, describeRun(moved)).toBe(1);
      expect(moved.stderr).toMatch(/no key/i);
      expect(elsewhere.log.requests).toEqual([]);
      expect(cancels(fal)).toEqual([]);
      expect(moved.stderr).not.toContain(KEYS.fal);
    } finally {
      await elsewhere.close();
    }

    // fal stops its task; BFL has no way to: that row says so, and the exit is 1.
    const cancel = await cli(['compare', 'cancel', out.group, ...urls]);
    expect(cancel.code, describeRun(cancel)).toBe(1);
    const rows = cancel.stdout.trim().split('\n');
    expect(rows.map((row) => row.split('  ').at(-1))).toEqual(['canceled', 'unsupported']);
    expect(cancel.stderr).toContain('Black Forest Labs has no way to cancel a task.');
    // fal was asked once, with its own key (the demo names the account the key matched).
    expect(cancels(fal).map((entry) => [entry.account, entry.status])).toEqual([['alice', 202]]);
    expect(cancels(bfl)).toEqual([]);
    expect(serviceTasks(fal)).toEqual(['failed']);
    expect(serviceTasks(bfl)).toEqual(['processing']);
    for (const key of Object.values(KEYS)) {
      for (const text of [run.stdout, run.stderr, cancel.stdout, cancel.stderr, keyless.stderr])
        expect(text).not.toContain(key);
    }
    const show = await cli(['compare', 'show', out.group]);
    expect(
      show.stdout
        .trim()
        .split('\n')
        .map((row) => row.split('  ')[3]),
    ).toEqual(['failed', 'processing']);
  }, 60_000);

  it('says in English what it leaves out and adapts, on stderr and in the JSON', async () => {
    const { fal, bfl, cli, urls } = await world();
    const targets = ['fal', 'replicate', 'bfl'].flatMap((t) => ['--target', t]);
    const args = ['--size', '1024x1024', '--quality', 'hd', ...urls, '--json'];
    // Only Replicate has a key (and no credits: its submit is refused, so the run ends at once).
    const run = await cli(['compare', '--prompt', 'a kite', ...targets, ...args], {
      env: { PICTOR_KEY_FAL: '', PICTOR_KEY_BFL: '' },
    });
    expect(run.code, describeRun(run)).toBe(6);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        // The variable that holds the key, not the window's Settings.
        expect.stringMatching(
          /^Left out fal\.ai · \S+ \(target 1\): Nothing was sent: no key for fal\.ai\. Set PICTOR_KEY_FAL to its key/,
        ),
        expect.stringMatching(
          /^Left out Black Forest Labs · \S+ \(target 3\): Nothing was sent: no key for Black Forest Labs\. Set PICTOR_KEY_BFL /,
        ),
        expect.stringMatching(
          /^Replicate · \S+: Replicate has no quality setting: “hd” is left out\.$/,
        ),
        expect.stringMatching(
          /^Replicate · \S+: Replicate takes an aspect ratio: 1024×1024 → 1:1\.$/,
        ),
      ]),
    );
    const out = JSON.parse(run.stdout) as { leftOut: { slot: number; reason: unknown }[] };
    expect(out.leftOut.map((left) => left.slot)).toEqual([1, 3]);
    for (const left of out.leftOut)
      expect(left.reason).toMatch(/Set PICTOR_KEY_(FAL|BFL) to its key/);
    expect(run.stderr).not.toMatch(/Settings/);
    expect([...fal.log.submits, ...bfl.log.submits]).toEqual([]);
  }, 60_000);

  it('refuses bad command lines: 7 targets, 11 prompts, a group id that is none', async () => {
    const { cli, urls } = await world();
    const seven = Array.from({ length: 7 }, () => ['--target', 'fal']).flat();
    const tooMany = await cli(['compare', '--prompt', 'x', ...seven, ...urls]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('2 to 6 --target; there were 7');
    const prompts = Array.from({ length: 11 }, (_, n) => ['--prompt', `p${n}`]).flat();
    const eleven = await cli([
      'compare',
      ...prompts,
      '--target',
      'fal',
      '--target',
      'bfl',
      ...urls,
    ]);
    expect(eleven.code).toBe(2);
    expect(eleven.stderr).toContain('1 to 10 --prompt; there were 11');
    const badGroup = await cli(['compare', 'show', 'not-a-group']);
    expect(badGroup.code).toBe(2);
  }, 60_000);

  it('runs on the built-in demo with --target demo: no key, no address, free', async () => {
    const { cli } = await world();
    const demoOnly = { PICTOR_KEY_FAL: '', PICTOR_KEY_REPLICATE: '', PICTOR_KEY_BFL: '' };
    const targets = ['--target', 'demo', '--target', 'demo'];
    const run = await cli(['compare', '--prompt', 'a lighthouse', ...targets], {
      env: { ...demoOnly, PICTOR_DEMO_DURATION_MS: '300' },
    });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stderr).toContain("Using Pictor's built-in demo service");
    const [groupLine, ...lines] = run.stdout.trim().split('\n');
    expect(groupLine).toMatch(/^Compare group [0-9a-f-]{36}$/);
    const rows = lines.filter((line) => !line.startsWith(' '));
    expect(rows).toHaveLength(2);
    for (const [n, row] of rows.entries()) {
      expect(row).toMatch(
        new RegExp(`#${n + 1} {2}id [0-9a-f]{8} {2}task \\S+ {2}completed .* {2}free {2}`),
      );
    }
    const paths = lines.filter((line) => line.startsWith('    ')).map((line) => line.trim());
    expect(paths).toHaveLength(2);
    for (const path of paths)
      await expect(stat(path)).resolves.toMatchObject({ size: expect.any(Number) });
    // The demo's tasks are the demo's: list --provider demo lists them.
    const listed = await cli(['list', '--provider', 'demo', '--json']);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);
  }, 60_000);
});
