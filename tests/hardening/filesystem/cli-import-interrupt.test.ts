/**
 * `pictor import` stopped partway, as a user stops it: a real CLI process (the bundled
 * electron/cli/main.ts) importing an archive of 40 tasks read four at once, most of them refused
 * before any decode (a wrong SHA-256 in the manifest, so the reads never pause), and
 * - Ctrl+C (SIGINT) early in the copy and near its end: it ends with its sentence and exit 130,
 *   the tasks done before it in the history (the tests' CLI is a test build:
 *   PICTOR_TEST_IMPORT_HOLD holds the import once that many tasks are done until the signal,
 *   electron/cli/import-hold.ts, so it always lands mid-import);
 * - the gallery's disk filling up after the import's own check (the import held before its first
 *   task until the disk is full: PICTOR_TEST_IMPORT_RELEASE, so it cannot finish first), or
 *   read-only: the disk's sentence and exit 5 (the library cannot be used), never "unexpected
 *   problem" (exit 70).
 * Each time: no stack trace, nothing staged left in `.pictor-tmp`, and the next import finishes
 * the library (every task in the history). Before the archive owned its reads (archive-file.ts),
 * Ctrl+C and a full disk crashed the process with yauzl's `Cannot read properties of null
 * (reading 'fd')` and left staged files behind.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  IMPORT_HELD,
  IMPORT_HOLD_ENV,
  IMPORT_RELEASE_ENV,
} from '../../../electron/cli/import-hold';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { nodeEntryArgs } from '../../support/node-entry-args';
import {
  childEnv,
  describeRun,
  REPO_ROOT,
  runCli,
  type CliRun,
} from '../../integration/cli/run-cli';
import { mountTmpfs, probeMount, remount, unmount } from '../crashes/disk-fixture';
import {
  interruptArchive,
  leaveFree,
  type InterruptArchive,
  type TaskKind,
} from './import-interrupt-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';
import { memoryTempParent } from '../../support/memory-temp';

const TASKS = 40;
/** Mostly refused before any decode (the copy never waits on the image check); a few good ones. */
const KINDS: readonly TaskKind[] = Array.from({ length: TASKS }, (_, i) =>
  i % 8 === 0 ? 'good' : i === 5 ? 'not-an-image' : 'wrong-sha',
);
/** Images of 600×600 random pixels: about 1 MB, sixteen reads each. */
const SIDE = 600;
const MiB = 1024 * 1024;
const mount = probeMount();
const cleanups: (() => Promise<void> | void)[] = [];
let archive: InterruptArchive;
let home: string;

beforeAll(async () => {
  const folder = await tempFolder('cli-interrupt');
  home = await tempFolder('cli-interrupt-home');
  archive = await interruptArchive(folder, KINDS, SIDE);
  return async () => {
    await removeFolder(folder);
    await removeFolder(home);
  };
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A fresh data folder for one test, its gallery folder made: on /dev/shm (memory-temp.ts), so the
 * history's synced writes of each test's two imports do not wait on a contended disk.
 */
async function dataDir(): Promise<{ dir: string; gallery: string }> {
  const dir = await tempFolder('cli-interrupt-data', memoryTempParent());
  cleanups.push(() => removeFolder(dir));
  const gallery = join(dir, 'gallery');
  await mkdir(gallery);
  return { dir, gallery };
}

/** `text` as a regular expression's literal. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface RunningImport {
  /** Resolves with the first progress line at or past `done` tasks, or the hold's line past it. */
  readonly progressAt: (done: number) => Promise<number>;
  /** Resolves once the import says it is held. */
  readonly held: Promise<void>;
  readonly kill: (signal: NodeJS.Signals) => void;
  readonly finished: Promise<CliRun>;
}

/**
 * Starts `pictor import <archive> --data-dir <dir>` and keeps it running; with `holdAt`, the
 * import holds once that many tasks are done, until it is interrupted or, with `release`, a file
 * is there (import-hold.ts).
 */
function startImport(dir: string, holdAt?: number, release?: string): RunningImport {
  const args = ['import', archive.path, '--data-dir', dir];
  const hold = {
    ...(holdAt === undefined ? {} : { [IMPORT_HOLD_ENV]: String(holdAt) }),
    ...(release === undefined ? {} : { [IMPORT_RELEASE_ENV]: release }),
  };
  const child = spawn(process.execPath, [...nodeEntryArgs('cli'), ...args], {
    cwd: REPO_ROOT,
    env: { ...childEnv({ home }), ...hold },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onHeld = () => {};
  const waiting: { done: number; resolve: (done: number) => void }[] = [];
  const line = new RegExp(`(?:Importing:|${escaped(IMPORT_HELD)}) (\\d+)`, 'g');
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.includes(IMPORT_HELD)) onHeld();
    const done = [...stderr.matchAll(line)].map((match) => Number(match[1]));
    const reached = Math.max(-1, ...done);
    for (const wait of waiting.splice(0)) {
      if (reached >= wait.done) wait.resolve(reached);
      else waiting.push(wait);
    }
  });
  const finished = new Promise<CliRun>((resolve) =>
    child.once('close', (code) =>
      resolve({ args, code, stdout, stderr, timedOut: false, durationMs: 0 }),
    ),
  );
  const held = new Promise<void>((resolve, reject) => {
    onHeld = resolve;
    void finished.then((run) =>
      reject(new Error(`the import ended before it held:\n${describeRun(run)}`)),
    );
  });
  // Awaited only by a test that holds the import: otherwise its end is no unhandled rejection.
  held.catch(() => undefined);
  // A test that fails before it lets the import go leaves no held process behind.
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await finished;
  });
  return {
    progressAt: (done) =>
      new Promise((resolve, reject) => {
        waiting.push({ done, resolve });
        void finished.then((run) =>
          reject(new Error(`the import ended before ${done} tasks:\n${describeRun(run)}`)),
        );
      }),
    held,
    kill: (signal) => child.kill(signal),
    finished,
  };
}

