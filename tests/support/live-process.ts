/**
 * A live process of this machine for a test to name (a lease's or a hold's owner that is still at
 * work): a Node child that does nothing until it is killed. The hardening tests of owners each
 * spawned their own and killed it in an afterEach of their own, through a variable a test could
 * leave unset; here the spawning registers the kill, through the child's own handle (its pid).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { onTestFinished } from 'vitest';

/** A started child: its pid is known. */
export type LiveProcess = ChildProcess & { readonly pid: number };

/**
 * A new Node child, running (spawned, its pid known) when this resolves, killed (SIGKILL) and
 * waited for when the running test ends, if the test did not end it first. Call it inside a test.
 */
export async function liveProcess(): Promise<LiveProcess> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], {
    stdio: 'ignore',
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  onTestFinished(async () => {
    // A child that never started has nothing to end. One the test ended is not signalled again:
    // Node signals through the child's own handle, gone once it was waited for, never a pid that
    // may be another process's by now.
    if (child.pid === undefined) return;
    child.kill('SIGKILL');
    await closed;
  });
  await once(child, 'spawn');
  return child as LiveProcess;
}
