/**
 * The app's real main for an integration test of its channels: a real AppRuntime on a temporary
 * folder (tests/support/app-runtime.ts), the e2e harness's OS stand-ins and the app's own
 * `wireApp`, called through `runRequest` as the page calls it (tests/support/ipc.ts). Each test
 * file of `tests/integration/ipc` built this by hand; the options say what a file changes: the
 * runtime's options (given the OS stand-ins, whose system trash the core may take), what the
 * stand-ins read, the wiring's optional parts and where events go (default: kept in `emitted`).
 * Closed in the app's order: the wiring, the runtime (the quit's own close), then every answer
 * still in flight settled, then the folders removed: once the runtime's close has resolved
 * nothing of it writes there (its closing gate, electron/core/base/closing-gate.ts).
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppRuntime, AppRuntimeOptions } from '../../electron/app/app-runtime';
import { HISTORY_FILE } from '../../electron/core/pictor-core';
import { wireApp, type AppWiring, type AppWiringOptions } from '../../electron/ipc/wire-app';
import type { EventChannel } from '../../shared/ipc/contract';
import { createOsStandIns, type OsStandIns } from '../e2e/harness/os-stand-ins';
import { startTestRuntime } from './app-runtime';
import { ipcCaller, type IpcCall } from './ipc';
import { copyMigratedHistory } from './migrated-history';

/** What a test's own cleanup list takes (run in reverse order after each test). */
export type Cleanups = (() => Promise<unknown>)[];

export interface WiredIpcOptions {
  /** The temporary folder's name prefix (say which test file made it). */
  readonly prefix: string;
  /**
   * The folder the history's data folder is made in, apart from the temporary folder (else
   * `data/` inside it): a folder in memory for tests that do not test the disk (memory-temp.ts).
   */
  readonly dataParent?: string;
  /** A history file (a run's cached large history: run-cache.ts) the core opens as its own. */
  readonly history?: string;
  /** The runtime's options over the test defaults, given the OS stand-ins. */
  readonly runtime?: (os: OsStandIns, dir: string) => Partial<AppRuntimeOptions>;
  /** What the OS stand-ins read at call time (a test may change it before a call). */
  readonly env?: Record<string, string | undefined> | (() => Record<string, string | undefined>);
  /**
   * The wiring's optional parts (observeCore, capPrompts, inputDialogs…) and its emit; called
   * with the started runtime before the wiring is built.
   */
  readonly wiring?: (
    os: OsStandIns,
    runtime: AppRuntime,
  ) => Partial<Omit<AppWiringOptions, 'runtime'>>;
}

export interface WiredIpc {
  readonly dir: string;
  readonly runtime: AppRuntime;
  readonly os: OsStandIns;
  readonly wiring: AppWiring;
  /** A channel called as the page calls it. */
  readonly request: IpcCall;
  /** Every event main sent, in order (unless the options gave their own emit). */
  readonly emitted: [EventChannel, unknown][];
}

/** A folder of the wired main's removed, once nothing of it writes there. */
const removeFolder = (path: string) => rm(path, { recursive: true, force: true });

/** `call`, each answer kept in `inFlight` until it has settled. */
function tracked(call: IpcCall, inFlight: Set<Promise<unknown>>): IpcCall {
  return (channel, raw) => {
    const answer = call(channel, raw);
    inFlight.add(answer);
    const done = (): void => void inFlight.delete(answer);
    answer.then(done, done);
    return answer;
  };
}

/** The wired main, closed and removed by `cleanups`. */
export async function wiredIpc(cleanups: Cleanups, options: WiredIpcOptions): Promise<WiredIpc> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  cleanups.push(() => removeFolder(dir));
  const dataDir = options.dataParent
    ? await mkdtemp(join(options.dataParent, `${options.prefix}data-`))
    : join(dir, 'data');
  if (options.dataParent) cleanups.push(() => removeFolder(dataDir));
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const history = join(dataDir, HISTORY_FILE);
  if (options.history) await copyFile(options.history, history);
  // An empty history at today's schema, copied from one migrated once (migrated-history.ts):
  // each copy is the file the app makes at its first start, without its migrations' cost.
  else copyMigratedHistory(history);
  const env = options.env ?? {};
  const os = createOsStandIns({
    userDataDir: dir,
    // Asked only once the runtime below has started.
    galleryDir: () => runtime.galleryDir(),
    env: typeof env === 'function' ? env : () => env,
  });
  const runtime = await startTestRuntime(dir, { dataDir, ...options.runtime?.(os, dir) });
  // After the runtime's close, before the folders go: a handler still at work as main closed
  // ends (refused, or its write done within the close) before its folders are removed.
  const inFlight = new Set<Promise<unknown>>();
  cleanups.push(() => Promise.allSettled([...inFlight]));
  cleanups.push(() => runtime.close());
  const emitted: [EventChannel, unknown][] = [];
  const wiring = wireApp({
    runtime,
    shell: os.shell,
    chooseFolder: os.chooseFolder,
    copyText: os.copyText,
    info: () => ({ version: '0.0.0-test', platform: process.platform, online: true }),
    emit: (channel, payload) => void emitted.push([channel, payload]),
    ...options.wiring?.(os, runtime),
  });
  cleanups.push(async () => wiring.dispose());
  const request = tracked(ipcCaller(wiring.handlers), inFlight);
  return { dir, runtime, os, wiring, request, emitted };
}
