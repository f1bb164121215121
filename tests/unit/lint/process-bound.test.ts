/**
 * The unit and renderer projects run their files in worker threads (vitest.config.ts). A thread
 * cannot change what belongs to its whole process: assigning TZ changes only the thread's copy of
 * process.env (dates keep the old zone), and process.chdir and process.umask throw there. Nor can
 * it count what the whole process holds, such as its open descriptors, while another thread's file
 * opens and closes its own (nor ask whether a descriptor number is still open: the other thread's
 * open may have taken it, nor hand a descriptor it opened to a socket: the thread closes it again
 * when it ends). A file that needs one of them is named `*.process.test.*`, which runs
 * it in a child process of its own; this test finds one that is not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles, repositoryPath } from '../../support/source-files';
// The texts shown to the check, kept out of this file, whose own text would otherwise make
// tests/support/module-isolation.ts run it in a fresh thread (it assigns TZ, it calls chdir).
import samples from './isolation-samples.json';

const THREADED = 'tests/unit';

/**
 * Uses of what a worker thread cannot change for its process, or reads of what the other thread
 * changes under it: the process's whole descriptor table (count only a folder's own descriptors,
 * tests/support/open-descriptors.ts; a whole count failed a fresh clone by one).
 */
const PROCESS_WIDE = [
  /process\.env(?:\.TZ|\[\s*['"`]TZ['"`]\s*\])\s*=(?!=)/,
  /delete\s+process\.env(?:\.TZ|\[\s*['"`]TZ['"`]\s*\])/,
  /process\.(?:chdir|umask|setuid|setgid|seteuid|setegid|setgroups)\s*\(/,
  /\/proc\/self\/fd\b|\/dev\/fd\b/,
  // Whether a descriptor number is open: another thread's open may have taken the number.
  /\bfstat(?:Sync)?\(\s*[A-Za-z_$][\w$.]*\s*[,)]/,
  // A descriptor fs.open gave, handed to a socket: a thread closes it again when it ends (Worker's
  // trackUnmanagedFds), when the number may be another's.
  /\bnew\s+(?:net\.)?Socket\(\s*\{\s*fd\b/,
];

function usesProcessWideState(text: string): boolean {
  return PROCESS_WIDE.some((pattern) => pattern.test(text));
}

/** The test files under `dir`, but this one (whose patterns name what it looks for). */
function testFiles(dir: string): string[] {
  const self = repositoryPath(import.meta.url);
  return repositoryFiles([dir], /\.test\.tsx?$/).filter((file) => file !== self);
}

describe('files that change process-wide state', () => {
  it('recognises each way of changing it, and leaves reads alone', () => {
    for (const text of samples.processWide.recognised) {
      expect(usesProcessWideState(text), text).toBe(true);
    }
    for (const text of samples.processWide.notOnes) {
      expect(usesProcessWideState(text), text).toBe(false);
    }
  });

  it('are named *.process.test.*, so they run in a child process and not in a thread', () => {
    const files = testFiles(THREADED).filter((file) =>
      usesProcessWideState(readFileSync(join(REPO_ROOT, file), 'utf8')),
    );
    // The time-zone test is one: the check finds what it looks for.
    expect(files).toContain('tests/unit/renderer/time-zone.process.test.ts');
    const misnamed = files.filter((file) => !/\.process\.test\.tsx?$/.test(file));
    expect(misnamed).toEqual([]);
  });
});
