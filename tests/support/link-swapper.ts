/**
 * The attacker of the check-then-open race, for real: another thread that swaps a folder for a
 * link to a folder outside, and back, in a tight loop. It runs in a worker thread (its own thread
 * and event loop, blocking file calls), so it races the code under test the way a local process
 * would. It is bounded in swaps and in time; `stop()` ends it and leaves the real folder in place.
 */
import { Worker } from 'node:worker_threads';

/** Plain JavaScript: a worker started from source text is not transformed by vitest. */
const SWAPPER = `
const { renameSync, rmSync, symlinkSync, unlinkSync, lstatSync } = require('node:fs');
const { dirname } = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');
const { folder, outside, maxSwaps, maxMs, dwell, flag } = workerData;
const [linkDwell, realDwell] = dwell;
const control = new Int32Array(flag);
const away = folder + '.swapped-away';
const started = Date.now();
const parent = dirname(folder);
const linger = (n) => { for (let i = 0; i < n; i += 1) lstatSync(parent); };
let swaps = 0;
// Code under test that makes the folder when it finds none may make it (and folders in it) in the
// moment it is away: what it made there is taken away for the link or the real folder, again
// while the code makes it again.
const TAKEN_BY_OTHERS = ['EEXIST', 'ENOTEMPTY', 'EISDIR'];
const into = (put) => {
  for (let tries = 1; ; tries += 1) {
    try {
      return put();
    } catch (error) {
      if (!TAKEN_BY_OTHERS.includes(error.code) || tries === 1000) throw error;
      try {
        rmSync(folder, { recursive: true });
      } catch (again) {
        if (!TAKEN_BY_OTHERS.includes(again.code) && again.code !== 'ENOENT') throw again;
      }
    }
  }
};
Atomics.store(control, 1, 1);
while (Atomics.load(control, 0) === 0 && swaps < maxSwaps && Date.now() - started < maxMs) {
  renameSync(folder, away);
  into(() => symlinkSync(outside, folder, 'dir'));
  linger(linkDwell);
  unlinkSync(folder);
  into(() => renameSync(away, folder));
  linger(realDwell);
  swaps += 1;
}
parentPort.postMessage(swaps);
`;

export interface LinkSwapper {
  /** Resolves once the loop runs (its first swap is under way). */
  readonly started: Promise<void>;
  /** Ends the loop; resolves with the number of swaps made. The real folder is back in place. */
  stop(): Promise<number>;
}

export interface SwapOptions {
  /** The folder swapped: renamed away, a link to `outside` put in its place, then back. */
  readonly folder: string;
  /** Where the link leads: a folder laid out like `folder`, holding the outside files. */
  readonly outside: string;
  readonly maxSwaps?: number;
  readonly maxMs?: number;
  /**
   * `lstat` calls spent as a link, then as the real folder: how long each state lasts against a
   * request's few calls. Default `[2, 2]`.
   */
  readonly dwell?: readonly [link: number, real: number];
}

/** Starts swapping `options.folder` for a link to `options.outside` until stopped or bounded. */
export function startLinkSwapper(options: SwapOptions): LinkSwapper {
  const flag = new SharedArrayBuffer(8);
  const control = new Int32Array(flag);
  const worker = new Worker(SWAPPER, {
    eval: true,
    workerData: {
      folder: options.folder,
      outside: options.outside,
      maxSwaps: options.maxSwaps ?? 200_000,
      maxMs: options.maxMs ?? 20_000,
      dwell: options.dwell ?? [2, 2],
      flag,
    },
  });
  const done = new Promise<number>((resolve, reject) => {
    worker.once('message', (swaps: number) => resolve(swaps));
    worker.once('error', reject);
  });
  const started = (async () => {
    while (Atomics.load(control, 1) === 0) {
      // Wait on the worker's own signal, not a timer: it is set before the first swap.
      await Promise.race([done, new Promise((resolve) => setImmediate(resolve))]);
    }
  })();
  return {
    started,
    stop: async () => {
      Atomics.store(control, 0, 1);
      const swaps = await done;
      await worker.terminate();
      return swaps;
    },
  };
}
