/**
 * The stall watchdog (tests/support/stall-watchdog.ts) in a child process of its own: a thread
 * that spins without a turn of its event loop is ended, and stderr names the test it was in; a
 * thread that stays busy but turns is left alone to its end. The three children run side by side
 * (each one's verdict is its own process's: its event loop, its CPU time), started as plain
 * `node`, which loads the watchdog's TypeScript itself (its types are only erased), where
 * `--import tsx` took 0.3 s of CPU and a second of wall time more for each. Their watchdogs beat
 * and look every 100 ms (the run's every second), so a stall is judged in 0.4 s of CPU: the
 * spinning child spun 1.5–2.5 s and the working one worked 4 s with the run's beat and 1.5 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

const WATCHDOG = fileURLToPath(new URL('../../support/stall-watchdog.ts', import.meta.url));

interface Done {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** How often the children's threads beat and their watchdogs look. */
const BEAT_MS = 100;
/** CPU time without a beat that ends a child (its wall time: ten times that). */
const STALL_MS = 400;

async function run(body: string, stallMs = STALL_MS): Promise<Done> {
  const script = `
    const { startStallWatchdog } = await import(${JSON.stringify(WATCHDOG)});
    const cpuMs = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
    const name = startStallWatchdog(${String(stallMs)}, ${String(BEAT_MS)});
    name('tests/x.test.ts > the spinning test');
    ${body}
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stderr };
}

/** The three children, started together before the tests that read them. */
let spinning: Promise<Done>;
let blocked: Promise<Done>;
let turning: Promise<Done>;

beforeAll(() => {
  // Spins for up to two minutes; the watchdog ends it after 0.4 s of CPU without a beat.
  spinning = run('const end = Date.now() + 120_000; while (Date.now() < end) {}');
  // Blocked for two seconds without a turn and without CPU: a thread a loaded machine gives
  // no core to looks the same from outside. Past 1.5 s of wall time, far under 1.5 s of CPU
  // (and far under the 15 s of wall time without a beat that end a blocked thread).
  blocked = run(
    'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000); name("done");',
    1_500,
  );
  // A second of CPU (not of wall time: a loaded machine's share) in slices, each a turn of the
  // loop: 2.5 times the watchdog's 0.4 s, then idle while it looks twice more.
  turning = run(`
    const end = cpuMs() + 1_000;
    while (cpuMs() < end) {
      const slice = Date.now() + 50;
      while (Date.now() < slice) {}
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, ${String(2 * BEAT_MS + 10)}));
  `);
});

describe('the stall watchdog', () => {
  it('ends a process whose event loop stops turning, naming the test it was in', async () => {
    const done = await spinning;
    expect(done.signal).toBe('SIGKILL');
    expect(done.stderr).toContain(
      'stall-watchdog: the event loop of tests/x.test.ts > the spinning test has not turned',
    );
  }, 60_000);

  it('leaves a thread alone that stands still without spinning, as a starved one does', async () => {
    const done = await blocked;
    expect(done.stderr).not.toContain('stall-watchdog');
    expect(done, done.stderr).toMatchObject({ code: 0, signal: null });
  }, 60_000);

  it('leaves a process alone whose loop turns, however long it works', async () => {
    const done = await turning;
    expect(done.stderr).not.toContain('stall-watchdog');
    expect(done, done.stderr).toMatchObject({ code: 0, signal: null });
  }, 60_000);
});
