/**
 * Child process of lease-takeover.test.ts: the real core on a shared data folder, as the app runs
 * it (resumes every task, takes over the ones other processes leave); a killed process's tasks
 * are taken over at once because its pid is gone, never by a lease's wall-time end (a live but
 * descheduled worker keeps its tasks, lease-shared.ts). Every request carries `x-worker: <pid>`
 * so the test's proxy can tell the processes apart.
 *
 * Prints (straight to fd 1) `ready`, then `submitted <n>` once task n is in the history. In
 * `finish` mode it prints `progress <changes>` while its tasks change (at most four times a
 * second), and `done` after every unfinished task settled and the core closed.
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node lease-worker.js <dataDir> <serviceUrl> run|finish [<first>,<count>]
 */
import { join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore } from '../../../electron/core/pictor-core';
import { StaticCredentials } from '../../fakes/static-credentials';
import { printLine as print } from '../support/print-line';
import { LEASE_MS, POLL_MS, promptOf } from './lease-shared';
import { testImageEngine } from '../../support/image-engine';
import { targetAt } from '../../support/submit-target';

async function main(): Promise<void> {
  const [dataDir, serviceUrl, mode, batch = ''] = process.argv.slice(2);
  if (!dataDir || !serviceUrl || (mode !== 'run' && mode !== 'finish'))
    throw new Error('usage: lease-worker.ts <dataDir> <serviceUrl> run|finish [<first>,<count>]');
  const worker = String(process.pid);
  const core = await openPictorCore({
    imageEngine: testImageEngine,
    dataDir,
    galleryDir: join(dataDir, 'gallery'),
    fetch: (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('x-worker', worker);
      return fetch(url, { ...init, headers });
    },
    credentials: new StaticCredentials(serviceUrl, 'demo'),
    clock: systemClock,
    requestTimeoutMs: 2_000,
    engine: { pollIntervalMs: POLL_MS, maxBackoffMs: 500, leaseMs: LEASE_MS },
  });
  core.engine.start({ resume: true });
  print('ready');
  if (mode === 'finish') {
    // Says that its work moves (a task changed since the last line), for the test to wait on
    // progress rather than on a deadline for all of it.
    let changes = 0;
    let said = 0;
    core.engine.onDidUpdate(() => (changes += 1));
    setInterval(() => {
      if (changes === said) return;
      said = changes;
      print(`progress ${changes}`);
    }, 250);
    // Tasks another live process holds are waited for; the rest are worked on here.
    for (;;) {
      const ids = core.history.unfinished().map((record) => record.localId);
      const settled = await core.engine.whenSettled(ids);
      if (settled.every((record) => record.status !== 'processing' || record.hold !== null)) break;
    }
    await core.close();
    print('done');
    process.exit(0);
  }
  // Killed, never closed.
  setInterval(() => undefined, 1 << 30);
  const [first, count] = batch === '' ? [0, 0] : batch.split(',').map(Number);
  for (let n = first ?? 0; n < (first ?? 0) + (count ?? 0); n += 1) {
    await core.engine.submit({ prompt: promptOf(n), size: '256x256' }, targetAt(serviceUrl));
    print(`submitted ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
