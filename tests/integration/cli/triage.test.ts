/**
 * The CLI's triage commands on a real library (images from the demo service on loopback), run
 * through the CLI's own entry in this process (run-cli.ts's runCliHere; the process itself is
 * generate.test.ts's and usage.test.ts's) but for the lock's, a real process: rate, flag, tag and board by image-ref (a task id, or ID#N), `list` by rating,
 * flag, tag and board, `purge-rejected` (a dry run without --yes), the exits and sentences of bad
 * input (exit 2 naming the unknown refs, the offending character; exit 1 with the catalogue's
 * sentence for a tag on an image that has 64), and a rating asked while another process holds
 * the library's write lock: it waits and applies once.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { exiftoolRun } from '../../support/exiftool';
import { UNTIL } from '../../support/waits';
import { describeRun, jsonLines, newDataDir, runCli, runCliHere, type CliRun } from './run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let service: DemoService;
let dataDir: string;
let home: string;

beforeEach(async () => {
  service = await startDemoService({ durationMs: 200 });
  dataDir = await newDataDir('triage-data');
  home = await tempFolder('triage-home');
});

afterEach(async () => {
  await service.close();
  await removeFolder(dataDir);
  await removeFolder(home);
});

function withLibrary(args: readonly string[]): string[] {
  const full = [...args, '--data-dir', dataDir];
  if (args[0] === 'generate') full.push('--base-url', service.url, '--poll-interval', '0.1');
  return full;
}

function pictor(...args: string[]): Promise<CliRun> {
  return runCliHere(withLibrary(args), { key: 'demo', home });
}

/** The same command as a process of its own (one that holds the history open beside this one). */
function spawned(...args: string[]): Promise<CliRun> {
  return runCli(withLibrary(args), { key: 'demo', home, timeoutMs: 60_000 });
}

async function ok(run: Promise<CliRun>, code = 0): Promise<CliRun> {
  const done = await run;
  expect(done.code, describeRun(done)).toBe(code);
  return done;
}

/** Three tasks of one image each; their service ids, oldest first. */
async function threeTasks(run = pictor): Promise<string[]> {
  await ok(run('generate', '--prompt', 'a lighthouse', '--count', '3'));
  const tasks = jsonLines(await ok(run('list', '--json')));
  return tasks.map((task) => String(task.taskId)).reverse();
}

interface ListedImage {
  readonly ref: string;
  readonly rating: number;
  readonly flag: string;
  readonly tags: string[];
  readonly boards: string[];
}

function listed(...filters: string[]): Promise<ListedImage[]> {
  return listedBy(pictor, ...filters);
}

async function listedBy(
  run: (...args: string[]) => Promise<CliRun>,
  ...filters: string[]
): Promise<ListedImage[]> {
  const done = await ok(run('list', ...filters, '--json'));
  return done.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ListedImage);
}

