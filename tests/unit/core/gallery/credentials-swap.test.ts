/**
 * The Content Credentials step opens the file it looks at once, inside the gallery, and the
 * verifier gets the bytes of that handle, never a path to open again. Against a local process that
 * swaps the temp folder for a link to an outside twin around each file call (scripted-swaps.ts),
 * or puts a FIFO where the download was: nothing from outside is looked at or verified, and the
 * step answers at once instead of waiting on the FIFO for ever.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCredentials } from '../../../../electron/core/download/credentials-step';
import { TEMP_DIR } from '../../../../electron/core/fs/temp-names';
import type {
  ContentCredentialVerifier,
  CredentialRequest,
} from '../../../../electron/ports/content-credential-verifier';
import { silentLogger } from '../../../../electron/ports/logger';
import { c2paFixture } from '../../../support/c2pa-hostile';
import { SIGNED_VERDICT, pixelsChangedPng } from '../../../support/c2pa-hostile-cases';
import { scriptSwaps } from '../../../support/scripted-swaps';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

let base: string;
let root: string;
let file: string;
let outside: string;
let asked: CredentialRequest[];
let verifier: ContentCredentialVerifier;

beforeEach(async () => {
  base = await tempFolder('credentials-swap');
  root = join(base, 'gallery');
  file = join(root, TEMP_DIR, 'download.png');
  outside = join(base, 'outside', TEMP_DIR);
  await mkdir(join(root, TEMP_DIR), { recursive: true });
  await mkdir(outside, { recursive: true });
  await writeFile(file, c2paFixture('signed.png'));
  // The twin outside carries a store of its own: a reader led there would find and verify it.
  await writeFile(join(outside, 'download.png'), pixelsChangedPng());
  asked = [];
  verifier = {
    verify: async (request) => {
      asked.push(request);
      return SIGNED_VERDICT;
    },
    dispose: async () => undefined,
  };
});

afterEach(async () => {
  // A reader left waiting on the FIFO (the mechanism this file guards against) is let go.
  try {
    closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // No FIFO there, or nobody waiting on it.
  }
  await removeFolder(base);
});

const context = () => ({ verifier, logger: silentLogger });

describe('the Content Credentials step', () => {
  it('with nothing swapped: finds the store and verifies the bytes of the file it opened', async () => {
    const found = await findCredentials(root, file, 'png', context());
    expect(found.presence.found).toBe(true);
    await expect(found.verdict).resolves.toEqual(SIGNED_VERDICT);
    expect(asked).toHaveLength(1);
    expect(Buffer.from(asked[0]!.bytes).equals(await readFile(file))).toBe(true);
  });

  it('the temp folder swapped for a link around each call: nothing outside is looked at or verified', async () => {
    const swaps = scriptSwaps(join(root, TEMP_DIR), outside);
    let found: Awaited<ReturnType<typeof findCredentials>>;
    try {
      found = await findCredentials(root, file, 'png', context());
      await found.verdict;
    } finally {
      await swaps.restore();
    }
    // The attack struck: an open went through the link.
    expect(swaps.linked()).toBeGreaterThan(0);
    expect(found.presence.found).toBe(false);
    expect(asked).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')(
    'a FIFO where the download was: answered at once, nothing verified',
    async () => {
      await rm(file);
      execFileSync('mkfifo', [file]);
      // Opened without O_NONBLOCK, the FIFO waits for a writer that never comes: the test's own
      // time limit ends it then, so no clock is read here (a loaded machine cannot fail it).
      const found = await findCredentials(root, file, 'png', context());
      expect(found.presence.found).toBe(false);
      await expect(found.verdict).resolves.toEqual({ state: 'none' });
      expect(asked).toEqual([]);
    },
  );
});
