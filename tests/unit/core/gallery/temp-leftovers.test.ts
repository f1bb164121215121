/**
 * What a gallery's start-up removes from `.pictor-tmp`: only leftovers, never a file another live
 * process sharing the library is writing or checking (the app and CLI commands share one library).
 * Before, every file there went at start-up, so a second process starting removed the first one's
 * download under it, and that image ended invalid ('damaged or incomplete'): the lease test's
 * seed 547128728 showed it.
 *
 * The other processes here are real: a child that names its temporary file through the gallery's
 * own tempPath and holds it open, then is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Gallery } from '../../../../electron/core/gallery/gallery';
import { ownStart, processStart } from '../../../../electron/core/fs/process-owner';
import {
  isLeftoverTemp,
  isOwnTempName,
  isTempNameOf,
  ownTempName,
  ownUniqueName,
  STALE_TEMP_MS,
} from '../../../../electron/core/fs/temp-names';
import { ManualClock } from '../../../fakes/manual-clock';
import { removeFolder, tempFolder } from '../../../support/temp-folders';
import { REPO_ROOT } from '../../../support/source-files';

const ATOMIC_FILE = join(REPO_ROOT, 'electron/core/fs/atomic-file.ts');

let root: string;
let temp: string;
const children = new Set<ChildProcess>();
const clock = new ManualClock(Date.UTC(2026, 10, 24, 12));

beforeEach(async () => {
  root = await tempFolder('tmp-owners');
  temp = join(root, '.pictor-tmp');
  await mkdir(temp);
});

afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await removeFolder(root);
});

const gallery = () => new Gallery({ root, now: () => clock.now() });

/** This machine's tag in temporary names (the part before the pid). */
const hostTag = ownTempName('').split('-')[0]!;

/** Sets a file's last change to `ms` (the manual clock's time line). */
const changedAt = (path: string, ms: number) => utimes(path, ms / 1000, ms / 1000);

/**
 * A child process that writes a temporary file at a path from the gallery's tempPath (as a
 * download does), prints its name and waits, the file still open.
 */
