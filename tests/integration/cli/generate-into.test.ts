/**
 * `pictor generate --board PATH` on a real library, through the CLI's entry in this process (run-cli.ts's runCliHere), against the demo service on
 * loopback (and the built-in demo inside the command): the images join the board as they arrive,
 * a board the library lacks is made, a task the command stopped watching keeps its board for
 * `resume`, and a bad path exits 2 with its rule's sentence before anything is stored or sent.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { ManualClock } from '../../fakes/manual-clock';
import { describeRun, jsonLines, newDataDir, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

beforeEach(async () => {
  service = await startDemoService({ durationMs: 200, imagesPerTask: 2 });
  dataDir = await newDataDir('into-data');
  home = await tempFolder('into-home');
});

afterEach(async () => {
  await service.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

/** The CLI on this test's library; `generate` and `resume` at the demo service on loopback. */
function pictor(...args: string[]): Promise<CliRun> {
  const full = [...args, '--data-dir', dataDir];
  if (args[0] === 'generate' || args[0] === 'resume')
    full.push('--base-url', service.url, '--poll-interval', '0.1');
  return runCliHere(full, { key: 'demo', home, timeoutMs: 60_000 });
}

async function ok(run: Promise<CliRun>, code = 0): Promise<CliRun> {
  const done = await run;
  expect(done.code, describeRun(done)).toBe(code);
  return done;
}

/** The refs (`task-id#N`) `list --board PATH` prints. */
async function inBoard(path: string): Promise<string[]> {
  const run = await ok(pictor('list', '--board', path, '--json'));
  return jsonLines(run)
    .map((line) => String((line as unknown as { ref: string }).ref))
    .sort();
}

describe('pictor generate --board', () => {
  it('puts every image into the board, making it first when the library has none', async () => {
    const run = await ok(
      pictor(
        'generate',
        '--prompt',
        'a lighthouse',
        '--count',
        '2',
        '--board',
        'Clients/Acme',
        '--json',
      ),
    );
    const tasks = jsonLines(run);
    expect(tasks).toHaveLength(2);
    for (const task of tasks) {
      expect(task).toMatchObject({ status: 'completed', board: 'Clients/Acme' });
      expect(task.images.map((image) => image.boards)).toEqual([
        ['Clients/Acme'],
        ['Clients/Acme'],
      ]);
    }
    expect(await inBoard('clients/acme')).toEqual(
      tasks.flatMap((task) => [`${task.taskId!}#1`, `${task.taskId!}#2`]).sort(),
    );
    expect((await ok(pictor('board', 'ls'))).stdout).toBe('Clients\t0\nClients/Acme\t4\n');
    // Without --board the images go into no board.
    const plain = jsonLines(await ok(pictor('generate', '--prompt', 'a fox', '--json')));
    expect(plain[0]).toMatchObject({ board: null });
    expect(plain[0]!.images.map((image) => image.boards)).toEqual([[], []]);
  });

  it('a task the command stopped watching keeps its board: resume puts the images there', async () => {
    await service.close();
    // The task runs on the service's manual clock: processing while the first command watches,
    // whatever the load, and due when the test jumps past it (the resume waited 2 s before).
    const clock = new ManualClock(Date.now());
    service = await startDemoService({ durationMs: 2_500, now: () => clock.now() });
    const first = await ok(
      pictor('generate', '--prompt', 'slow', '--board', 'Night', '--timeout', '0.5', '--json'),
      3,
    );
    const [task] = jsonLines(first);
    expect(task).toMatchObject({ status: 'processing', board: 'Night', images: [] });
    expect(await inBoard('Night')).toEqual([]);
    await clock.jump(2_500);
    const resumed = jsonLines(await ok(pictor('resume', task!.localId, '--json')));
    expect(resumed[0]).toMatchObject({ status: 'completed', board: 'Night' });
    expect(await inBoard('Night')).toEqual([`${task!.taskId!}#1`]);
    expect(service.log.submits).toHaveLength(1);
  });

  it('finds a board stored with a character that draws nothing, by its stored or plain spelling', async () => {
    await ok(pictor('board', 'create', 'Other'));
    // Stored by the version before the rule (`board ls` shows it as stored; key re-folded by v22).
    const twin = 'Clients\u200b';
    const db = new DatabaseSync(join(dataDir, HISTORY_FILE));
    db.prepare('INSERT INTO boards (key, path, created_at) VALUES (?, ?, 1)').run('clients', twin);
    db.close();
    for (const path of [twin, 'CLIENTS']) {
      const [task] = jsonLines(
        await ok(pictor('generate', '--prompt', 'p', '--board', path, '--json')),
      );
      expect(task).toMatchObject({ status: 'completed', board: twin });
    }
    expect(await inBoard('clients')).toHaveLength(4);
  });

  it('--provider demo puts the built-in demo’s images into the board too', async () => {
    const args = ['generate', '--provider', 'demo', 'a lighthouse', '--board', 'Demo/Tries'];
    const run = await ok(
      runCliHere([...args, '--json', '--data-dir', dataDir, '--poll-interval', '0.1'], {
        home,
        timeoutMs: 60_000,
        env: { PICTOR_DEMO_DURATION_MS: '200' },
      }),
    );
    const [task] = jsonLines(run);
    expect(task).toMatchObject({ status: 'completed', board: 'Demo/Tries' });
    expect(task!.images.map((image) => image.boards)).toEqual([['Demo/Tries']]);
    expect(service.log.submits, 'the loopback service heard nothing').toHaveLength(0);
  });

  it.each([
    ['Clients//Acme', 'A board name cannot be empty.'],
    ['a/b/c/d/e/f', 'Boards can be nested at most 5 levels deep.'],
    ['Cli\u0007ents', 'A board name cannot contain the character U+0007.'],
    // A new name that draws nothing extra: refused by the library, which finds stored ones.
    ['Keep\u3164', 'A board name cannot contain the character U+3164.'],
  ])('--board %j exits 2 with its sentence; nothing is stored or sent', async (path, said) => {
    const run = await ok(pictor('generate', '--prompt', 'refused', '--board', path), 2);
    expect(run.stderr.split('\n')[0]).toBe(said);
    expect(service.log.submits).toHaveLength(0);
    expect(jsonLines(await ok(pictor('list', '--json')))).toEqual([]);
    expect((await ok(pictor('board', 'ls'))).stdout).toBe('');
  });
});
