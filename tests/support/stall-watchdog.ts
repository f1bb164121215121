/**
 * A watchdog for a test process whose event loop stops turning. Vitest ends a test at its time
 * limit with a timer, which a synchronous loop never lets run: one test drawing values for ever
 * (a generator whose filter nothing passes) held a CI run to its 75-minute limit, one worker
 * spinning and the other running every file alone. The watchdog lives in a thread of its own
 * and reads a counter the watched thread raises every second (with the timers it had before any
 * test could fake them; its own test beats faster, to judge in less CPU); when the counter
 * stands still for `stallMs` of the process's CPU time (or ten times that of wall time, for a
 * thread blocked without spinning), it writes which test was running straight to stderr (the
 * watched thread cannot print) and kills the process, so the run fails that file by name within
 * minutes and goes on.
 *
 * CPU time, not wall time: a long synchronous step (a TypeScript program of the whole project,
 * 20 s on a quiet machine) gets a small share of a core on a loaded one, and ran past 240 s of
 * wall time there, so the watchdog killed a test that was working. A loop that never ends uses
 * CPU whatever the load, and the process's CPU time (every thread's) grows at least as fast as
 * the spinning thread's own.
 */
import { setInterval as nodeSetInterval } from 'node:timers';
import { Worker } from 'node:worker_threads';

/** What the watched thread shares with its watchdog. */
interface Watch {
  readonly beat: Int32Array;
  readonly name: Uint8Array;
}

const NAME_BYTES = 2_048;

/**
 * The watchdog's thread, run from this text with nothing of the test's; it reads Node's modules
 * through process.getBuiltinModule, which a script and an ES module both have (a worker started
 * from text is one or the other as its process's --input-type says).
 */
const WATCHDOG_SOURCE = `
const { workerData } = process.getBuiltinModule('node:worker_threads');
const { writeSync } = process.getBuiltinModule('node:fs');
const beat = new Int32Array(workerData.beat);
const name = new Uint8Array(workerData.name);
const cpuMs = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
let last = Atomics.load(beat, 0);
let since = { wall: Date.now(), cpu: cpuMs() };
setInterval(() => {
  const now = Atomics.load(beat, 0);
  if (now !== last) { last = now; since = { wall: Date.now(), cpu: cpuMs() }; return; }
  const cpu = cpuMs() - since.cpu;
  const wall = Date.now() - since.wall;
  if (cpu < workerData.stallMs && wall < 10 * workerData.stallMs) return;
  const length = Atomics.load(beat, 1);
  const test = Buffer.from(name.subarray(0, length)).toString('utf8') || 'a test file';
  writeSync(2, '\\nstall-watchdog: the event loop of ' + test + ' has not turned for ' +
    Math.round(wall / 1000) + ' s (' + Math.round(cpu / 1000) + ' s of CPU; a synchronous loop?); ' +
    'this test process is ended so the run goes on.\\n');
  process.kill(process.pid, 'SIGKILL');
}, workerData.beatMs);
`;

/**
 * Starts a watchdog for the calling thread; `stallMs` of CPU time without a beat ends the process.
 * The thread beats, and the watchdog looks, every `beatMs` (far under `stallMs`).
 * @returns a function naming the test now running (what the watchdog prints)
 */
export function startStallWatchdog(stallMs: number, beatMs = 1_000): (test: string) => void {
  const beatBuffer = new SharedArrayBuffer(8);
  const nameBuffer = new SharedArrayBuffer(NAME_BYTES);
  const watch: Watch = { beat: new Int32Array(beatBuffer), name: new Uint8Array(nameBuffer) };
  const worker = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { beat: beatBuffer, name: nameBuffer, stallMs, beatMs },
  });
  worker.unref();
  // Node's own timer (a page's DOM has its own setInterval, and a test may fake the global one).
  nodeSetInterval(() => Atomics.add(watch.beat, 0, 1), beatMs).unref();
  const encoder = new TextEncoder();
  return (test) => {
    const bytes = encoder.encode(test).subarray(0, NAME_BYTES);
    watch.name.set(bytes);
    Atomics.store(watch.beat, 1, bytes.length);
  };
}
