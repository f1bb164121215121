/**
 * A hold lives as long as its process has the library open, however long that is: an agent's
 * `pictor mcp` server may keep it open for days, and a hold file past a leftover's age (a day
 * since its last change) counts for nothing and is removed by the next process that looks. So a
 * live hold touches its file every hour. Real files; Date and the interval on vitest's manual
 * clock.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldForChanges, holdLibraryOpen } from '../../../../electron/core/fs';
import { HOLD_REFRESH_MS, HOLDS_DIR } from '../../../../electron/core/fs/library-holds';
import { isLeftoverTemp } from '../../../../electron/core/fs/temp-names';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let data: string;
beforeEach(async () => {
  data = await tempFolder('library-holds');
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await removeFolder(data);
});

/** The one hold file's last change, once it is at least `sinceMs` (the touch is real I/O). */
async function touchedSince(sinceMs: number): Promise<number> {
  const [name] = await readdir(join(data, HOLDS_DIR));
  const path = join(data, HOLDS_DIR, String(name));
  // A touch that never comes fails here after a bounded number of event-loop turns.
  for (let turn = 0; turn < 10_000; turn += 1) {
    const { mtimeMs } = await stat(path);
    if (mtimeMs >= sinceMs) return mtimeMs;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the hold was never touched');
}

describe('a live hold', () => {
  it('is no leftover to another process after three days open: touched every hour', async () => {
    const hold = await holdLibraryOpen(data);
    const [name] = await readdir(join(data, HOLDS_DIR));
    for (let hour = 1; hour <= 72; hour += 1) {
      await vi.advanceTimersByTimeAsync(HOLD_REFRESH_MS);
      const changed = await touchedSince(Date.now() - 1000);
      // What another process's look (library-holds.ts othersHold) judges the file by.
      expect(isLeftoverTemp(String(name), changed, Date.now())).toBe(false);
    }
    await hold();
    // This process's own move never counts its own hold; the hold gone, nothing is left.
    await expect(heldForChanges(data)(() => Promise.resolve('moved'))).resolves.toBe('moved');
    expect(await readdir(join(data, HOLDS_DIR))).toEqual([]);
  });

  it('stops touching once it ends, and leaves no file', async () => {
    const hold = await holdLibraryOpen(data);
    expect(vi.getTimerCount()).toBe(1);
    await hold();
    expect(vi.getTimerCount()).toBe(0);
    expect(await readdir(join(data, HOLDS_DIR))).toEqual([]);
  });
});
