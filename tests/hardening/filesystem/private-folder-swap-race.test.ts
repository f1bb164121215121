/**
 * A private folder of Pictor's below the data folder (ensurePrivateFolderBelow: the logs, the
 * trash journal, a private file's folder) made private while another local user swaps it, or a
 * folder above it, for a link to a folder of the user's and back, in a tight loop (another thread,
 * blocking file calls, as a process would). The checks look at the path before the chmod; a chmod
 * by path after them follows whatever the path is by then, so the user's folder, open to others
 * as they chose, was made 0700. Not one try may change it: the chmod acts on the folder the checks
 * saw or on nothing. The race must have struck (some tries refused). Counted in tries, never timed.
 * With the chmod by path, 10,000 tries changed the user's folder 82 times (the folder swapped) and
 * 29 times (a folder above it swapped), at a load average of 4 on 2 cores.
 */
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensurePrivateFolderBelow, UnsafePathError } from '../../../electron/core/fs';
import { systemErrorCode } from '../../../electron/core/errors';
import { startLinkSwapper } from '../../support/link-swapper';
import { scaled } from '../support/scale';
import { plantedLinkFolders } from './planted-link-fixture';

const posix = process.platform !== 'win32';
/** Tries per case; a case goes on until the race has struck (a try refused), within a bound. */
const TRIES = scaled(10_000, 50_000);
const STRIKE_LIMIT = 10;
const USERS_MODE = 0o755;

const folders = plantedLinkFolders('private-folder-swap-race', ['notes.txt']);

/**
 * Makes `data/<swapped>/.../<made>` private over and over while `data/<swapped>` is swapped for a
 * link to the user's folder laid out the same way; what each try met, and every time the user's
 * folder (`theirs/<below>`) lost its mode.
 */
async function race(swapped: string, below: string) {
  const { data, theirs } = folders;
  const made = join(data, swapped, below);
  const users = join(theirs, below);
  await mkdir(made, { recursive: true });
  await mkdir(users, { recursive: true });
  await chmod(users, USERS_MODE);
  const swapper = startLinkSwapper({ folder: join(data, swapped), outside: theirs });
  const counts = { tries: 0, made: 0, refused: 0, theirsChanged: 0 };
  try {
    await swapper.started;
    while (counts.tries < TRIES || (counts.refused === 0 && counts.tries < TRIES * STRIKE_LIMIT)) {
      counts.tries += 1;
      try {
        await ensurePrivateFolderBelow(data, made);
        counts.made += 1;
      } catch (error) {
        // A link refused, or the folder met in the moment it was away (ENOENT): nothing made.
        if (!(error instanceof UnsafePathError) && systemErrorCode(error) === undefined)
          throw error;
        counts.refused += 1;
      }
      if (((await stat(users)).mode & 0o777) !== USERS_MODE) {
        counts.theirsChanged += 1;
        await chmod(users, USERS_MODE);
      }
    }
  } finally {
    await swapper.stop();
  }
  return counts;
}

describe.runIf(posix)('a private folder swapped for a link while it is made private', () => {
  it('the folder itself: the user folder the link points at keeps its mode', async () => {
    const counts = await race('logs', '');
    expect(counts).toMatchObject({ theirsChanged: 0 });
    expect(counts.refused, 'tries the race struck').toBeGreaterThan(0);
  }, 120_000);

  it('a folder above it: the user folder the path leads to keeps its mode', async () => {
    const counts = await race('workflows', 'book');
    expect(counts).toMatchObject({ theirsChanged: 0 });
    expect(counts.refused, 'tries the race struck').toBeGreaterThan(0);
  }, 120_000);
});
