/**
 * Child process of core-kill.test.ts: the real core (openPictorCore: SQLite history, gallery,
 * HTTP client, engine) against the test's demo service, instrumented to print a phase marker
 * on stdout right before each submit, poll, image download, history write, thumbnail write and
 * sidecar write, so the parent can aim its SIGKILL at a phase.
 *
 * Protocol (one line each, straight to fd 1): `ready` once the core is open (the gallery's
 * start-up cleanup has run, no work started); it then waits for `go` on stdin. Markers are
 * `phase <name>`. In `run` mode it prints `quiet` once nothing but polls is left for this run (see
 * {@link whenQuiet}), and `settled` once no task needs anything more from it (not even a poll:
 * nothing is left for a kill to interrupt). In `finish` mode it prints `done <json>` after a clean
 * close and exits 0.
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node core-kill-worker.js <dataDir> <galleryDir> <serviceUrl> run|finish
 *        [<comma-separated task numbers to submit>] [<ms between submits>]
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { systemClock } from '../../../electron/adapters/system-clock';
import { createPinnedFetch } from '../../../electron/core/download/pinned-fetch';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import { isSettled } from '../../../electron/core/engine/task-transitions';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { PinnedFetch } from '../../../electron/ports/http';
import { StaticCredentials } from '../../fakes/static-credentials';
import { DEMO_KEY, IMAGE_SIZE, promptOf } from './core-kill-shared';
import { printLine as print } from '../support/print-line';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';

/** The service's fetch, announcing what it is about to send (a submit or a poll). */
const markedFetch = (url: string, init?: RequestInit): Promise<Response> => {
  const path = new URL(url).pathname;
  if (path === '/v1/images/generations') print('phase submit');
  else if (path.startsWith('/v1/tasks/')) print('phase poll');
  return fetch(url, init);
};

const pinnedFetch = createPinnedFetch();
/**
 * Image downloads go through the core's pinned transport, never the service's `fetch` (a
 * `/files/` branch there was never reached, so no kill ever landed on a download): a direct
 * pinned one (the core's gate looks at its address first), announcing each download.
 */
const markedImageFetch: PinnedFetch = (url, init, address) => {
  print('phase download');
  return pinnedFetch(url, init, address);
};

/**
 * Every history write is announced before it starts: whole records (put, putMany) and changes
 * read under the write lock (editMany: how the engine writes a task it works on, keeping the
 * user's edits, and how a user edit is written).
 */
function markHistoryWrites(): void {
  const proto = HistoryStore.prototype;
  const { put, putMany, editMany } = proto;
  proto.put = function (this: HistoryStore, ...args: Parameters<typeof put>) {
    print('phase history');
    return put.apply(this, args);
  };
  proto.putMany = function (this: HistoryStore, ...args: Parameters<typeof putMany>) {
    print('phase history');
    return putMany.apply(this, args);
  };
  proto.editMany = function (this: HistoryStore, ...args: Parameters<typeof editMany>) {
    print('phase history');
    return editMany.apply(this, args);
  };
}

/**
 * The gallery writes thumbnails (WebP bytes) and sidecars (JSON text) with FileHandle.writeFile
 * (atomic-file.ts); the shared prototype is reached through any open handle.
 */
async function markFileWrites(): Promise<void> {
  const handle = await open(process.execPath, 'r');
  const proto = Object.getPrototypeOf(handle) as FileHandle;
  await handle.close();
  const writeFile = proto.writeFile;
  proto.writeFile = function (this: FileHandle, ...args: Parameters<typeof writeFile>) {
    const [data] = args;
    if (typeof data === 'string') print('phase sidecar');
    else if (data instanceof Uint8Array && Buffer.from(data.subarray(8, 12)).toString() === 'WEBP')
      print('phase thumbnail');
    return writeFile.apply(this, args);
  };
}

function waitForGo(): Promise<void> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() !== 'go') return;
      lines.close();
      resolve();
    });
  });
}

async function submitEach(
  core: PictorCore,
  serviceUrl: string,
  tasks: readonly number[],
  gapMs: number,
) {
  for (const task of tasks) {
    await core.engine.submit({ prompt: promptOf(task), size: IMAGE_SIZE }, targetAt(serviceUrl));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

/**
 * Resolves once nothing but polls is left for this run: every submit answered, every image
 * fetched, and every task still processing polled since `since` (a task the service finished
 * between runs is found so only by its first poll). The service finishes tasks only between
 * runs, so from then on the run only polls: a phase that has not come will not come.
 */
function whenQuiet(core: PictorCore, since: number): Promise<void> {
  const onlyPolls = (stored: TaskRecord): boolean => {
    const record = core.engine.get(stored.localId) ?? stored;
    const live = core.engine.live(record.localId);
    if (record.status !== 'processing' || record.hold !== null) return isSettled(record, live);
    return (record.lastPolledAt ?? 0) >= since && live.downloads === 0;
  };
  const quiet = (): boolean => core.history.unfinished().every(onlyPolls);
  return new Promise((resolve) => {
    if (quiet()) return resolve();
    const subscription = core.engine.onDidUpdate(() => {
      if (!quiet()) return;
      subscription.dispose();
      resolve();
    });
  });
}

/**
 * Resumes everything, submits `tasks` (those no run stored: a kill cut their submit before it
 * returned, so the user never had them), waits until no task needs more, closes cleanly.
 */
async function finish(core: PictorCore, serviceUrl: string, tasks: readonly number[]) {
  core.engine.start({ resume: true });
  await submitEach(core, serviceUrl, tasks, 0);
  const ids = core.history.unfinished().map((record) => record.localId);
  const settled = await core.engine.whenSettled(ids);
  await core.close();
  print(`done ${JSON.stringify({ resumed: ids.length, settled: settled.length })}`);
  // Keep-alive sockets and stdin would hold the process open; the work is done and on disk.
  process.exit(0);
}

async function main(): Promise<void> {
  const [dataDir, galleryDir, serviceUrl, mode, list = '', gap = '60'] = process.argv.slice(2);
  if (!dataDir || !galleryDir || !serviceUrl || (mode !== 'run' && mode !== 'finish'))
    throw new Error(
      'usage: core-kill-worker.ts <dataDir> <galleryDir> <serviceUrl> run|finish [tasks]',
    );
  markHistoryWrites();
  await markFileWrites();
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir,
    fetch: markedFetch,
    imageFetch: markedImageFetch,
    credentials: new StaticCredentials(serviceUrl, DEMO_KEY),
    clock: systemClock,
    // Far past an answer on a loaded machine (seconds): a submit timed out is submit_unknown, and
    // those only thin the work the kills aim at.
    requestTimeoutMs: 30_000,
    engine: { pollIntervalMs: 250, maxBackoffMs: 1_000 },
  });
  print('ready');
  await waitForGo();
  const tasks = list === '' ? [] : list.split(',').map(Number);
  if (mode === 'finish') return finish(core, serviceUrl, tasks);
  // Killed, never closed: keep the process alive when the engine has nothing left to wait for.
  setInterval(() => undefined, 1 << 30);
  const since = Date.now();
  core.engine.start({ resume: true });
  await submitEach(core, serviceUrl, tasks, Number(gap));
  await whenQuiet(core, since);
  print('quiet');
  await core.engine.whenSettled(core.history.unfinished().map((record) => record.localId));
  print('settled');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
