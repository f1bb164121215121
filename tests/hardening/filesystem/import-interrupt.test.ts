/**
 * An import stopped at any point ends cleanly, as the app runs it (the `archive:` IPC handlers over
 * the core's operations): several tasks read at once from one archive, entries refused before any
 * decode (a wrong SHA-256) and by the image check, and the import stopped by Cancel at every step
 * it checks its signal, or by the gallery's disk filling up at every size, or turning read-only.
 * Each time: the import ends with its outcome (cancelled, or the disk's sentence), no uncaught
 * exception or unhandled rejection, the archive's file closed (no read left waiting), nothing
 * staged left in `.pictor-tmp`, every task folder with its record, and the operation slot free:
 * the next import through the same handlers adds what is missing.
 *
 * Before the archive owned its reads (archive-file.ts), yauzl's fd-slicer threw `Cannot read
 * properties of null (reading 'fd')` at the process and left every other read waiting for ever.
 */
import { mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { archiveHandlers } from '../../../electron/ipc/archive-handlers';
import { toIpcError } from '../../../electron/ipc/ipc-errors';
import {
  makeLibrary,
  operationsOn,
  type Library,
} from '../../unit/core/library/archive/library-fixture';
import { mountTmpfs, probeMount, remount, unmount } from '../crashes/disk-fixture';
import { recordReliability } from '../support/reliability-record';
import {
  CLEAN,
  countSteps,
  interruptArchive,
  leaveFree,
  leftovers,
  settled,
  taskFolders,
  watchProcessErrors,
  type InterruptArchive,
  type TaskKind,
} from './import-interrupt-fixture';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const FILE = 'tests/hardening/filesystem/import-interrupt.test.ts';
const KINDS: readonly TaskKind[] = [
  'good',
  'wrong-sha',
  'good',
  'not-an-image',
  'wrong-sha',
  'good',
];
const context = { sender: {} as never };
const mount = probeMount();
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function folder(): Promise<string> {
  const made = await tempFolder('gallery');
  cleanups.push(() => removeFolder(made));
  return made;
}

async function library(): Promise<Library> {
  const made = await makeLibrary();
  cleanups.push(async () => {
    made.history.close();
    await removeFolder(made.dir);
  });
  return made;
}

/** The app's handlers on `target`, its import dialog choosing `archive`. */
function appOn(target: Library, archive: InterruptArchive, onProgress: () => void = () => {}) {
  return archiveHandlers({
    operations: operationsOn(target),
    dialogs: { chooseExportFile: async () => null, chooseImportSource: async () => archive.path },
    version: () => 'test',
    emit: (channel) => {
      if (channel === 'archive:progress') onProgress();
    },
  });
}

type App = ReturnType<typeof appOn>;

const importThrough = async (app: App) => app['archive:import']({ from: 'archive' }, context);

function records(target: Library): TaskRecord[] {
  return target.history.list({ limit: 100 }).items;
}

/** What a whole import of the archive leaves: each task, its image saved only when it is good. */
function expectWhole(target: Library): void {
  const states = records(target).flatMap((record) => record.images.map((image) => image.state));
  const expected = KINDS.map((kind) => (kind === 'good' ? 'saved' : 'invalid'));
  expect(states.sort()).toEqual(expected.sort());
}

/** What the runs of a row left that they must not, counted (each run also asserts its own). */
interface Tally {
  runs: number;
  uncaughtErrors: number;
  /** Runs whose archive was still open once the import had ended. */
  readsLeftWaiting: number;
  stagedFilesLeft: number;
  /** Task folders without their record, or records without their folder. */
  halfTasks: number;
  /** Tasks missing once the next import finished the library. */
  lost: number;
  /** Task folders beyond one a task once the next import finished the library. */
  duplicated: number;
  nextImportsFinished: number;
}

function tally(): Tally {
  return {
    runs: 0,
    uncaughtErrors: 0,
    readsLeftWaiting: 0,
    stagedFilesLeft: 0,
    halfTasks: 0,
    lost: 0,
    duplicated: 0,
    nextImportsFinished: 0,
  };
}

/**
 * The checks every ended import passes, then the next import through the same app finishes the
 * library; what each leaves is added to `into`.
 */
async function expectEndedCleanly(
  target: Library,
  archive: InterruptArchive,
  app: App,
  into: Tally,
): Promise<void> {
  const folders = () => records(target).flatMap((record) => (record.folder ? [record.folder] : []));
  const left = await leftovers(target.root, archive, folders());
  into.runs += 1;
  into.readsLeftWaiting += left.archiveDescriptors === 0 ? 0 : 1;
  into.stagedFilesLeft += left.staged.length;
  into.halfTasks += left.unrecorded.length;
  expect(left).toEqual(CLEAN);
  const next = await settled(importThrough(app));
  expect(next).toMatchObject({ ok: true, value: { summary: { cancelled: false } } });
  if (next.ok && next.value.summary?.cancelled === false) into.nextImportsFinished += 1;
  into.lost += KINDS.length - records(target).length;
  into.duplicated += (await taskFolders(target.root)).length - KINDS.length;
  expectWhole(target);
  expect(await leftovers(target.root, archive, folders())).toEqual(CLEAN);
}

/** The row's outcome and its lost, duplicated and leaked counts, from what the runs left. */
function counted(seen: Tally, more: Record<string, number>) {
  const { lost, duplicated, stagedFilesLeft, ...rest } = seen;
  return {
    outcome: { ...more, ...rest, stagedFilesLeft, lost, duplicated },
    lost,
    duplicated,
    leaked: stagedFilesLeft,
  };
}

describe('an import through the app, stopped at any point', () => {
  it('ends cleanly when cancelled at every step, and the next import finishes it', async () => {
    const archive = await interruptArchive(await folder(), KINDS);
    // The steps of a whole import: how many times it looks at its signal.
    const whole = await library();
    let steps = 0;
    const restore = countSteps((step) => (steps = step));
    const full = await importThrough(appOn(whole, archive));
    restore();
    expect(full.summary).toMatchObject({ addedTasks: 6, addedImages: 3, refusedTotal: 3 });
    expect(steps).toBeGreaterThan(KINDS.length * 3);

    const seen = tally();
    const ends = { cancelled: 0, cancelledBeforeTheRead: 0, finishedBeforeTheCancel: 0 };
    for (let at = 1; at <= steps; at += 1) {
      const target = await library();
      const app = appOn(target, archive);
      const watch = watchProcessErrors();
      const stop = countSteps((step) => {
        if (step === at) app['archive:cancel'](undefined, context);
      });
      const outcome = await settled(importThrough(app)).finally(stop);
      watch.stop();
      seen.uncaughtErrors += watch.errors.length;
      expect(watch.errors, `cancelled at step ${at} of ${steps}`).toEqual([]);
      expect(outcome.ok, `cancelled at step ${at}`).toBe(true);
      // A Cancel at the operation's first look, once the file is chosen and before it is read,
      // ends the import with no summary and nothing added; one after the last task's last look
      // would find nothing left to stop.
      const summary = outcome.ok ? outcome.value.summary : undefined;
      if (summary === null) {
        ends.cancelledBeforeTheRead += 1;
        expect(records(target), `cancelled at step ${at}, before the read`).toEqual([]);
      } else if (summary?.cancelled) ends.cancelled += 1;
      else ends.finishedBeforeTheCancel += 1;
      await expectEndedCleanly(target, archive, app, seen);
    }
    expect(ends.cancelled).toBeGreaterThan(steps / 2);
    recordReliability({
      section: 'crashes',
      row: 'Import cancelled at every step (app)',
      load: `${KINDS.length} tasks read 4 at once from one archive, 3 refused (2 wrong SHA-256, 1 not an image)`,
      injected: { cancelAtStep: steps },
      ...counted(seen, ends),
      file: FILE,
    });
  });
});

/** A gallery on a tmpfs of its own for `target`, unmounted after the test. */
async function smallDisk(target: Library, bytes: number): Promise<void> {
  mountTmpfs(target.root, bytes);
  cleanups.push(() => unmount(target.root));
  await mkdir(join(target.root, TEMP_DIR));
}

const MiB = 1024 * 1024;
/** Room for the import's own check (its bytes and the 64 MiB margin), then filled by another program. */
const DISK = 72 * MiB;

describe.skipIf(!mount.ok)(
  `an import onto a gallery disk that fills or turns read-only${mount.ok ? '' : ` (skipped: ${mount.reason})`}`,
  () => {
    it('stops with the disk’s sentence at every size, leaves nothing half-written, and the next import finishes', async () => {
      const archive = await interruptArchive(await folder(), KINDS);
      const rooms: number[] = [];
      for (let room = 0; room <= 320 * 1024; room += 16 * 1024) rooms.push(room);
      const seen = tally();
      const ends = { stoppedWithTheDiskSentence: 0, finishedInTheRoomLeft: 0 };
      for (const room of rooms) {
        const target = await library();
        await smallDisk(target, DISK);
        let filler = '';
        // Another program takes the space once the import has checked it had room.
        const app = appOn(target, archive, () => {
          if (!filler) filler = leaveFree(target.root, room);
        });
        const watch = watchProcessErrors();
        const outcome = await settled(importThrough(app));
        watch.stop();
        seen.uncaughtErrors += watch.errors.length;
        expect(watch.errors, `${room} bytes left`).toEqual([]);
        if (outcome.ok) ends.finishedInTheRoomLeft += 1;
        else {
          ends.stoppedWithTheDiskSentence += 1;
          expect(toIpcError(outcome.error).sentence).toMatchObject({
            key: 'error.library.importStoppedDisk',
            params: { problem: 'full', code: 'ENOSPC' },
          });
        }
        await unlink(filler);
        await expectEndedCleanly(target, archive, app, seen);
      }
      expect(ends.stoppedWithTheDiskSentence).toBeGreaterThan(rooms.length / 2);
      recordReliability({
        section: 'crashes',
        row: 'Import onto a gallery disk that fills at every size (real tmpfs, app)',
        load: `${KINDS.length} tasks read 4 at once from one archive; the disk filled after the import's own check, leaving 0–320 KiB in 16 KiB steps`,
        injected: { ENOSPC: ends.stoppedWithTheDiskSentence },
        ...counted(seen, ends),
        file: FILE,
      });
    });

    it('stops with the read-only sentence before and during the copy, and finishes once writable', async () => {
      const archive = await interruptArchive(await folder(), KINDS);
      for (const when of ['before', 'during'] as const) {
        const target = await library();
        await smallDisk(target, DISK);
        if (when === 'before') remount(target.root, 'ro');
        let turned = when === 'before';
        const app = appOn(target, archive, () => {
          if (!turned) remount(target.root, 'ro');
          turned = true;
        });
        const watch = watchProcessErrors();
        const outcome = await settled(importThrough(app));
        watch.stop();
        expect(watch.errors).toEqual([]);
        expect(outcome.ok).toBe(false);
        expect(toIpcError(outcome.ok ? null : outcome.error).sentence).toMatchObject({
          key: 'error.library.importStoppedDisk',
          params: { problem: 'readOnly', code: 'EROFS' },
        });
        remount(target.root, 'rw');
        await expectEndedCleanly(target, archive, app, tally());
      }
    });
  },
);
