/**
 * A library hold (electron/core/fs/library-holds.ts) names its process's machine and pid, so a
 * killed holder's counts for nothing — until the system gives that pid to another process: then
 * the dead command's `.move` (or `.use`) read as alive and refused every open (or move) of the
 * library for up to a day, its age as a leftover. Where the system tells a process's start (Linux:
 * /proc/<pid>/stat), a hold now names that too (temp-names.ts ownUniqueName), and a hold whose pid
 * a process with another start has now is a leftover (process-owner.ts processState). A hold that
 * names no start (an older Pictor's, another system's) waits its day as before. Real processes,
 * real files; the pid given again is played by a live process whose start the hold does not name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldForChanges, holdLibraryOpen, LibraryHeldError } from '../../../electron/core/fs';
import { HOLDS_DIR } from '../../../electron/core/fs/library-holds';
import { processStart, processState, THIS_HOST } from '../../../electron/core/fs/process-owner';
import { ownUniqueName } from '../../../electron/core/fs/temp-names';
import { liveProcess } from '../../support/live-process';
import { testFolder } from '../../support/per-test';
import { UNTIL } from '../../support/waits';

const linux = process.platform === 'linux';

let data: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  data = await testFolder('recycled-pid-holds');
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill();
});

/** A live process (its pid and start) that stays until the test ends. */
async function liveOwner(): Promise<{ pid: number; start: string }> {
  const { pid } = await liveProcess();
  const start = processStart(pid);
  if (start === null) throw new Error('no start read for a live child');
  return { pid, start };
}

/** A hold of `suffix` as process `pid` of this machine leaves it, naming `start` (or none). */
async function plantHold(pid: number, start: string | null, suffix: string): Promise<string> {
  const own = ownUniqueName(suffix).replace(`-${process.pid}-`, `-${pid}-`);
  const name =
    start === null ? own.replace(/\.s[0-9]+\./, '.') : own.replace(/\.s[0-9]+\./, `.s${start}.`);
  await writeFile(join(data, HOLDS_DIR, name), '', { flag: 'wx', mode: 0o600 });
  return name;
}

const holds = () => readdir(join(data, HOLDS_DIR));

describe.runIf(linux)('a hold whose pid the system gave again', () => {
  beforeEach(async () => {
    // Makes the holds folder as a first hold does.
    await (
      await holdLibraryOpen(data)
    )();
  });

  it("this process's holds name its start", () => {
    expect(ownUniqueName('.use')).toContain(`.s${processStart(process.pid)}.`);
  });

  it('no longer refuses an open: a dead move is a leftover, removed', async () => {
    const other = await liveOwner();
    const name = await plantHold(other.pid, String(BigInt(other.start) + 1n), '.move');
    const hold = await holdLibraryOpen(data);
    expect(await holds()).not.toContain(name);
    await hold();
  });

  it('no longer refuses a move: a dead use is a leftover, removed', async () => {
    const other = await liveOwner();
    const name = await plantHold(other.pid, '0', '.use');
    await expect(heldForChanges(data)(() => Promise.resolve('moved'))).resolves.toBe('moved');
    expect(await holds()).not.toContain(name);
  });

  it("of this very process's pid reads gone to others when it names another start", () => {
    expect(processState(THIS_HOST, process.pid, '0')).toBe('gone');
    expect(processState(THIS_HOST, process.pid, processStart(process.pid)!)).toBe('alive');
  });
});

describe.runIf(linux)('a live hold', () => {
  beforeEach(async () => {
    await (
      await holdLibraryOpen(data)
    )();
  });

  it("naming its process's start still refuses: a move against an open, an open against a move", async () => {
    const other = await liveOwner();
    await plantHold(other.pid, other.start, '.use');
    await expect(heldForChanges(data)(() => Promise.resolve('moved'))).rejects.toBeInstanceOf(
      LibraryHeldError,
    );
    await plantHold(other.pid, other.start, '.move');
    await expect(holdLibraryOpen(data)).rejects.toBeInstanceOf(LibraryHeldError);
    expect(await holds()).toHaveLength(2);
  });

  it('naming no start (an older Pictor, another system) still counts while its pid lives', async () => {
    const other = await liveOwner();
    const name = await plantHold(other.pid, null, '.move');
    expect(name).not.toMatch(/\.s[0-9]+\./);
    await expect(holdLibraryOpen(data)).rejects.toBeInstanceOf(LibraryHeldError);
    expect(await holds()).toEqual([name]);
  });
});

/**
 * A process that ended and whose parent has not waited for it (a zombie: an agent's host that
 * started `pictor mcp` and never reaps it) still has its pid and its start: only its state says
 * it has ended. Played by a `sleep` whose parent is a shell that exec'd another `sleep`.
 */
async function endedUnreaped(): Promise<{ pid: number; start: string }> {
  const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  children.push(parent);
  const pid = Number(
    await new Promise<string>((resolve) =>
      parent.stdout!.once('data', (line) => resolve(`${line}`)),
    ),
  );
  const start = processStart(pid);
  if (start === null) throw new Error('no start read for a live child');
  // Killed once the shell is the `sleep` it exec'd, which never waits: the shell might reap it.
  const parentName = () => readFileSync(`/proc/${parent.pid}/comm`, 'latin1').trim();
  await vi.waitFor(() => expect(parentName()).toBe('sleep'), UNTIL);
  process.kill(pid, 'SIGKILL');
  const state = () => readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0];
  await vi.waitFor(() => expect(state()).toBe('Z'), UNTIL);
  return { pid, start };
}

describe.runIf(linux)('a hold whose process ended unreaped', () => {
  beforeEach(async () => {
    await (
      await holdLibraryOpen(data)
    )();
  });

  it('no longer refuses an open: its move is a leftover, removed', async () => {
    const ended = await endedUnreaped();
    const name = await plantHold(ended.pid, ended.start, '.move');
    const hold = await holdLibraryOpen(data);
    expect(await holds()).not.toContain(name);
    await hold();
    expect(processState(THIS_HOST, ended.pid, ended.start)).toBe('gone');
  });
});
