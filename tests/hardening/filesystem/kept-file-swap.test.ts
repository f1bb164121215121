/**
 * A kept file (settings.json, a key vault) swapped between its open and its check, as another
 * local user could while the data folder was open to others: right after the open, a link to
 * another file, or a FIFO, is renamed over the name. What is read is what was opened and judged
 * (core/fs/private-files.ts readKeptFileSync: fstat and read on the one descriptor), never what
 * the name leads to by then, and the read does not wait on the FIFO.
 */
import type * as Fs from 'node:fs';
import { constants, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readKeptFileSync } from '../../../electron/core/fs/private-files';
import { fifoMaker, makeFifo } from '../../support/tools';
import { testFolder } from '../../support/per-test';

/** Run once, right after the next open of a kept file (O_NOFOLLOW), then forgotten. */
let afterOpen: (() => void) | null = null;

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const openSync = (...args: Parameters<typeof real.openSync>): number => {
    const fd = real.openSync(...args);
    const flags = args[1];
    if (typeof flags === 'number' && (flags & (constants.O_NOFOLLOW ?? 0)) !== 0 && afterOpen) {
      const swap = afterOpen;
      afterOpen = null;
      swap();
    }
    return fd;
  };
  return { ...real, default: { ...real, openSync }, openSync };
});

afterEach(() => {
  afterOpen = null;
});

const OWN = '{"settings":{"theme":"light"}}\n';
const THEIRS = '{"settings":{"theme":"dark","localServers":["http://10.0.0.9"]}}\n';

/** A data folder with the user's settings.json, and another's file beside it. */
async function folder() {
  const data = await testFolder('kept-file-swap');
  const at = join(data, 'settings.json');
  writeFileSync(at, OWN, { mode: 0o600 });
  const theirs = join(data, 'theirs.json');
  writeFileSync(theirs, THEIRS);
  return { data, at, theirs };
}

describe.runIf(process.platform !== 'win32')('a kept file swapped right after its open', () => {
  it('for a link to another file: the file opened is read', async () => {
    const { data, at, theirs } = await folder();
    afterOpen = () => {
      symlinkSync(theirs, join(data, 'swap'));
      renameSync(join(data, 'swap'), at);
    };
    expect(readKeptFileSync(at)).toBe(OWN);
    expect(afterOpen).toBeNull();
    // The swap happened: the name now leads to the other file.
    expect(readKeptFileSync.bind(null, at)).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it.runIf(fifoMaker().path !== null)('for a FIFO: the file opened is read, at once', async () => {
    const { data, at } = await folder();
    afterOpen = () => {
      makeFifo(fifoMaker(), join(data, 'pipe'));
      renameSync(join(data, 'pipe'), at);
    };
    expect(readKeptFileSync(at)).toBe(OWN);
    expect(afterOpen).toBeNull();
  });
});
