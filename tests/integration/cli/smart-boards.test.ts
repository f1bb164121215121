/**
 * `pictor smart` and `pictor list --smart` on a real library (images from the demo service on
 * loopback): a smart board made from list's own filters joined by --match all or any, listed and
 * run (alone or with more filters), its rules shown by `smart ls` (and as JSON), deleted; exit 2 naming an unknown smart board, a taken name, a bad tag's character, a bad
 * --match or no rule at all; a rule naming a board since deleted said on stderr while the smart
 * board still lists what its other rules match.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/history/history-store';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { describeRun, jsonLines, newDataDir, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

beforeEach(async () => {
  service = await startDemoService({ durationMs: 200 });
  dataDir = await newDataDir('smart-data');
  home = await tempFolder('smart-home');
});

afterEach(async () => {
  await service.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

/**
 * Runs the command through the CLI's own entry in this process (run-cli.ts's runCliHere): what is
 * checked here is what the commands print and keep, not the process (usage.test.ts and
 * generate.test.ts start the real one); 20-odd steps a test, a process start each, were most of
 * this file's time.
 */
function pictor(...args: string[]): Promise<CliRun> {
  const full = [...args, '--data-dir', dataDir];
  if (args[0] === 'generate') full.push('--base-url', service.url, '--poll-interval', '0.1');
  return runCliHere(full, { key: 'demo', home });
}

async function ok(run: Promise<CliRun>, code = 0): Promise<CliRun> {
  const done = await run;
  expect(done.code, describeRun(done)).toBe(code);
  return done;
}

/** Three tasks of one image each (a rated 5 and tagged cat in Clients/Acme, b rated 4 and picked, c unrated); their ids. */
async function triaged(): Promise<[string, string, string]> {
  await ok(pictor('generate', '--prompt', 'a lighthouse', '--count', '3'));
  const [c, b, a] = jsonLines(await ok(pictor('list', '--json'))).map((task) =>
    String(task.taskId),
  );
  await ok(pictor('rate', a!, '5'));
  await ok(pictor('rate', b!, '4'));
  await ok(pictor('flag', b!, 'pick'));
  await ok(pictor('tag', 'add', 'cat', a!));
  await ok(pictor('board', 'create', 'Clients/Acme'));
  await ok(pictor('board', 'add', 'Clients/Acme', a!));
  return [a!, b!, c!];
}

/** `smart ls --json`'s lines. */
function smartLines(run: CliRun): { name: string; rules: unknown; problems: string[] }[] {
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { name: string; rules: unknown; problems: string[] });
}

async function refs(...args: string[]): Promise<string[]> {
  const run = await ok(pictor('list', ...args, '--json'));
  return jsonLines(run)
    .map((image) => String((image as { ref?: string }).ref))
    .sort();
}

