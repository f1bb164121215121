/**
 * `pictor info` shows what the library says of the image: its rating, flag, tags and boards, in
 * text and in `--json` (`library`), and says when the image is not in the library at --data-dir.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeInProcess, runInProcess, type InProcessRun } from '../../support/cli-in-process';

let dir = '';
let data = '';
let ref = '';
let file = '';

async function pictor(args: readonly string[], code = 0): Promise<InProcessRun> {
  const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') };
  const run = await runInProcess(args, env);
  expect(run.code, describeInProcess(run)).toBe(code);
  return run;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-info-triage-'));
  data = join(dir, 'data');
  const at = ['--data-dir', data];
  const made = await pictor([
    'generate',
    '--provider',
    'demo',
    'a fox',
    '--size',
    '32x32',
    '--json',
    ...at,
  ]);
  const task = JSON.parse(made.stdout) as { localId: string; images: { path: string }[] };
  ref = task.localId;
  file = task.images[0]?.path ?? '';
  await pictor(['rate', ref, '4', ...at]);
  await pictor(['flag', ref, 'pick', ...at]);
  await pictor(['tag', 'add', 'fox', ref, ...at]);
  await pictor(['tag', 'add', 'dusk', ref, ...at]);
  await pictor(['board', 'create', 'Clients/Acme', ...at]);
  await pictor(['board', 'add', 'Clients/Acme', ref, ...at]);
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pictor info', () => {
  it('shows the rating, flag, tags and boards the library has for the image', async () => {
    const text = await pictor(['info', file, '--data-dir', data]);
    expect(text.stdout).toContain('  Rating: 4 of 5\n');
    expect(text.stdout).toContain('  Flag: pick\n');
    expect(text.stdout).toMatch(/ {2}Tags: (fox, dusk|dusk, fox)\n/);
    expect(text.stdout).toContain('  Boards: Clients/Acme');
    // The task's service as `list` names it, with the origin the file records.
    expect(text.stdout).toContain('  Service: demo (demo:)\n');
    const json = JSON.parse(
      (await pictor(['info', file, '--json', '--data-dir', data])).stdout,
    ) as {
      library: {
        rating: number;
        flag: string;
        tags: string[];
        boards: string[];
        service: string;
      } | null;
    };
    expect(json.library).toMatchObject({
      rating: 4,
      flag: 'pick',
      boards: ['Clients/Acme'],
      service: 'demo',
    });
    expect([...(json.library?.tags ?? [])].sort()).toEqual(['dusk', 'fox']);
  });

  it('says when the image is not in the library, and makes no library', async () => {
    const copy = join(dir, 'copy.png');
    await copyFile(file, copy);
    const elsewhere = join(dir, 'no-library');
    const text = await pictor(['info', copy, '--data-dir', elsewhere]);
    expect(text.stdout).toContain(`  Library: not in the library at ${elsewhere}\n`);
    // Named from the file's recorded origin alone.
    expect(text.stdout).toContain('  Service: demo (demo:)\n');
    const json = JSON.parse(
      (await pictor(['info', copy, '--json', '--data-dir', elsewhere])).stdout,
    ) as {
      library: unknown;
    };
    expect(json.library).toBeNull();
    expect(existsSync(elsewhere)).toBe(false);
  });
});
