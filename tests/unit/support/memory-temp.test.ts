/**
 * The temporary folders' parent for tests that do not test the disk (tests/support/memory-temp.ts):
 * a writable tmpfs with room, else (or when the run sets PICTOR_FAULTS_ON_DISK=1) the OS's
 * temporary folder; and the renderer's wired mains keep their history there.
 */
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryTempParent } from '../../support/memory-temp';
import { startWiredApi } from '../../support/wired-api';

const TMPFS = 0x01021994;
const SHM = '/dev/shm';

function isTmpfs(folder: string): boolean {
  try {
    return statfsSync(folder).type === TMPFS;
  } catch {
    return false;
  }
}

describe('memoryTempParent', () => {
  it('takes the OS’s temporary folder when no folder named is there', () => {
    expect(memoryTempParent([join(tmpdir(), 'no-such-folder-anywhere')], 0)).toBe(tmpdir());
  });

  it.runIf(!isTmpfs(process.cwd()))('passes over a folder on a disk', () => {
    expect(memoryTempParent([process.cwd()], 0)).toBe(tmpdir());
  });

  it.runIf(isTmpfs(SHM))('takes a tmpfs with room, the first of those named that is one', () => {
    expect(memoryTempParent([join(tmpdir(), 'no-such-folder-anywhere'), SHM], 0)).toBe(SHM);
  });

  it.runIf(isTmpfs(SHM))('passes over a tmpfs without the room asked for', () => {
    const { bavail, bsize } = statfsSync(SHM);
    expect(memoryTempParent([SHM], bavail * bsize + 1)).toBe(tmpdir());
  });

  it.runIf(isTmpfs(SHM))('takes the OS’s temporary folder when the run asks for the disk', () => {
    expect(memoryTempParent([SHM], 0, { PICTOR_FAULTS_ON_DISK: '1' })).toBe(tmpdir());
    expect(memoryTempParent([SHM], 0, { PICTOR_FAULTS_ON_DISK: '0' })).toBe(SHM);
  });
});

describe('the renderer’s wired main', () => {
  it('keeps its history where memoryTempParent says, its gallery in the temporary folder', async () => {
    const main = await startWiredApi();
    try {
      expect(dirname(main.runtime.dataDir)).toBe(memoryTempParent());
      expect(isTmpfs(main.runtime.dataDir)).toBe(memoryTempParent() === SHM);
      expect(dirname(main.dir)).toBe(tmpdir());
      expect(main.runtime.galleryDir().startsWith(main.dir)).toBe(true);
    } finally {
      await main.close();
    }
  });
});
