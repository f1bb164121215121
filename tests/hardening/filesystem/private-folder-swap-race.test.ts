/**
 * What Pictor makes private in the data folder, made private while another local user swaps it,
 * or a folder above it, for a link to something of the user's and back, in a tight loop (another
 * thread, blocking file calls, as a process would): a folder of its own (ensurePrivateFolderBelow:
 * the logs, the trash journal, a private file's folder) and a kept file (tightenFileSync:
 * settings.json, a key vault, the store's lock). The checks looked at the path before the chmod; a
 * chmod by path after them followed whatever the path was by then, so the user's folder or file,
 * open to others as they chose, was made private. Not one try may change it: the chmod acts on what
 * the checks saw or on nothing. The race must have struck (some tries refused or left alone).
 * The swapper needs write access to the folder above what it swaps: the app and the CLI make the
 * data folder 0700 before any of these calls, so there the window is the start's; the helpers are
 * race-free by themselves for any root they are given (the inline spool's is the gallery folder,
 * whose mode is the user's choice).
 * Counted in tries, never timed. With the chmod by path, 10,000 tries changed the user's folder 82
 * times (the folder swapped) and 29 times (a folder above it swapped), at a load average of 4 on 2
 * cores; 100,000 tries changed the user's file 17, 2 and 1 times in three runs (load 14). With
 * the user's mode looked at in the same turn as the try (statSync), the file's 100,000 tries take
 * about 2.4 s, not 7.9, and a chmod by path put back into tightenFileSync changed the user's file
 * 25 and 108 times in two runs (load 1).
 */
import { chmodSync, closeSync, fchmodSync, fstatSync, openSync, statSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemErrorCode } from '../../../electron/core/errors';
import {
  ensurePrivateFolderBelow,
  tightenFileSync,
  UnsafePathError,
} from '../../../electron/core/fs';
import { startLinkSwapper } from '../../support/link-swapper';
import { scaled } from '../support/scale';
import { plantedLinkFolders } from './planted-link-fixture';

const posix = process.platform !== 'win32';
/** Tries per case; a case goes on until the race has struck (a try refused), within a bound. */
const FOLDER_TRIES = scaled(10_000, 50_000);
/** A file's look and chmod are two calls in a row, not a few awaits apart: a narrower window. */
const FILE_TRIES = scaled(100_000, 500_000);
const STRIKE_LIMIT = 10;
const USERS_MODE = 0o755;

const folders = plantedLinkFolders('private-folder-swap-race', ['notes.txt']);

interface Race {
  /** What is swapped for a link to `outside` and back. */
  readonly swapped: string;
  readonly outside: string;
  /** The user's own folder or file, whose mode must stay `USERS_MODE`. */
  readonly users: string;
  /** One try: true when it made private what it was given, false when it refused. */
  readonly attempt: () => Promise<boolean>;
  readonly tries: number;
  /** The swapper's dwell as a link and as the real thing (link-swapper.ts). */
  readonly dwell?: readonly [number, number];
}

/** Runs `attempt` over and over while `swapped` is swapped; what each try met. */
async function race({ swapped, outside, users, attempt, tries, dwell }: Race) {
  await chmod(users, USERS_MODE);
  // Stopped by the race (its safety bound in time stays below the test's limit).
  const swapper = startLinkSwapper({
    folder: swapped,
    outside,
    dwell,
    maxSwaps: Infinity,
    maxMs: 110_000,
  });
  const counts = { tries: 0, made: 0, refused: 0, theirsChanged: 0 };
  try {
    await swapper.started;
    while (counts.tries < tries || (counts.refused === 0 && counts.tries < tries * STRIKE_LIMIT)) {
      counts.tries += 1;
      if (await attempt()) counts.made += 1;
      else counts.refused += 1;
      // Looked at in the same turn (a blocking call): an awaited stat per try was most of a
      // case's time, 100,000 round trips through libuv's pool for the file's.
      if ((statSync(users).mode & 0o777) !== USERS_MODE) {
        counts.theirsChanged += 1;
        chmodSync(users, USERS_MODE);
      }
    }
  } finally {
    await swapper.stop();
  }
  return counts;
}

/** `data/<swapped>/<below>` made private, `data/<swapped>` swapped for a link to the user's folder. */
async function folderRace(swapped: string, below: string) {
  const { data, theirs } = folders;
  const made = join(data, swapped, below);
  const users = join(theirs, below);
  await mkdir(made, { recursive: true });
  await mkdir(users, { recursive: true });
  return race({
    swapped: join(data, swapped),
    outside: theirs,
    users,
    tries: FOLDER_TRIES,
    attempt: () =>
      ensurePrivateFolderBelow(data, made).then(
        () => true,
        (error: unknown) => {
          // A link refused, or the folder met in the moment it was away (ENOENT): nothing made.
          if (error instanceof UnsafePathError || systemErrorCode(error) !== undefined) {
            return false;
          }
          throw error;
        },
      ),
  });
}

describe.runIf(posix)('made private while it is swapped for a link', () => {
  it('a private folder: the user folder the link points at keeps its mode', async () => {
    const counts = await folderRace('logs', '');
    expect(counts).toMatchObject({ theirsChanged: 0 });
    expect(counts.refused, 'tries the race struck').toBeGreaterThan(0);
  }, 120_000);

  it('a folder above it: the user folder the path leads to keeps its mode', async () => {
    const counts = await folderRace('workflows', 'book');
    expect(counts).toMatchObject({ theirsChanged: 0 });
    expect(counts.refused, 'tries the race struck').toBeGreaterThan(0);
  }, 120_000);

  it('a kept file: the user file the link points at keeps its mode', async () => {
    const { data, theirs } = folders;
    const kept = join(data, 'settings.json');
    await writeFile(kept, '{}');
    // The kept file is made readable by others again before each try through a descriptor of its
    // own, which names it whatever its path leads to.
    const own = openSync(kept, 'r');
    try {
      const counts = await race({
        swapped: kept,
        outside: join(theirs, 'notes.txt'),
        users: join(theirs, 'notes.txt'),
        tries: FILE_TRIES,
        dwell: [4, 0],
        attempt: async () => {
          fchmodSync(own, USERS_MODE);
          tightenFileSync(kept);
          return (fstatSync(own).mode & 0o777) !== USERS_MODE;
        },
      });
      expect(counts).toMatchObject({ theirsChanged: 0 });
      expect(counts.refused, 'tries the race struck').toBeGreaterThan(0);
    } finally {
      closeSync(own);
    }
  }, 120_000);
});
