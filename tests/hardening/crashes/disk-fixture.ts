/**
 * Real small disks for disk-full.test.ts: a tmpfs mounted on a test folder (Linux, as root),
 * filled to the last byte, remounted read-only and back. `probeMount` says whether this machine
 * allows it, so the suite can fall back to an injected fault and say why.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../../electron/adapters/system-clock';
import { openPictorCore, type PictorCore } from '../../../electron/core/pictor-core';
import type { DemoService } from '../../../electron/demo-service/types';
import type { Logger } from '../../../electron/ports/logger';
import { StaticCredentials } from '../../fakes/static-credentials';
import { testImageEngine } from '../../support/image-engine';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

function run(command: string, args: readonly string[]): void {
  execFileSync(command, args, { stdio: 'pipe' });
}

/** `{ ok: true }` when a tmpfs can be mounted, remounted read-only and unmounted here. */
export function probeMount(): { ok: true } | { ok: false; reason: string } {
  // Lets the fallback be exercised on a machine that could mount.
  if (process.env['PICTOR_NO_MOUNT'] === '1') return { ok: false, reason: 'PICTOR_NO_MOUNT=1' };
  if (process.platform !== 'linux') return { ok: false, reason: `not Linux (${process.platform})` };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'not running as root' };
  const dir = tempFolderSync('mount-probe');
  try {
    mountTmpfs(dir, 64 * 1024);
    try {
      remount(dir, 'ro');
    } finally {
      unmount(dir);
    }
    return { ok: true };
  } catch (error) {
    const text = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { ok: false, reason: `mount refused: ${text}` };
  } finally {
    removeFolderSync(dir);
  }
}

/** A tmpfs of `bytes` on `dir` (an existing, empty folder). */
export function mountTmpfs(dir: string, bytes: number): void {
  run('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
}

export function remount(dir: string, mode: 'ro' | 'rw'): void {
  run('mount', ['-o', `remount,${mode}`, dir]);
}

/** Unmounts, lazily if something still holds the disk; never throws. */
export function unmount(dir: string): void {
  try {
    run('umount', [dir]);
  } catch {
    try {
      run('umount', ['-l', dir]);
    } catch {
      // Not mounted.
    }
  }
}

/**
 * Writes a filler file until the disk has no byte left (ENOSPC at the smallest write).
 * Returns its path; deleting it gives the space back.
 */
export function fillDisk(dir: string): string {
  const path = join(dir, 'filler.bin');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 8, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Polls `check` until it returns a value (not undefined/false) or the time is up. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The real core against the demo service. Downloads retry quickly and without a limit in this
 * run, so the test sees them resume on their own when the disk comes back.
 */
export function openCoreAt(
  dataDir: string,
  galleryDir: string,
  service: DemoService,
  logger?: Logger,
) {
  return openPictorCore({
    imageEngine: testImageEngine,
    ...(logger ? { logger } : {}),
    dataDir,
    galleryDir,
    fetch: (url, init) => fetch(url, init),
    credentials: new StaticCredentials(service.url, 'demo'),
    clock: systemClock,
    requestTimeoutMs: 5_000,
    engine: { pollIntervalMs: 150, maxBackoffMs: 400, maxDownloadAttempts: 1_000 },
    ...bundledCoreWorkers(),
  }) satisfies Promise<PictorCore>;
}
