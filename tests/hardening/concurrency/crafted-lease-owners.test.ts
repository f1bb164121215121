/**
 * Lease owners as another process wrote them in the shared history (process-owner.ts
 * ownerNameState), crafted: a name of any length, a start of more digits than any kernel counts.
 * A name longer than any Pictor writes is no owner: its lease is waited out, never taken at once
 * as a dead process's, and judging it costs nothing however long it is (the app judges it every
 * few moments for each task waiting on it; split whole, 16 MB of colons cost 240 ms and 270 MB
 * each time). A start past what a name can say is no start: the name is judged by its pid, as an
 * older Pictor's (a live pid waits). lease-owner.test.ts has the crafted pids (never signalled).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ownerNameState, THIS_HOST } from '../../../electron/core/fs/process-owner';

/** A pid no process has now: a child that has ended and been waited for. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

/** The CPU milliseconds `run` takes. */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}

describe('a crafted lease owner', () => {
  it('longer than any Pictor writes is no owner, even of a dead pid', () => {
    const dead = deadPid();
    expect(ownerNameState(`${THIS_HOST}:${String(dead)}:x`)).toBe('gone');
    expect(ownerNameState(`${THIS_HOST}:${String(dead)}:${'x'.repeat(2_000)}`)).toBe('unknown');
    expect(ownerNameState(`${'h'.repeat(2_000)}:${THIS_HOST}:${String(dead)}:x`)).toBe('unknown');
  });

  it('of 16 MB of colons is judged without reading it', () => {
    const name = `${THIS_HOST}:${String(deadPid())}:${':'.repeat(16_000_000)}`;
    // Three looks, as a waiting task's timers make them: a whole split of each is 700 ms here.
    const spent = cpuMs(() => {
      for (let look = 0; look < 3; look += 1) expect(ownerNameState(name)).toBe('unknown');
    });
    expect(spent).toBeLessThan(100);
  });

  it.runIf(process.platform === 'linux')(
    'naming a start of more digits than a kernel counts is judged by its pid',
    () => {
      const overflow = `s${'9'.repeat(25)}.`;
      expect(ownerNameState(`${THIS_HOST}:${String(process.pid)}:${overflow}x`)).toBe('alive');
      expect(ownerNameState(`${THIS_HOST}:${String(deadPid())}:${overflow}x`)).toBe('gone');
      // Within what a name can say, another start than the live process's is a pid given again.
      expect(ownerNameState(`${THIS_HOST}:${String(process.pid)}:s${'9'.repeat(20)}.x`)).toBe(
        'gone',
      );
    },
  );
});
