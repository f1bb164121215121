/**
 * The stall watchdog (tests/support/stall-watchdog.ts) in a child process of its own: a thread
 * that spins without a turn of its event loop is ended, and stderr names the test it was in; a
 * thread that stays busy but turns is left alone to its end.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const WATCHDOG = fileURLToPath(new URL('../../support/stall-watchdog.ts', import.meta.url));

async function run(body: string) {
  const script = `
    const { startStallWatchdog } = await import(${JSON.stringify(WATCHDOG)});
    const name = startStallWatchdog(1_500);
    name('tests/x.test.ts > the spinning test');
    ${body}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stderr };
}

describe('the stall watchdog', () => {
  it('ends a process whose event loop stops turning, naming the test it was in', async () => {
    // Spins for up to two minutes; the watchdog ends it after 1.5 s without a beat.
    const done = await run('const end = Date.now() + 120_000; while (Date.now() < end) {}');
    expect(done.signal).toBe('SIGKILL');
    expect(done.stderr).toContain(
      'stall-watchdog: the event loop of tests/x.test.ts > the spinning test has not turned',
    );
  }, 60_000);

  it('leaves a thread alone that stands still without spinning, as a starved one does', async () => {
    // Blocked for four seconds without a turn and without CPU: a thread a loaded machine gives
    // no core to looks the same from outside. Past 1.5 s of wall time, far under 1.5 s of CPU.
    const done = await run(
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4_000); name("done");',
    );
    expect(done.stderr).not.toContain('stall-watchdog');
    expect(done, done.stderr).toMatchObject({ code: 0, signal: null });
  }, 60_000);

  it('leaves a process alone whose loop turns, however long it works', async () => {
    // Four seconds of work in slices, each a turn of the loop: past the watchdog's 1.5 s.
    const done = await run(`
      const end = Date.now() + 4_000;
      while (Date.now() < end) {
        const slice = Date.now() + 50;
        while (Date.now() < slice) {}
        await new Promise((resolve) => setImmediate(resolve));
      }
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    `);
    expect(done.stderr).not.toContain('stall-watchdog');
    expect(done, done.stderr).toMatchObject({ code: 0, signal: null });
  }, 60_000);
});
