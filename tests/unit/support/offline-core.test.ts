/**
 * tests/support/offline-core.ts: the core a test opens is closed, and its folder removed, when
 * that test ends (each `it` below looks at what the one before it left), also when the test closed
 * it itself; it starts on the shared clock and talks to nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SmartRules } from '../../../shared/domain/smart-board';
import {
  OFFLINE_START,
  offlineCore,
  offlineDir,
  type OfflineCore,
} from '../../support/offline-core';

/** The core the test before opened. */
let before: OfflineCore | undefined;
let library = '';

/** Whether `core`'s history is closed (its reads throw). */
function closed(core: OfflineCore): boolean {
  try {
    core.history.count({});
    return false;
  } catch {
    return true;
  }
}

describe('offlineCore', () => {
  it('opens a core over a new library, on a manual clock at OFFLINE_START', async () => {
    before = await offlineCore();
    expect(before.history.count({})).toBe(0);
    const rules: SmartRules = { match: 'all', items: [{ kind: 'rating', op: '>=', value: 4 }] };
    expect(before.smartBoards.create('Best', rules).createdAt).toBe(OFFLINE_START);
    expect(existsSync(join(before.dir, 'data'))).toBe(true);
  });

  it('closed it and removed its folder when that test ended', () => {
    expect(closed(before!)).toBe(true);
    expect(existsSync(before!.dir)).toBe(false);
  });

  it('may be closed by the test itself, the close then made once', async () => {
    library = await offlineDir();
    before = await offlineCore({ dir: library });
    await before.close();
    expect(closed(before)).toBe(true);
    // Opened again in the same library, as a test that reopens does.
    const again = await offlineCore({ dir: library });
    expect(again.dir).toBe(library);
    before = again;
  });

  it('closed the test’s other cores and removed the folder it named', () => {
    expect(closed(before!)).toBe(true);
    expect(existsSync(library)).toBe(false);
  });
});
