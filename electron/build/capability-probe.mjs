/**
 * What Pictor needs of the Node inside Electron, checked in seconds before a long test run: a
 * history needs node:sqlite with FTS5's trigram tokenizer, and the image and archive work needs
 * worker threads and shared WebAssembly memory. Plain JavaScript (no tsx, no build) so it runs
 * in any of them:
 *
 *   node electron/build/capability-probe.mjs              (this Node)
 *   node electron/build/capability-probe.mjs --electron   (`npm run ci:probe`: the development
 *     Electron binary, or ELECTRON_OVERRIDE_DIST_PATH's, run with ELECTRON_RUN_AS_NODE=1)
 *
 * Prints one line per capability and exits 0, or 1 at the first one missing, with its name. Its
 * arguments are read by ci-args.mjs (an unknown one exits 2). In a dry run (PICTOR_CI_DRY=1,
 * ci-context.ts) with no Electron binary here, `--electron` says so and probes this Node instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ciArgsOrExit } from './ci-args.mjs';

/** How long a worker may take to start and answer before the probe calls it broken. */
export const WORKER_TIMEOUT_MS = 15_000;

/**
 * A trigram FTS5 table in memory: created, filled and searched for a word in the middle of a
 * prompt, which only the trigram tokenizer finds.
 * @param {{ DatabaseSync: new (file: string) => any }} sqlite node:sqlite, or a stand-in
 */
export function probeFts5Trigram(sqlite) {
  const db = new sqlite.DatabaseSync(':memory:');
  try {
    db.exec("CREATE VIRTUAL TABLE probe USING fts5 (prompt, tokenize = 'trigram')");
    db.prepare('INSERT INTO probe (prompt) VALUES (?)').run('A lighthouse at dusk');
    const row = db.prepare('SELECT count(*) AS n FROM probe WHERE probe MATCH ?').get('ghthou');
    if (Number(row?.n) !== 1) throw new Error(`the trigram search found ${String(row?.n)} rows`);
  } finally {
    db.close();
  }
}

/** The worker's code: writes 42 into the shared memory it was given and wakes the main thread. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const cells = new Int32Array(workerData.memory.buffer);
Atomics.store(cells, 0, 42);
Atomics.notify(cells, 0);
parentPort.postMessage('done');
`;

/**
 * A worker thread started, given a shared WebAssembly.Memory, and seen writing into it.
 * @param {{ Worker: typeof import('node:worker_threads').Worker, WebAssembly: typeof WebAssembly }} runtime
 * @returns {Promise<void>}
 */
export function probeWorkerAndSharedMemory(runtime, timeoutMs = WORKER_TIMEOUT_MS) {
  const memory = new runtime.WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
  if (!(memory.buffer instanceof SharedArrayBuffer))
    throw new Error('WebAssembly.Memory({ shared: true }) is not backed by a SharedArrayBuffer');
  return new Promise((resolve, reject) => {
    const worker = new runtime.Worker(WORKER_SOURCE, { eval: true, workerData: { memory } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the worker did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const settle = (error) => {
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.once('error', (error) => settle(error));
    worker.once('exit', (code) => settle(new Error(`the worker exited with code ${code}`)));
    worker.once('message', () => {
      const value = Atomics.load(new Int32Array(memory.buffer), 0);
      settle(value === 42 ? undefined : new Error(`the shared memory holds ${value}, not 42`));
    });
  });
}

/**
 * @typedef {{ name: string, run: () => unknown }} Capability
 * @typedef {{ ok: true, name: string, ms: number } | { ok: false, name: string, reason: string }} Outcome
 */

/**
 * The capabilities, each loaded when it runs so a missing module is that capability's failure.
 * @param {{ loadSqlite?: () => Promise<any>, loadWorkers?: () => Promise<any>, WebAssembly?: typeof WebAssembly }} [runtime]
 * @returns {Capability[]}
 */
export function capabilities(runtime = {}) {
  const loadSqlite = runtime.loadSqlite ?? (() => import('node:sqlite'));
  const loadWorkers = runtime.loadWorkers ?? (() => import('node:worker_threads'));
  const wasm = runtime.WebAssembly ?? globalThis.WebAssembly;
  return [
    {
      name: 'node:sqlite FTS5 trigram table',
      run: async () => probeFts5Trigram(await loadSqlite()),
    },
    {
      name: 'worker thread with a shared WebAssembly.Memory',
      run: async () =>
        probeWorkerAndSharedMemory({ Worker: (await loadWorkers()).Worker, WebAssembly: wasm }),
    },
  ];
}

/**
 * Runs every capability in order and stops at the first that fails.
 * @param {Capability[]} list
 * @param {(line: string) => void} print
 * @returns {Promise<Outcome[]>}
 */
export async function runProbe(list, print) {
  const outcomes = [];
  for (const capability of list) {
    const started = performance.now();
    try {
      await capability.run();
      const ms = Math.round(performance.now() - started);
      print(`capability probe: ${capability.name}: ok (${ms} ms)`);
      outcomes.push({ ok: true, name: capability.name, ms });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      print(`capability probe: FAILED ${capability.name}: ${reason}`);
      outcomes.push({ ok: false, name: capability.name, reason });
      break;
    }
  }
  return outcomes;
}

function startedDirectly() {
  try {
    return realpathSync(process.argv[1] ?? '') === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * The Electron binary `electron .` would start: ELECTRON_OVERRIDE_DIST_PATH's, else the one the
 * electron package downloaded (its path.txt), else null. Read directly: importing the electron
 * package would try a download.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | null}
 */
export function electronBinary(env = process.env) {
  const inDist =
    process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : process.platform === 'win32'
        ? 'electron.exe'
        : 'electron';
  const override = env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override) return existsSync(join(override, inDist)) ? join(override, inDist) : null;
  try {
    const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const binary = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs this file again inside Electron's Node; returns its exit code. */
function runInElectron() {
  const binary = electronBinary();
  if (!binary) {
    console.log(
      'capability probe: FAILED Electron binary: none found (run `npm run ci:electron`, or set ELECTRON_OVERRIDE_DIST_PATH)',
    );
    return 1;
  }
  const result = spawnSync(binary, [fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  if (result.error)
    console.log(`capability probe: FAILED Electron binary: ${result.error.message}`);
  return result.status ?? 1;
}

/** Whether this run is to go into Electron's Node: `--electron`, unless a dry run has no binary. */
function wantsElectron() {
  const { values } = ciArgsOrExit(
    {
      name: 'ci:probe',
      usage: 'node electron/build/capability-probe.mjs [--electron]',
      options: { electron: { type: 'boolean' } },
    },
    process.argv.slice(2),
  );
  if (values.electron !== true || process.versions.electron) return false;
  if (process.env['PICTOR_CI_DRY'] !== '1' || electronBinary()) return true;
  console.log(
    "ci:probe: skipped: Electron's Node (a dry run downloads nothing, and there is no Electron binary here): this Node is probed",
  );
  return false;
}

if (startedDirectly() && wantsElectron()) {
  process.exitCode = runInElectron();
} else if (startedDirectly()) {
  const where = process.versions.electron
    ? `Electron ${process.versions.electron} (Node ${process.versions.node})`
    : `Node ${process.versions.node}`;
  console.log(`capability probe: ${where}, ${process.platform}-${process.arch}`);
  const outcomes = await runProbe(capabilities(), (line) => console.log(line));
  process.exitCode = outcomes.every((outcome) => outcome.ok) ? 0 : 1;
}
