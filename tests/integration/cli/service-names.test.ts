/**
 * One name per service in every output: a task made on the built-in demo is `demo` in
 * `generate --json`, `list --json`, `list`, `costs` (text, JSON, CSV) and `--provider demo`, and
 * it is not today's contract's (`pictor`) anywhere, though the demo speaks that contract.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cliDemoTask, type CliDemoTask, type InProcessRun } from '../../support/cli-in-process';

let demo: CliDemoTask;
const pictor = (args: readonly string[], code = 0) => demo.run(args, code);

const jsonLines = (run: InProcessRun) =>
  run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

beforeAll(async () => {
  demo = await cliDemoTask();
  expect(jsonLines(demo.made).map((line) => line['provider'])).toEqual(['demo']);
  return demo.remove;
}, 60_000);

describe('the built-in demo is `demo` in every output', () => {
  it('list and list --json', async () => {
    expect(jsonLines(await pictor(['list', '--json'])).map((line) => line['provider'])).toEqual([
      'demo',
    ]);
    expect((await pictor(['list'])).stdout).toMatch(/ demo {2,}completed/);
    expect((await pictor(['list', '--provider', 'demo'])).stdout).not.toBe('');
    expect((await pictor(['list', '--provider', 'pictor'])).stdout).toBe('');
  });

  it('costs, costs --json and costs --csv; costs --provider demo finds the task, pictor not', async () => {
    const text = await pictor(['costs']);
    expect(text.stdout).toMatch(/ demo +- +free /);
    expect(text.stdout).not.toMatch(/pictor/);
    const json = JSON.parse((await pictor(['costs', '--json'])).stdout) as {
      tasks: { provider: string }[];
    };
    expect(json.tasks.map((task) => task.provider)).toEqual(['demo']);
    const csv = (await pictor(['costs', '--csv'])).stdout.split('\r\n');
    expect(csv[1]?.split(',')[2]).toBe('demo');
    const demo = JSON.parse((await pictor(['costs', '--provider', 'demo', '--json'])).stdout) as {
      tasks: unknown[];
    };
    expect(demo.tasks).toHaveLength(1);
    const real = JSON.parse((await pictor(['costs', '--provider', 'pictor', '--json'])).stdout) as {
      tasks: unknown[];
    };
    expect(real.tasks).toEqual([]);
    const csvDemo = (await pictor(['costs', '--provider', 'demo', '--csv'])).stdout;
    expect(csvDemo.split('\r\n').filter((line) => line !== '')).toHaveLength(2);
  });

  it('caps and prices refuse --provider demo (the demo is free)', async () => {
    const run = await pictor(
      ['prices', 'set', '--provider', 'demo', '--amount', '1', '--unit', 'USD'],
      2,
    );
    expect(run.stderr).toMatch(/--provider/);
  });
});
