/**
 * `generate --template … --dry-run` prints the prompts and the estimate and sends nothing, so it
 * needs no key; on the built-in demo it says the tasks are free and names the demo as itself (not
 * as the provider whose contract it speaks).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { describeInProcess, runInProcess, type InProcessRun } from '../../support/cli-in-process';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir = '';
let service: DemoService;

beforeEach(async () => {
  dir = await tempFolder('dry-run');
  service = await startDemoService({ durationMs: 100 });
});
afterEach(async () => {
  await service.close();
  await removeFolder(dir);
});

async function pictor(args: readonly string[], code = 0): Promise<InProcessRun> {
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), NO_PROXY: '127.0.0.1' };
  const run = await runInProcess([...args, '--data-dir', join(dir, 'data')], env);
  expect(run.code, describeInProcess(run)).toBe(code);
  return run;
}

async function addScene(): Promise<void> {
  const body = ['--body', 'a {{subject}} in {red|blue} light', '--negative', 'blurry'];
  await pictor(['template', 'add', 'Scene', ...body]);
}

const DRY = ['generate', '--template', 'Scene', '--var', 'subject=fox', '--dry-run'];

describe('generate --template --dry-run', () => {
  it('needs no SERVICE_API_KEY: it prints the plan and sends nothing', async () => {
    await addScene();
    const run = await pictor([...DRY, '--base-url', service.url]);
    expect(run.stdout).toContain('1. a fox in red light\n2. a fox in blue light\n');
    expect(run.stderr).not.toMatch(/SERVICE_API_KEY/);
    expect(service.log.submits).toEqual([]);
    // Without --dry-run the key is still needed.
    const real = await pictor(
      DRY.filter((arg) => arg !== '--dry-run').concat('--base-url', service.url),
      2,
    );
    expect(real.stderr).toMatch(/Set SERVICE_API_KEY/);
    expect(service.log.submits).toEqual([]);
  });

  it('prices the built-in demo as free and names it as itself', async () => {
    await addScene();
    const text = await pictor([...DRY, '--provider', 'demo']);
    expect(text.stdout).toContain('estimated free (Pictor’s built-in demo service)\n');
    expect(text.stdout).not.toMatch(/no cost known/);
    const said = `${text.stdout}${text.stderr}`;
    expect(said).toContain('Pictor’s built-in demo service takes no negative prompt');
    expect(said).not.toMatch(/Image task service/);
    const json = await pictor([...DRY, '--provider', 'demo', '--json']);
    const plan = JSON.parse(json.stdout) as { estimate: Record<string, unknown>; tasks: number };
    expect(plan.estimate).toMatchObject({ totals: [], unknownTasks: 0, freeTasks: 2 });
  });
});
