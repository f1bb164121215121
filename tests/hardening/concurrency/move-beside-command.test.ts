/**
 * The app moving the library while a `pictor` command, another process, works on it. Within one
 * core a move never runs beside an import or a download (move-beside-archive.test.ts; the engine
 * pauses), but a command in another process went on writing task folders and sidecars into the
 * old folder: after the switch they were outside the library, its records naming files the new
 * folder lacks. Now each side leaves a hold in the data folder (electron/core/fs/library-holds.ts):
 * a move is refused while a command has the library open, and a command is refused while a move
 * runs; a command killed leaves nothing that counts. Real commands (the bundled CLI, real
 * processes), a real core in this process as the app's, real PNGs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { LibraryHeldError } from '../../../electron/core/fs';
import { HOLDS_DIR } from '../../../electron/core/fs/library-holds';
import type { RelocateFaults } from '../../../electron/core/library';
import { folderTemplate } from '../../support/folder-template';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { QUICK_POLL } from '../../support/quick-demo';
import { UNTIL } from '../../support/waits';
import { childEnv, REPO_ROOT } from '../../integration/cli/run-cli';

let base: string;
let data: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  base = await offlineDir();
  data = join(base, 'data');
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * The bundled CLI as a child process (its home the test's folder, or `home`), its tasks looked at
 * every 0.1 s (QUICK_POLL: what the file judges is who holds the library, not when tasks are
 * looked at); its exit code and output once it ends.
 */
function command(args: readonly string[], home = base) {
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args, ...QUICK_POLL], {
    cwd: REPO_ROOT,
    env: childEnv({ home }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const ended = new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
  return { child, ended };
}

/** The app's core on the library, its moves held by `faults` when given. */
function appCore(faults?: RelocateFaults) {
  return offlineCore({
    dir: base,
    galleryDir: join(data, 'gallery'),
    clock: systemClock,
    ...(faults ? { libraryFaults: faults } : {}),
  });
}

/** The task folders under a gallery's year and month folders. */
async function taskFolders(gallery: string): Promise<string[]> {
  const found: string[] = [];
  for (const year of await readdir(gallery).catch(() => [])) {
    if (!/^\d{4}$/.test(year)) continue;
    for (const month of await readdir(join(gallery, year))) {
      for (const task of await readdir(join(gallery, year, month))) found.push(task);
    }
  }
  return found.sort();
}

/**
 * A library of two tasks the built-in demo made, by a command that has ended (its home and data
 * folder): made once for the file, each test's folder a copy of it.
 */
const twoTaskLibrary = folderTemplate('move-beside-command', async (home) => {
  const into = join(home, 'data');
  const made = await command(['demo', 'a lighthouse', '--count', '2', '--data-dir', into], home)
    .ended;
  expect([made.code, made.output]).toEqual([0, made.output]);
});

/** The test's folder as the demo's two tasks left it; their task folders. */
async function twoTasks(): Promise<string[]> {
  await twoTaskLibrary.copyInto(base);
  const folders = await taskFolders(join(data, 'gallery'));
  expect(folders).toHaveLength(2);
  return folders;
}

/** Waits until a command has the library open (its hold is in the data folder). */
async function commandHolds(): Promise<void> {
  await vi.waitFor(async () => {
    const holds = await readdir(join(data, HOLDS_DIR)).catch(() => [] as string[]);
    expect(holds.filter((name) => name.endsWith('.use')).length).toBeGreaterThan(0);
  }, UNTIL);
}

describe('the app moving the library beside a command in another process', () => {
  it('refuses the move while a command has the library open, and moves it once the command ended', async () => {
    const folders = await twoTasks();
    // An agent's server: open until its client closes its input.
    const server = command(['mcp', '--provider', 'demo', '--data-dir', data]);
    await commandHolds();
    const core = await appCore();
    const target = join(base, 'moved');
    const refused = await core.library.moveTo(target).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LibraryHeldError);
    expect((refused as Error).message).toMatch(/another Pictor process/);
    expect(await taskFolders(join(data, 'gallery'))).toEqual(folders);
    expect(await taskFolders(target)).toEqual([]);

    server.child.stdin?.end();
    expect((await server.ended).code).toBe(0);
    expect((await core.library.moveTo(target)).moved).toBe(2);
    expect(await taskFolders(target)).toEqual(folders);
  });

  it('refuses a command while the app moves the library, and the move completes whole', async () => {
    const folders = await twoTasks();
    let holdCopy = (): void => undefined;
    const copyHeld = new Promise<void>((resolve) => (holdCopy = resolve));
    let copying = false;
    const core = await appCore({
      beforeCopy: async () => {
        copying = true;
        await copyHeld;
      },
    });
    const target = join(base, 'moved');
    const move = core.library.moveTo(target);
    await vi.waitFor(() => expect(copying).toBe(true), UNTIL);

    for (const args of [
      ['demo', 'a second lighthouse', '--data-dir', data],
      ['rate', 'nothing-such', '3', '--data-dir', data],
    ]) {
      const refused = await command(args).ended;
      expect([args[0], refused.code]).toEqual([args[0], 5]);
      expect(refused.output).toMatch(/already being moved/);
    }
    expect(core.history.count({})).toBe(2);
    expect(await taskFolders(join(data, 'gallery'))).toEqual(folders);

    holdCopy();
    expect((await move).moved).toBe(2);
    expect(await taskFolders(target)).toEqual(folders);
    await core.close();
    const after = await command(['demo', 'a third', '--data-dir', data, '--gallery-dir', target])
      .ended;
    expect([after.code, after.output]).toEqual([0, after.output]);
    expect(await taskFolders(target)).toHaveLength(3);
  });

  it('counts no hold of a command that was killed', async () => {
    await twoTasks();
    const server = command(['mcp', '--provider', 'demo', '--data-dir', data]);
    await commandHolds();
    server.child.kill('SIGKILL');
    await server.ended;
    const core = await appCore();
    expect((await core.library.moveTo(join(base, 'moved'))).moved).toBe(2);
  });
});
