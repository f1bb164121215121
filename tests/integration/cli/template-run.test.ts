/**
 * `pictor generate --template`, through the CLI's entry in this process (run-cli.ts's runCliHere), against the demo service on loopback: a dry run
 * prints exactly the prompts the run then sends, with the estimate, and sends nothing; the run
 * records the template on every task (list --template finds them); random N draws the same prompts
 * again with the same seed; a hard cap is exit 6 with nothing stored or sent; a template that does
 * not expand is exit 2 naming its line and column; options that go with --template only are
 * refused without it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { describeRun, newDataDir, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

beforeEach(async () => {
  service = await startDemoService({ durationMs: 100 });
  dataDir = await newDataDir('tplrun-data');
  home = await tempFolder('tplrun-home');
});

afterEach(async () => {
  await service.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

function pictor(args: string[]): Promise<CliRun> {
  const at = ['--data-dir', dataDir, '--base-url', service.url, '--poll-interval', '0.1'];
  return runCliHere([...args, ...at], { key: 'demo', home, timeoutMs: 60_000 });
}

async function ok(run: Promise<CliRun>, code = 0): Promise<CliRun> {
  const done = await run;
  expect(done.code, describeRun(done)).toBe(code);
  return done;
}

const BODY = 'a {{subject}} in {red|blue|green} light, {{prompt}}';

async function addScene(): Promise<void> {
  await ok(
    runCliHere(['template', 'add', 'Scene', '--body', BODY, '--data-dir', dataDir], { home }),
  );
}

describe('pictor generate --template', () => {
  it('dry-runs the exact prompts and estimate, sends nothing; the run sends them, each task records its template', async () => {
    await addScene();
    const args = ['generate', 'at dusk', '--template', 'scene', '--var', 'subject=fox'];
    const dry = await ok(pictor([...args, '--dry-run', '--json']));
    const plan = JSON.parse(dry.stdout) as {
      prompts: string[];
      tasks: number;
      template: { name: string; version: number };
    };
    expect(plan.prompts).toEqual([
      'a fox in red light, at dusk',
      'a fox in blue light, at dusk',
      'a fox in green light, at dusk',
    ]);
    expect(plan).toMatchObject({ tasks: 3, template: { name: 'Scene', version: 1 } });
    expect(service.log.submits).toEqual([]);
    expect((await ok(pictor(['list']))).stdout).toBe('');

    await ok(pictor(args));
    expect(service.log.submits).toHaveLength(3);
    const listed = (await ok(pictor(['list', '--json']))).stdout.trim().split('\n');
    const records = listed.map(
      (line) =>
        JSON.parse(line) as {
          prompt: string;
          template?: { id: string; name: string; values: Record<string, string> };
        },
    );
    expect(records).toHaveLength(3);
    // Sent: exactly the prompts the dry run printed.
    expect(records.map((record) => record.prompt).sort()).toEqual([...plan.prompts].sort());
    for (const record of records) {
      expect(record.template).toMatchObject({ name: 'Scene', values: { subject: 'fox' } });
    }
    const id = records[0]!.template!.id;
    const byTemplate = await ok(pictor(['list', '--template', id]));
    expect(byTemplate.stdout.trim().split('\n')).toHaveLength(3);
    const byName = await pictor(['list', '--template', 'Scene']);
    expect(byName.code).toBe(2);
    expect(byName.stderr).toContain('as `pictor template show NAME` prints it');
  }, 120_000);

  it('draws the same random prompts again with the same seed, and says the seed it drew', async () => {
    await addScene();
    const args = [
      'generate',
      'x',
      '--template',
      'Scene',
      '--var',
      'subject=owl',
      '--dry-run',
      '--json',
    ];
    const drawn = await ok(pictor([...args, '--expand', 'random:2']));
    const seed = /--seed (\d+)/.exec(drawn.stderr)?.[1];
    expect(seed, drawn.stderr).toBeDefined();
    const again = await ok(pictor([...args, '--expand', 'random:2', '--seed', seed!]));
    const prompts = (run: CliRun) => (JSON.parse(run.stdout) as { prompts: string[] }).prompts;
    expect(prompts(again)).toEqual(prompts(drawn));
    expect(prompts(again)).toHaveLength(2);
    expect(new Set(prompts(again)).size).toBe(2);
  }, 120_000);

  it('over a hard cap: exit 6 naming the cap, nothing stored or sent', async () => {
    await addScene();
    await ok(
      pictor(['prices', 'set', '--provider', 'pictor', '--amount', '0.05', '--unit', 'USD']),
    );
    await ok(pictor(['caps', 'set', '--period', 'day', '--amount', '0.1', '--unit', 'USD']));
    const run = await pictor(['generate', 'x', '--template', 'Scene', '--var', 'subject=cat']);
    expect(run.code, describeRun(run)).toBe(6);
    expect(run.stderr).toMatch(/cap/i);
    expect(service.log.submits).toEqual([]);
    expect((await ok(pictor(['list']))).stdout).toBe('');
  }, 120_000);

  it('refuses what cannot run: a missing value (line and column), no such template, options without --template', async () => {
    await addScene();
    const missing = await pictor(['generate', 'x', '--template', 'Scene']);
    expect(missing.code, describeRun(missing)).toBe(2);
    expect(missing.stderr).toMatch(/subject.*line 1, column 3/);
    const none = await pictor(['generate', 'x', '--template', 'Nope']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('There is no template named "Nope"');
    const stray = await pictor(['generate', 'x', '--var', 'a=b']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('go with --template NAME');
    const badExpand = await pictor([
      'generate',
      'x',
      '--template',
      'Scene',
      '--expand',
      'random:101',
    ]);
    expect(badExpand.code).toBe(2);
    expect(service.log.submits).toEqual([]);
  }, 120_000);
});