async function childWithTempFile(): Promise<{ child: ChildProcess; name: string }> {
  const script = `
    const { open } = await import('node:fs/promises');
    const { tempPath } = await import(${JSON.stringify(ATOMIC_FILE)});
    const path = tempPath(${JSON.stringify(root)}, '.part');
    const handle = await open(path, 'wx');
    await handle.write('half an image');
    process.stdout.write(path + '\\n');
    setInterval(() => undefined, 1 << 30);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  let out = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    out += chunk as string;
    if (out.includes('\n')) break;
  }
  return { child, name: basename(out.trim()) };
}

async function killed(child: ChildProcess): Promise<void> {
  const closed = once(child, 'close');
  child.kill('SIGKILL');
  await closed;
  children.delete(child);
}

describe('leftovers in .pictor-tmp', () => {
  it("keeps another live process's file at start-up, and removes it once that process is killed", async () => {
    const { child, name } = await childWithTempFile();
    expect(name.startsWith(`${hostTag}-${child.pid}-`)).toBe(true);
    await changedAt(join(temp, name), clock.now());
    expect((await gallery().init()).removedTempFiles).toBe(0);
    expect(await readdir(temp)).toEqual([name]);

    await killed(child);
    expect((await gallery().init()).removedTempFiles).toBe(1);
    expect(await readdir(temp)).toEqual([]);
  });

  it("keeps this process's own files (a reroot or a second gallery in the same process)", async () => {
    const own = ownTempName('.part');
    await writeFile(join(temp, own), 'in flight');
    await changedAt(join(temp, own), clock.now());
    await gallery().init();
    expect(await readdir(temp)).toEqual([own]);
  });

  it("removes what Pictor did not name so (an older Pictor's, or a crafted folder's), files and folders", async () => {
    const names = ['0123456789abcdef01234567.part', 'notes.txt', `${hostTag}-0-x.part`, 'move-1'];
    for (const name of names) await writeFile(join(temp, name), 'left');
    await mkdir(join(temp, 'a-folder', 'inside'), { recursive: true });
    expect((await gallery().init()).removedTempFiles).toBe(names.length + 1);
    expect(await readdir(temp)).toEqual([]);
  });

  it('keeps a fresh file of another machine sharing the folder, and removes it after a day without change', async () => {
    const name = `0badf00d-4242-${'ab'.repeat(12)}.part`;
    const path = join(temp, name);
    await writeFile(path, 'another machine is writing');
    await changedAt(path, clock.now());
    await gallery().init();
    expect(await readdir(temp)).toEqual([name]);

    await clock.advance(STALE_TEMP_MS + 1);
    await gallery().init();
    expect(await readdir(temp)).toEqual([]);
  });

  it("removes a live process's file unchanged for over a day (its pid reused since)", async () => {
    const { child, name } = await childWithTempFile();
    const path = join(temp, name);
    await changedAt(path, clock.now() - STALE_TEMP_MS - 1);
    await gallery().init();
    expect(await readdir(temp)).toEqual([]);
    await killed(child);
  });

  it('judges names by their owner, not by their look alone', () => {
    const now = clock.now();
    const own = ownTempName('.part');
    expect(isLeftoverTemp(own, now, now)).toBe(false);
    expect(isLeftoverTemp(own, now - STALE_TEMP_MS - 1, now)).toBe(true);
    // A pid of this machine that no process has: above any pid_max (2^22).
    expect(isLeftoverTemp(`${hostTag}-99999999-aa.part`, now, now)).toBe(true);
    // A pid no system call takes is never asked: it waits for its day, like a live one.
    expect(isLeftoverTemp(`${hostTag}-4000000000-aa.part`, now, now)).toBe(false);
    expect(isLeftoverTemp(`${hostTag}-4000000000-aa.part`, now - STALE_TEMP_MS - 1, now)).toBe(
      true,
    );
    expect(isLeftoverTemp(`${hostTag}-${process.pid}x-aa.part`, now, now)).toBe(true);
    expect(isLeftoverTemp('', now, now)).toBe(true);
  });
});

/** `name` with the start it carries (`.s<digits>`) replaced by `mark` ('' takes it out). */
const withStart = (name: string, mark: string) => name.replace(/\.s[0-9]+(?=\.)/, mark);

// Where the system tells a process's start (Linux's /proc), every name carries it.
describe.runIf(ownStart() !== null)("names that carry their process's start", () => {
  it("are made with it, both kinds, and read as this process's own", () => {
    for (const name of [ownTempName('.part'), ownUniqueName('.use')]) {
      expect(name).toContain(`.s${ownStart()!}.`);
      expect(isOwnTempName(name)).toBe(true);
    }
  });

  it("take a name of this process's pid but another start for a crashed process's, and remove it", async () => {
    // The process before this one had this pid (given again after its crash): its file is not
    // this process's to keep, and no live process will finish it.
    const before = withStart(ownTempName('.part'), '.s1');
    expect(isOwnTempName(before)).toBe(false);
    expect(isLeftoverTemp(before, clock.now(), clock.now())).toBe(true);
    const mine = ownTempName('.part');
    for (const name of [before, mine]) {
      await writeFile(join(temp, name), 'half an image');
      await changedAt(join(temp, name), clock.now());
    }
    expect((await gallery().init()).removedTempFiles).toBe(1);
    expect(await readdir(temp)).toEqual([mine]);
  });

  it("keep a live process's file by its start, and take one naming another start for a leftover", async () => {
    const { child, name } = await childWithTempFile();
    expect(name).toContain(`.s${processStart(child.pid!)!}.part`);
    const now = clock.now();
    expect(isLeftoverTemp(name, now, now)).toBe(false);
    // The same pid, started at another time: the pid was given again.
    expect(isLeftoverTemp(withStart(name, '.s1'), now, now)).toBe(true);
    // Written before names carried the start: judged by the pid alone, as before.
    expect(isLeftoverTemp(withStart(name, ''), now, now)).toBe(false);
    await killed(child);
    expect(isLeftoverTemp(withStart(name, ''), now, now)).toBe(true);
  });

  it("read a store's temporary names of either generation, and nothing else", () => {
    const made = ownTempName('.tmp');
    expect(isTempNameOf(made, '.tmp')).toBe(true);
    expect(isTempNameOf(withStart(made, ''), '.tmp')).toBe(true);
    expect(isTempNameOf(made, '.part')).toBe(false);
    for (const crafted of [
      withStart(made, '.s12x'),
      withStart(made, '.s'),
      withStart(made, `.s${'9'.repeat(21)}`),
      `${made}.tmp`,
      ownUniqueName('.tmp'),
      made.replace(/-[0-9a-f]{24}/, '-0123'),
    ]) {
      expect(isTempNameOf(crafted, '.tmp'), crafted).toBe(false);
    }
  });
});