describe('pictor triage commands', () => {
  it('rates, flags and tags by task id or ID#N, and list filters by rating, flag and tag', async () => {
    const [a, b, c] = await threeTasks();
    expect((await ok(pictor('rate', a!, `${b!}#1`, '4'))).stdout).toBe('2 images rated ★4.\n');
    await ok(pictor('rate', c!, '2'));
    expect((await listed('--rating', '>=4')).map((image) => image.ref).sort()).toEqual(
      [`${a!}#1`, `${b!}#1`].sort(),
    );
    expect((await listed('--rating', '<=2')).map((image) => image.ref)).toEqual([`${c!}#1`]);
    await ok(pictor('flag', a!, 'pick'));
    await ok(pictor('tag', 'add', 'Cat', a!, b!));
    await ok(pictor('tag', 'add', 'night', b!));
    expect((await listed('--flag', 'pick')).map((image) => image.ref)).toEqual([`${a!}#1`]);
    expect((await listed('--tag', 'cat', '--tag', 'NIGHT')).map((image) => image.ref)).toEqual([
      `${b!}#1`,
    ]);
    // `list --json`'s tasks carry each image's triage too.
    const tasks = jsonLines(await ok(pictor('list', '--json')));
    expect(tasks.find((task) => task.taskId === b)?.images).toMatchObject([
      { rating: 4, flag: 'none', tags: ['Cat', 'night'], boards: [] },
    ]);
    await ok(pictor('tag', 'rm', 'CAT', a!));
    expect((await listed('--tag', 'cat')).map((image) => image.ref)).toEqual([`${b!}#1`]);
  });

  it('write-metadata puts the rating and tags into the image file, where exiftool reads them', async () => {
    const [a] = await threeTasks();
    await ok(pictor('rate', a!, '3'));
    await ok(pictor('tag', 'add', 'Ночь & <day>', a!));
    expect((await ok(pictor('write-metadata', a!))).stdout).toBe('1 written; 0 already so.\n');
    expect((await ok(pictor('write-metadata', `${a!}#1`))).stdout).toBe(
      '0 written; 1 already so.\n',
    );
    const task = jsonLines(await ok(pictor('list', '--json'))).find((t) => t.taskId === a);
    const file = String(task?.images[0]?.path);
    const [read] = JSON.parse(
      (await exiftoolRun(['-j', '-XMP:Rating', '-XMP:Subject', file])).stdout,
    ) as Array<{ Rating?: number; Subject?: string | string[] }>;
    expect(read).toMatchObject({ Rating: 3, Subject: 'Ночь & <day>' });
  });

  it('rebuild reads a crafted sidecar: a rating of 9 as unrated, 70 tags as 64, each said on stderr', async () => {
    await threeTasks();
    const task = jsonLines(await ok(pictor('list', '--json')))[0];
    const folder = dirname(String(task?.images[0]?.path));
    const sidecar = JSON.parse(await readFile(join(folder, 'pictor.json'), 'utf8')) as {
      record: { images: Array<Record<string, unknown>> };
    };
    sidecar.record.images[0] = {
      ...sidecar.record.images[0],
      rating: 9,
      tags: Array.from({ length: 70 }, (_, n) => `tag ${String(n)}`),
    };
    await writeFile(join(folder, 'pictor.json'), JSON.stringify(sidecar));
    const gallery = dirname(folder);
    const fresh = join(dataDir, 'rebuilt');
    const run = await ok(
      runCliHere(['rebuild', '--data-dir', fresh, '--gallery-dir', gallery], { key: 'demo', home }),
    );
    expect(run.stderr).toContain('Image 1: its rating 9 is not 0 to 5; it is read as unrated.');
    expect(run.stderr).toContain('Image 1: 6 of its tags were dropped');
    const rebuilt = jsonLines(
      await ok(
        runCliHere(['list', '--json', '--data-dir', fresh, '--gallery-dir', gallery], {
          key: 'demo',
          home,
        }),
      ),
    ).find((t) => t.localId === task?.localId);
    expect(rebuilt?.images[0]).toMatchObject({ rating: 0 });
    expect((rebuilt?.images[0] as { tags?: string[] } | undefined)?.tags).toHaveLength(64);
  });

  it('import merges the triage of images the library has: the newer rating and flag, tags and boards unioned', async () => {
    const [a] = await threeTasks();
    await ok(pictor('rate', a!, '1'));
    await ok(pictor('tag', 'add', 'from one', a!));
    const older = join(home, 'older.zip');
    await ok(pictor('export', older));
    await ok(pictor('rate', a!, '3'));
    await ok(pictor('flag', a!, 'reject'));
    await ok(pictor('board', 'create', 'Kept'));
    await ok(pictor('board', 'add', 'Kept', a!));
    const newer = join(home, 'newer.zip');
    await ok(pictor('export', newer));
    await ok(pictor('tag', 'rm', 'from one', a!));
    await ok(pictor('tag', 'add', 'from two', a!));
    // The library's rating (3) is newer than the older archive's (1): it stays; tags are unioned.
    await ok(pictor('import', older));
    const image = async () =>
      (await listedBy(pictor, '--rating', '>=0')).find(
        (listedImage) => listedImage.ref === `${a!}#1`,
      );
    expect(await image()).toMatchObject({
      rating: 3,
      flag: 'reject',
      tags: ['from two', 'from one'],
    });
    // Into a new library: the older archive first, then the newer one's rating, flag and board win.
    const other = join(home, 'other');
    const into = (file: string) =>
      ok(runCliHere(['import', file, '--data-dir', other], { key: 'demo', home }));
    await into(older);
    await into(newer);
    const merged = jsonLines(
      await ok(runCliHere(['list', '--json', '--data-dir', other], { key: 'demo', home })),
    ).find((task) => task.taskId === a);
    expect(merged?.images[0]).toMatchObject({
      rating: 3,
      flag: 'reject',
      tags: ['from one'],
      boards: ['Kept'],
    });
  });

  it('tag add on an image with 64 tags says so in the catalogue’s sentence, and exits 1', async () => {
    const [a, b] = await threeTasks();
    // The image of the first task gets its 64 tags beside the CLI (as another process would).
    const store = HistoryStore.open(join(dataDir, 'history.sqlite'));
    try {
      const record = store.findByTaskId(a!)!;
      const tags = Array.from({ length: 64 }, (_, n) => `tag ${String(n)}`);
      // An edit of triage (a write of the record keeps the stored triage: image-rows.ts).
      store.editMany([record.localId], (stored) => ({
        ...stored,
        images: stored.images.map((image) => ({ ...image, tags })),
      }));
    } finally {
      store.close();
    }
    const run = await ok(pictor('tag', 'add', 'one more', a!, b!), 1);
    expect(run.stdout).toBe('1 image tagged.\n');
    expect(run.stderr).toContain(
      'An image can have at most 64 tags; 1 image already had that many, so the tag was not added to them.\n',
    );
    expect(run.stderr).not.toContain('already had 64 tags');
    expect((await listed('--tag', 'one more')).map((image) => image.ref)).toEqual([`${b!}#1`]);
  });

  it('boards: create, add, list by board, move, remove and delete (the images stay)', async () => {
    const [a, b] = await threeTasks();
    await ok(pictor('board', 'create', 'Clients/Acme'));
    await ok(pictor('board', 'add', 'clients/acme', a!, b!));
    expect((await ok(pictor('board', 'ls'))).stdout).toBe('Clients\t0\nClients/Acme\t2\n');
    await ok(pictor('board', 'mv', 'Clients/Acme', 'Acme'));
    expect((await listed('--board', 'Acme')).map((image) => image.boards)).toEqual([
      ['Acme'],
      ['Acme'],
    ]);
    await ok(pictor('board', 'remove', 'Acme', a!));
    expect((await listed('--board', 'Acme')).map((image) => image.ref)).toEqual([`${b!}#1`]);
    await ok(pictor('board', 'rm', 'Acme'));
    expect((await ok(pictor('board', 'ls'))).stdout).toBe('Clients\t0\n');
    expect(await listed('--unfiled')).toHaveLength(3);
  });

  it('purge-rejected says what would go without --yes, and moves it to the trash with it', async () => {
    const [a, b] = await threeTasks();
    await ok(pictor('flag', a!, b!, 'reject'));
    const dry = await ok(pictor('purge-rejected'));
    expect(dry.stdout).toMatch(/^2 rejected images \(\d+\.\d MB\) would go to Pictor's trash\./);
    expect(await listed('--flag', 'reject')).toHaveLength(2);
    const done = await ok(pictor('purge-rejected', '--yes'));
    expect(done.stdout).toMatch(/^2 rejected images \(\d+\.\d MB\) moved to Pictor's trash\.\n$/);
    expect((await ok(pictor('purge-rejected'))).stdout).toMatch(/^0 rejected images/);
    // In Pictor's trash, they are no longer listed (the flag stays on their records).
    expect(await listed('--flag', 'reject')).toHaveLength(0);
  });

  it('exit 2: unknown refs are named, a tag with a forbidden character names it, a bad rating says so', async () => {
    const [a] = await threeTasks();
    const unknown = await ok(pictor('rate', a!, 'nope', `${a!}#7`, '3'), 2);
    expect(unknown.stderr).toContain(`No such image in the library: "nope", "${a!}#7".`);
    const bad = await ok(pictor('tag', 'add', 'evil\u202Egnp.exe', a!), 2);
    expect(bad.stderr).toContain('A tag cannot contain the character U+202E.');
    expect(bad.stderr).not.toContain('\u202E');
    const rating = await ok(pictor('rate', a!, '7'), 2);
    expect(rating.stderr).toContain('rate ends with a rating from 0 to 5; "7" is not one.');
    expect((await ok(pictor('board', 'add', 'Nowhere', a!), 2)).stderr).toContain(
      'There is no board “Nowhere”.',
    );
    expect(await listed('--rating', '>=1')).toHaveLength(0);
  });

  it('a rating asked while another process holds the write lock waits for it and applies once', async () => {
    const [a] = await threeTasks();
    const db = new DatabaseSync(join(dataDir, 'history.sqlite'));
    db.exec('BEGIN IMMEDIATE');
    const run = spawned('rate', a!, '5');
    // The CLI has the history open (its file among the process's descriptors): it waits on the lock.
    await vi.waitFor(() => {
      expect(childHasOpen(join(dataDir, 'history.sqlite'))).toBe(true);
    }, UNTIL);
    db.exec('COMMIT');
    db.close();
    expect((await ok(run)).stdout).toBe('1 image rated ★5.\n');
    expect((await listed('--rating', '5')).map((image) => image.ref)).toEqual([`${a!}#1`]);
  });
});

/** Whether some process other than this one has `file` open (read from /proc). */
function childHasOpen(file: string): boolean {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true;
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  return false;
}
