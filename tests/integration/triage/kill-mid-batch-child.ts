/**
 * A process that rates every image of its library (the core's triage actions, as the window's
 * keys do, written in the history worker) and, with `kill`, is killed (SIGKILL, by itself) inside
 * the batch's write: once the worker has written half of the tasks in its open transaction,
 * before the commit (the worker's test gate holds it there). Used by kill-mid-batch.test.ts.
 */
import { join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import { triageInWorker } from '../../../electron/core/history';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { TriageActions } from '../../../electron/core/triage';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';

const [dir = '', mode = 'finish'] = process.argv.slice(2);
const core = await openPictorCore({
  imageEngine: testImageEngine,
  dataDir: join(dir, 'data'),
  galleryDir: join(dir, 'gallery'),
  fetch,
  credentials: new StaticCredentials('http://127.0.0.1:9', null),
  clock: systemClock,
});
// Cell 0: the worker may go on (not 0); cell 1: it is half-way through its transaction.
const gate = new SharedArrayBuffer(8);
const cells = new Int32Array(gate);
if (mode !== 'kill') Atomics.store(cells, 0, 1);
const port = new HistoryPort(join(dir, 'data', 'history.sqlite'), { gate });
const triage = new TriageActions({
  engine: core.engine,
  triage: core.history.triage,
  now: () => systemClock.now(),
  writes: triageInWorker(core.history, port),
});
if (mode === 'kill') {
  // The worker says it is half-way without a notify: looked at on a timer.
  const look = setInterval(() => {
    if (Atomics.load(cells, 1) === 1) process.kill(process.pid, 'SIGKILL');
  }, 2);
  look.unref();
}
const ids = core.history.taskIds({}, Number.MAX_SAFE_INTEGER);
await triage.apply(
  ids.map((localId) => ({ localId, index: 0 })),
  { kind: 'rating', rating: 5 },
);
process.stdout.write('not killed\n');
await port.dispose();
await core.close();
