/**
 * The CLI killed with SIGKILL mid-batch, then `resume --all`: the batch's first task was taken,
 * four requests were out (the demo holds them: four at once to one address), the sixth task waited
 * for a slot, never sent. The next run sends that one, polls the first, and never sends the four
 * whose requests may have reached the service: the service sees each task's request once
 * (electron/core/engine/send-mark.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { UNTIL } from '../../support/waits';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { bareEnv } from '../../support/child-env';
import { REPO_ROOT } from '../../support/source-files';

let service: DemoService | undefined;
let dir: string | undefined;
let child: ChildProcess | undefined;

afterEach(async () => {
  child?.kill('SIGKILL');
  await service?.close();
  if (dir) await removeFolder(dir);
});

function cli(args: string[]): { process: ChildProcess; exit: Promise<number | null> } {
  const started = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args], {
    cwd: REPO_ROOT,
    env: bareEnv({ HOME: dir, SERVICE_API_KEY: 'demo' }),
    stdio: 'ignore',
  });
  const exit = new Promise<number | null>((resolve) => started.on('exit', resolve));
  return { process: started, exit };
}

describe('the CLI killed while a batch waits to be sent', () => {
  it('sends the never-sent task after the restart, and no other task twice', async () => {
    service = await startDemoService({ durationMs: { min: 300, max: 600 }, seed: 47 });
    // The first submit is answered; the next four are held, never answered.
    service.addFault({ route: 'submit', effect: { type: 'delay', ms: 0 }, times: 1 });
    service.addFault({ route: 'submit', effect: { type: 'hang' }, times: 4 });
    dir = await tempFolder('unsent-kill');
    const data = join(dir, 'data');
    const common = ['--base-url', service.url, '--data-dir', data, '--poll-interval', '0.25'];
    const generate = cli([
      'generate',
      '--prompt',
      'six at once',
      '--size',
      '256x256',
      '--count',
      '6',
      ...common,
    ]);
    child = generate.process;
    await expect.poll(() => service!.log.submits.length, UNTIL).toBe(5);
    child.kill('SIGKILL');
    expect(await generate.exit).toBeNull();
    service.clearFaults();
    const before = HistoryStore.open(join(data, 'history.sqlite'));
    const left = before.list({ limit: 10 }).items;
    before.close();
    const taken = left.filter((record) => record.taskId !== null);
    expect(taken).toHaveLength(1);
    expect(left.filter((record) => record.sendState === 'queued')).toHaveLength(1);

    const resume = cli(['resume', '--all', ...common]);
    child = resume.process;
    expect(await resume.exit).not.toBeNull();
    const history = HistoryStore.open(join(data, 'history.sqlite'));
    const records = history.list({ limit: 10 }).items;
    history.close();
    expect(service.log.submits).toHaveLength(6);
    const byStatus = (status: string) => records.filter((record) => record.status === status);
    expect(byStatus('completed')).toHaveLength(2);
    expect(byStatus('submit_unknown')).toHaveLength(4);
    expect(records.find((record) => record.localId === taken[0]!.localId)?.taskId).toBe(
      taken[0]!.taskId,
    );
  }, 60_000);
});