/** The gallery on a tmpfs of its own (room for the import's own check: its bytes and 64 MiB). */
function fastDisk(gallery: string): void {
  mountTmpfs(gallery, 256 * MiB);
  cleanups.push(() => unmount(gallery));
}

/** No stack trace, no "unexpected problem", no yauzl TypeError: only sentences. */
function expectSentencesOnly(run: CliRun): void {
  expect(run.stderr, describeRun(run)).not.toMatch(/\n\s+at |unexpected problem|TypeError/);
}

/** The tasks the data folder's history holds. */
function historyCount(dir: string): number {
  const history = HistoryStore.open(join(dir, HISTORY_FILE));
  try {
    return history.list({ limit: 100 }).items.length;
  } finally {
    history.close();
  }
}

/** Nothing staged is left, and the next import finishes the library (40 tasks, refusals: exit 4). */
async function expectNextImportFinishes(dir: string, gallery: string): Promise<void> {
  expect(await readdir(join(gallery, TEMP_DIR)).catch(() => [])).toEqual([]);
  const again = await runCli(['import', archive.path, '--data-dir', dir], { home });
  expect(again.code, describeRun(again)).toBe(4);
  expectSentencesOnly(again);
  expect(historyCount(dir)).toBe(TASKS);
  expect(await readdir(join(gallery, TEMP_DIR))).toEqual([]);
}

describe('pictor import stopped partway', () => {
  // Held at a point, the import is in the same state wherever the point is: that many tasks done
  // (their records waiting for the history's one batch), those under way ending, the rest not
  // started; Ctrl+C at every step of it is import-interrupt.test.ts's (in process). So two points:
  // 2, early (nearly every task still to come), and 34, near the end (held, at most 37 tasks done
  // of 40: four at once), where the signal must still win over the import's last tasks.
  it.each([2, 34])(
    'Ctrl+C once %i tasks are done ends with its sentence and exit 130, nothing staged left',
    async (done) => {
      const { dir, gallery } = await dataDir();
      // On a disk that never waits to flush, the import spends its time reading the archive.
      if (mount.ok) fastDisk(gallery);
      // Held once `done` tasks are done (those under way end first), until the signal.
      const running = startImport(dir, done);
      const reached = await running.progressAt(done);
      expect(reached).toBeLessThan(TASKS);
      running.kill('SIGINT');
      await expectInterrupted(await running.finished, { dir, gallery, reached });
    },
  );
});

/**
 * An import ended by Ctrl+C once `reached` tasks were done: its sentence and exit 130, those
 * tasks in the history and not all of them, and the next import finishes it.
 */
async function expectInterrupted(
  run: CliRun,
  { dir, gallery, reached }: { dir: string; gallery: string; reached: number },
): Promise<void> {
  expect(run.code, describeRun(run)).toBe(130);
  expect(run.stderr).toMatch(
    /Interrupted\. What was imported before stays in the library; run the import again to finish\./,
  );
  expectSentencesOnly(run);
  const kept = historyCount(dir);
  expect(kept).toBeGreaterThanOrEqual(reached);
  expect(kept).toBeLessThan(TASKS);
  await expectNextImportFinishes(dir, gallery);
}

describe.skipIf(!mount.ok)(
  `pictor import onto a gallery disk that fills or is read-only${mount.ok ? '' : ` (skipped: ${mount.reason})`}`,
  () => {
    it('a disk that fills mid-copy: the disk’s sentence and exit 5, nothing staged left', async () => {
      const { dir, gallery } = await dataDir();
      fastDisk(gallery);
      // Held before its first task (its check of the room done) until the disk is full.
      const release = join(dir, 'disk-full');
      const running = startImport(dir, 0, release);
      await running.held;
      // Another program takes the space once the import has checked it had room.
      const filler = leaveFree(gallery, 64 * 1024);
      await writeFile(release, '');
      const run = await running.finished;
      expect(run.code, describeRun(run)).toBe(5);
      expect(run.stderr).toMatch(
        /Pictor stopped the import: it could not write into the library because the disk is full \(no space left\) \(ENOSPC\)\./,
      );
      expectSentencesOnly(run);
      await unlink(filler);
      await expectNextImportFinishes(dir, gallery);
    });

    it('a read-only disk: the disk’s sentence and exit 5, and the import once writable', async () => {
      const { dir, gallery } = await dataDir();
      fastDisk(gallery);
      await mkdir(join(gallery, TEMP_DIR));
      remount(gallery, 'ro');
      const run = await startImport(dir).finished;
      expect(run.code, describeRun(run)).toBe(5);
      expect(run.stderr).toMatch(
        /Pictor stopped the import: it could not write into the library because the disk is read-only \(EROFS\)\./,
      );
      expectSentencesOnly(run);
      remount(gallery, 'rw');
      await expectNextImportFinishes(dir, gallery);
    });
  },
);
