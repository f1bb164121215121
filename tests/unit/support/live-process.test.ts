/**
 * tests/support/live-process.ts: a live child for a test to name as an owner, ended when the test
 * ends without the test asking. The tests run in order: the second looks at what the first left.
 */
import { describe, expect, it } from 'vitest';
import { liveProcess, type LiveProcess } from '../../support/live-process';

describe('liveProcess', () => {
  let left: LiveProcess | undefined;

  it('is running when it resolves, its pid known', async () => {
    left = await liveProcess();
    expect(left.pid).toBeGreaterThan(0);
    expect(process.kill(left.pid, 0)).toBe(true);
    expect(left.exitCode).toBeNull();
    expect(left.signalCode).toBeNull();
  });

  it('was killed and waited for when the test that started it ended', () => {
    expect(left?.signalCode).toBe('SIGKILL');
    expect(left?.exitCode).toBeNull();
  });
});
