/**
 * `pictor list` pages: the newest 50 tasks by default and a line on stderr that says how to see
 * the next ones (--cursor, as printed) or every one (--all); --limit N sets the size; stdout holds
 * only rows, so --json stays one object per line. The bundled CLI answers --version with no
 * command loaded. The history is real SQLite written by HistoryStore.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { expectExit, useCliWorlds } from './cli-harness';
import { jsonLines, runCli, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const newWorld = useCliWorlds();
const CREATED = Date.UTC(2025, 2, 3, 10, 0, 0);
const TASKS = 120;

/** Task `n` of the library; the higher `n`, the newer. */
function task(n: number): TaskRecord {
  return makeTaskRecord(
    {
      localId: `d00d0000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      taskId: `task-${n}`,
      request: { prompt: `Prompt ${n}` },
      status: 'failed',
      error: { kind: 'task_failed', message: 'The service could not make this image.' },
    },
    CREATED + n * 1_000,
  );
}

async function libraryOf(count: number) {
  const world = await newWorld();
  const store = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
  try {
    store.putMany(Array.from({ length: count }, (_, index) => task(index + 1)));
  } finally {
    store.close();
  }
  return world;
}

/** The task numbers a `list --json` printed, in order. */
const numbers = (run: CliRun) => jsonLines(run).map((line) => Number(line.taskId?.slice(5)));

/** The cursor the "more" line names. */
function cursorOf(stderr: string): string {
  const cursor = /list --cursor (\S+) /.exec(stderr)?.[1];
  if (cursor === undefined) throw new Error(`no cursor in: ${stderr}`);
  return cursor.replace(/^'|'$/g, '');
}

const newest = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => from - index);

describe('pictor list, a page at a time', () => {
  it('prints the newest 50, then the next ones from the cursor it printed, then says no more', async () => {
    const world = await libraryOf(TASKS);
    const first = await world.run(['list', '--json']);
    expectExit(first, 0);
    expect(numbers(first)).toEqual(newest(TASKS, 50));
    expect(first.stderr).toContain('Listed 50 tasks, the newest; there may be more.');
    expect(first.stderr).toContain('every one: npm run -s cli -- list --all.');

    const second = await world.run(['list', '--json', '--cursor', cursorOf(first.stderr)]);
    expectExit(second, 0);
    expect(numbers(second)).toEqual(newest(TASKS - 50, 50));
    const third = await world.run(['list', '--json', '--cursor', cursorOf(second.stderr)]);
    expectExit(third, 0);
    expect(numbers(third)).toEqual(newest(TASKS - 100, 20));
    expect(third.stderr).not.toContain('--cursor');
  });

  it('prints every task with --all, and as many as --limit says', async () => {
    const world = await libraryOf(TASKS);
    const all = await world.run(['list', '--all']);
    expectExit(all, 0);
    expect(all.stdout.trim().split('\n')).toHaveLength(TASKS);
    expect(all.stderr).toBe('');
    const some = await world.run(['list', '--json', '--limit', '7']);
    expectExit(some, 0);
    expect(numbers(some)).toEqual(newest(TASKS, 7));
    expect(some.stderr).toContain('Listed 7 tasks');
  });

  it('pages the images a triage filter lists the same way, with an image cursor', async () => {
    const world = await newWorld();
    const store = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
    try {
      store.putMany(
        Array.from({ length: 60 }, (_, index) => ({
          ...task(index + 1),
          status: 'completed' as const,
          error: null,
          images: [
            {
              index: 0,
              url: 'https://cdn.example.com/0.png',
              state: 'saved' as const,
              file: `2025/03/t${index + 1}/image-1.png`,
              attempts: 1,
              favourite: false,
            },
          ],
        })),
      );
    } finally {
      store.close();
    }
    const first = await world.run(['list', '--rating', '>=0']);
    expectExit(first, 0);
    expect(first.stdout.trim().split('\n')).toHaveLength(50);
    expect(first.stderr).toContain('Listed 50 images, the newest');
    const cursor = cursorOf(first.stderr);
    const rest = await world.run(['list', '--rating', '>=0', '--cursor', cursor]);
    expectExit(rest, 0);
    expect(
      rest.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('#')[0]),
    ).toEqual(newest(10, 10).map((n) => `task-${n}`));
    // A task cursor is no image cursor: said, not a damaged library.
    const tasks = await world.run(['list', '--json', '--limit', '1']);
    const wrong = await world.run(['list', '--rating', '>=0', '--cursor', cursorOf(tasks.stderr)]);
    expectExit(wrong, 2);
  });

  it('says nothing more under a page', async () => {
    const world = await libraryOf(3);
    const run = await world.run(['list']);
    expectExit(run, 0);
    expect(run.stdout.trim().split('\n')).toHaveLength(3);
    expect(run.stderr).toBe('');
  });

  it.each([
    [['--all', '--limit', '3'], 'list takes --all or --limit N, not both.'],
    [['--limit', '0'], '--limit takes a whole number from 1 to 100000.'],
    [['--limit', '2.5'], '--limit takes a whole number from 1 to 100000.'],
    [['--cursor', 'sk-live-secret'], '--cursor takes the value a "more" line of list printed'],
  ])('refuses %j as a usage error, repeating nothing typed', async (args, said) => {
    const world = await libraryOf(1);
    const run = await world.run(['list', ...args]);
    expectExit(run, 2);
    expect(run.stderr).toContain(said);
    expect(run.stderr).not.toContain('secret');
  });
});

/** zod's code, inlined in a chunk of the bundle (build-electron.ts): its shared settings object. */
const ZOD_MARK = '__zod_globalConfig';

/**
 * The files `entry` loads before it runs (its static imports, followed), the packages among them,
 * and whether zod's inlined code is among them.
 */
function loadedAtStart(entry: string): { files: string[]; packages: string[]; zod: boolean } {
  const files = new Set<string>();
  const packages = new Set<string>();
  let zod = false;
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    zod ||= text.includes(ZOD_MARK);
    for (const [, spec = ''] of text.matchAll(
      /(?:^|\n)(?:import|export)\s(?:[^;'"]*?\sfrom\s)?["']([^"']+)["']/g,
    )) {
      if (spec.startsWith('.')) visit(join(dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  const names = [...files].map((file) => basename(file));
  return { files: names, packages: [...packages].sort(), zod };
}

describe('pictor --version', () => {
  it('starts without any command, schema or package: each loads when its command runs', () => {
    const [entry = ''] = nodeEntryArgs('cli');
    const { files, packages, zod } = loadedAtStart(entry);
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual([]);
    expect(files.filter((file) => /command/.test(file))).toEqual([]);
    expect(zod).toBe(false);
    // The check itself: a command's chunk does load zod.
    const list = readdirSync(dirname(entry)).find((file) => /^list-command-.*\.js$/.test(file));
    expect(loadedAtStart(join(dirname(entry), list ?? '')).zod).toBe(true);
  });

  it('prints the version from the bundle', async () => {
    const home = await tempFolder('cli-home');
    const run = await runCli(['--version'], { home, env: { npm_package_version: '9.8.7' } });
    await removeFolder(home);
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 0,
      stdout: '9.8.7\n',
      stderr: '',
    });
  });
});
