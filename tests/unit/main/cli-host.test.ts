/**
 * The installed app run as `pictor <command>`: the real CLI over a real data folder, in the
 * process Electron would start, ending with the CLI's exit code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAsCommandLine } from '../../../electron/cli-host';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function fakeApp() {
  const calls: string[] = [];
  return {
    calls,
    app: {
      exit: (code?: number) => void calls.push(`exit ${code}`),
      dock: { hide: () => void calls.push('dock hidden') },
    },
  };
}

describe('the app as the pictor command', () => {
  it('runs a command on a library with no window and exits with its code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pictor-cli-host-'));
    dirs.push(dir);
    const { app, calls } = fakeApp();
    const out: string[] = [];
    const code = await runAsCommandLine(app, ['list', '--data-dir', dir], {
      env: {},
      stdout: (text) => void out.push(text),
      stderr: (text) => void out.push(text),
    });
    expect(code).toBe(0);
    expect(calls).toEqual(['dock hidden', 'exit 0']);
  });

  it('passes a usage error on as exit code 2, naming itself pictor', async () => {
    const { app, calls } = fakeApp();
    const err: string[] = [];
    const code = await runAsCommandLine(app, ['resume'], {
      env: {},
      stdout: () => undefined,
      stderr: (text) => void err.push(text),
    });
    expect(code).toBe(2);
    expect(calls.at(-1)).toBe('exit 2');
    expect(err.join('')).toContain('Run "pictor help"');
  });
});