describe('pictor smart', () => {
  it('makes smart boards from list’s filters, joined by --match, and list --smart runs them', async () => {
    const [a, b] = await triaged();
    const made = await ok(
      pictor(
        'smart',
        'create',
        'Best cats',
        '--rating',
        '>=4',
        '--tag',
        'cat',
        '--board',
        'clients/acme',
      ),
    );
    expect(made.stdout).toBe(
      'Created the smart board Best cats: rating >= 4 AND tags all: cat AND board Clients/Acme.\n',
    );
    expect(await refs('--smart', 'BEST CATS')).toEqual([`${a}#1`]);
    await ok(pictor('smart', 'create', 'Kept', '--flag', 'pick', '--tag', 'cat', '--match', 'any'));
    expect(await refs('--smart', 'kept')).toEqual([`${a}#1`, `${b}#1`].sort());
    // With list's own filters too: both must hold.
    expect(await refs('--smart', 'Kept', '--rating', '5')).toEqual([`${a}#1`]);
    expect((await ok(pictor('smart', 'ls'))).stdout).toBe(
      'Best cats\trating >= 4 AND tags all: cat AND board Clients/Acme\nKept\tflag pick OR tags any: cat\n',
    );
    const json = smartLines(await ok(pictor('smart', 'ls', '--json')));
    expect(json.map((entry) => [entry.name, entry.rules])).toEqual([
      [
        'Best cats',
        {
          match: 'all',
          items: [
            { kind: 'rating', op: '>=', value: 4 },
            { kind: 'tags', mode: 'all', tags: ['cat'] },
            { kind: 'board', board: 'Clients/Acme' },
          ],
        },
      ],
      [
        'Kept',
        {
          match: 'any',
          items: [
            { kind: 'flag', flag: 'pick' },
            { kind: 'tags', mode: 'any', tags: ['cat'] },
          ],
        },
      ],
    ]);
    expect((await ok(pictor('smart', 'rm', 'best CATS'))).stdout).toBe(
      'Deleted the smart board (no image was changed).\n',
    );
    expect((await ok(pictor('smart', 'ls'))).stdout).toBe('Kept\tflag pick OR tags any: cat\n');
    expect(await refs('--rating', '>=4')).toEqual([`${a}#1`, `${b}#1`].sort());
  });

  it('smart ls says what a service rule lists: a board saved before with the demo standing in', async () => {
    await ok(pictor('smart', 'ls'));
    const db = new DatabaseSync(join(dataDir, HISTORY_FILE));
    const insert = db.prepare(
      'INSERT INTO smart_boards (id, name, rules, created_at) VALUES (?, ?, ?, 0)',
    );
    const rule = (fields: object) =>
      JSON.stringify({ match: 'all', items: [{ kind: 'service', ...fields }] });
    insert.run('before', 'Before', rule({ provider: 'pictor' }));
    insert.run('now', 'Now', rule({ service: 'pictor' }));
    db.close();
    expect((await ok(pictor('smart', 'ls'))).stdout).toBe(
      'Before\tservice pictor or the built-in demo standing in for it\nNow\tservice pictor\n',
    );
  });

  it('a rule naming a deleted board is said on stderr, and the smart board still opens', async () => {
    const [, b] = await triaged();
    await ok(
      pictor(
        'smart',
        'create',
        'Acme or picks',
        '--board',
        'Clients/Acme',
        '--flag',
        'pick',
        '--match',
        'any',
      ),
    );
    await ok(pictor('board', 'rm', 'Clients/Acme'));
    const run = await ok(pictor('list', '--smart', 'Acme or picks', '--json'));
    expect(jsonLines(run).map((image) => (image as { ref?: string }).ref)).toEqual([`${b}#1`]);
    const said =
      'Acme or picks: The board “Clients/Acme” no longer exists; this rule matches nothing.\n';
    expect(run.stderr).toBe(said);
    expect((await ok(pictor('smart', 'ls'))).stderr).toBe(said);
    const [entry] = smartLines(await ok(pictor('smart', 'ls', '--json')));
    expect(entry?.problems).toEqual([said.slice('Acme or picks: '.length, -1)]);
  });

  it('exit 2: an unknown smart board named, a name taken, a bad tag, a bad --match, no rule', async () => {
    const [a, b] = await triaged();
    await ok(pictor('smart', 'create', 'Picks', '--flag', 'pick'));
    expect((await ok(pictor('list', '--smart', 'Nope'), 2)).stderr).toBe(
      'There is no smart board “Nope”.\n',
    );
    expect((await ok(pictor('smart', 'rm', 'Nope'), 2)).stderr).toBe(
      'There is no smart board “Nope”.\n',
    );
    expect((await ok(pictor('smart', 'create', 'PICKS', '--rating', '5'), 2)).stderr).toBe(
      'There is already a smart board named “Picks”.\n',
    );
    const bad = await ok(pictor('smart', 'create', 'Evil', '--tag', 'evil\u202Egnp.exe'), 2);
    expect(bad.stderr).toBe('A tag cannot contain the character U+202E.\n');
    expect(
      (await ok(pictor('smart', 'create', 'X', '--flag', 'pick', '--match', 'some'), 2)).stderr,
    ).toContain('--match takes all or any.');
    expect((await ok(pictor('smart', 'create', 'Empty'), 2)).stderr).toContain(
      'smart create needs at least one rule: --rating, --flag, --board, --tag or --unfiled.',
    );
    expect((await ok(pictor('smart', 'ls'))).stdout).toBe('Picks\tflag pick\n');
    expect(await refs('--smart', 'Picks')).toEqual([`${b}#1`]);
    await ok(pictor('flag', a, 'pick'));
    expect(await refs('--smart', 'Picks')).toEqual([`${a}#1`, `${b}#1`].sort());
  });
});
