/**
 * Child process of trash-kill.test.ts: the real core (openPictorCore: SQLite history, gallery,
 * engine) and the real trash (core/trash: journal in the data folder, `.pictor-trash` in the
 * gallery), with a system trash that records what it is given in a log beside the data folder
 * (and moves the file there, out of the gallery, as the real one would).
 *
 * Modes:
 * - `cycle <refs file> [journaled|history <occurrence> <delay ms>]`: deletes the images named,
 *   then brings them all back (one Undo). With a kill plan it kills itself with SIGKILL `delay ms`
 *   after the Undo reached the journal, or after the n-th history write of the Undo: the point is
 *   counted in its own progress, so a busy machine cannot make the kill land after the Undo ended
 *   (the parent's signal came through a pipe and a timer of its own, and on a loaded machine came
 *   too late). Prints `phase restoring`, `phase history` and `phase placed` as it goes, and
 *   `finished` if it is not killed.
 * - `replay`: what the app does at start: replays the journal, closes, prints `done`.
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node trash-kill-worker.js <dataDir> <galleryDir> <systemTrashDir> cycle|replay [<refs file> [<plan>…]]
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { TRASH_JOURNAL_DIR, TrashJournal } from '../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../electron/core/trash/trash-operations';
import { StaticCredentials } from '../../fakes/static-credentials';
import { printLine as print } from '../support/print-line';
import { testImageEngine } from '../../support/image-engine';

const [dataDir, galleryDir, systemTrashDir, mode, refsFile, after, occurrence, delay] =
  process.argv.slice(2);

/** Where this run dies: the point of the Undo, and how long after it (none: it finishes). */
const plan =
  after === 'journaled' || after === 'history'
    ? { after, occurrence: Number(occurrence), delayMs: Number(delay) }
    : null;
let restoring = false;
let writes = 0;

/** SIGKILL to this process, `plan.delayMs` from now: the Undo goes on until then. */
function killSoon(): void {
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), plan?.delayMs ?? 0);
}

/** Announces a history write about to start; the planned one of the Undo kills. */
function historyWrite(): void {
  print('phase history');
  if (restoring && (writes += 1) === plan?.occurrence && plan.after === 'history') killSoon();
}

/**
 * Every history write is announced before it starts: on main, a whole record (`put`) and a
 * change read under the write lock (`editMany`, how the engine's own writes of a task are
 * written); in the history worker, each write main asks of it (an image back from the trash: its
 * files and state, a task put back), announced as main sends it.
 */
function markHistoryWrites(): void {
  const port = HistoryPort.prototype;
  const { call } = port;
  port.call = function (this: HistoryPort, ...args: Parameters<typeof call>) {
    if (args[0] !== 'costSums') historyWrite();
    return call.apply(this, args);
  } as typeof call;
  const proto = HistoryStore.prototype;
  const { put, editMany } = proto;
  proto.put = function (this: HistoryStore, ...args: Parameters<typeof put>) {
    historyWrite();
    return put.apply(this, args);
  };
  proto.editMany = function (this: HistoryStore, ...args: Parameters<typeof editMany>) {
    historyWrite();
    return editMany.apply(this, args);
  };
}

/** The Undo is announced once its journal file is on disk; a plan for that moment kills. */
function markRestoreJournaled(): void {
  const proto = TrashJournal.prototype;
  const save = proto.saveRestore;
  proto.saveRestore = async function (this: TrashJournal, ...args: Parameters<typeof save>) {
    await save.apply(this, args);
    restoring = true;
    print('phase restoring');
    if (plan?.after === 'journaled') killSoon();
  };
}

/** The system trash: a log line written before the file leaves the gallery. */
async function recordingSystemTrash(file: string): Promise<void> {
  appendFileSync(join(systemTrashDir!, 'log'), `${file}\n`);
  await mkdir(join(systemTrashDir!, 'files'), { recursive: true });
  await rename(file, join(systemTrashDir!, 'files', `${String(Date.now())}-${basename(file)}`));
}

async function main(): Promise<void> {
  if (!dataDir || !galleryDir || !systemTrashDir || (mode !== 'cycle' && mode !== 'replay'))
    throw new Error(
      'usage: trash-kill-worker.ts <dataDir> <galleryDir> <systemTrashDir> cycle|replay',
    );
  markHistoryWrites();
  markRestoreJournaled();
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir,
    fetch: () => Promise.reject(new Error('no network in this test')),
    credentials: new StaticCredentials('http://127.0.0.1:9', 'unused'),
    clock: systemClock,
  });
  const trash = new TrashOperations({
    journal: new TrashJournal(join(dataDir, TRASH_JOURNAL_DIR)),
    core: core,
    sendToSystemTrash: recordingSystemTrash,
  });
  await trash.replay();
  if (mode === 'replay') {
    await core.close();
    print('done');
    return;
  }
  const refs = JSON.parse(readFileSync(refsFile!, 'utf8')) as { localId: string; index: number }[];
  const deleted = await trash.deleteImages(refs);
  if (deleted.failed > 0) throw new Error(`delete failed: ${String(deleted.problem)}`);
  trash.onDidProgress(() => print('phase placed'));
  const restored = await trash.restoreImages(refs);
  if (restored.failed > 0) throw new Error(`restore failed: ${String(restored.problem)}`);
  print('finished');
  await core.close();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
