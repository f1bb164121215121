import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, HistoryError } from '../../../../electron/core/history/history-store';
import { tempDir } from './history-fixtures';

let temp: ReturnType<typeof tempDir>;
let lockFile: string;
beforeEach(() => {
  temp = tempDir();
  lockFile = join(temp.dir, 'pictor.lock');
});
afterEach(() => temp.remove());

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (pid === undefined) throw new Error('no child pid');
  return pid;
}

describe('acquireDataDirLock', () => {
  it('writes its pid, refuses a second acquire, and frees the folder on release', () => {
    const lock = acquireDataDirLock(temp.dir);
    const content = JSON.parse(readFileSync(lockFile, 'utf8')) as {
      pid: number;
      startedAt: number;
    };
    expect(content.pid).toBe(process.pid);
    expect(typeof content.startedAt).toBe('number');
    expect(() => acquireDataDirLock(temp.dir)).toThrow(HistoryError);
    expect(() => acquireDataDirLock(temp.dir)).toThrow(
      `Another Pictor process (pid ${process.pid}) is using ${temp.dir}`,
    );
    lock.release();
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
    acquireDataDirLock(temp.dir).release();
  });

  it('refuses while another live process holds the lock', () => {
    writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, startedAt: Date.now() }));
    expect(() => acquireDataDirLock(temp.dir)).toThrow(`(pid ${process.ppid})`);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes over a stale lock whose process is gone', () => {
    writeFileSync(lockFile, JSON.stringify({ pid: deadPid(), startedAt: 1 }));
    const lock = acquireDataDirLock(temp.dir);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock that names this pid from an earlier run, or that is unreadable', () => {
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, startedAt: 1 }));
    acquireDataDirLock(temp.dir).release();
    writeFileSync(lockFile, '');
    acquireDataDirLock(temp.dir).release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('does not remove a lock another process took over after this one', () => {
    const lock = acquireDataDirLock(temp.dir);
    const other = JSON.stringify({ pid: process.ppid, startedAt: Date.now() });
    writeFileSync(lockFile, other);
    lock.release();
    expect(readFileSync(lockFile, 'utf8')).toBe(other);
  });

  it('explains a folder it cannot write to', () => {
    expect(() => acquireDataDirLock(join(temp.dir, 'missing'))).toThrow(
      /could not create its lock file/,
    );
  });
});
