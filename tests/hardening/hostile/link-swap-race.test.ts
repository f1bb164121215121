/**
 * The check-then-open race, raced for real: a worker thread swaps a task folder for a link to an
 * outside twin (holding a private image and sidecar) and back, in a tight loop bounded in count
 * and time, while the gallery protocol serves, a folder import reads and imports, and the
 * identity walk (the Windows and macOS mechanism) opens, over and over. Not one byte of the
 * outside image, nor its prompt, may come out of the gallery protocol or an import (on Linux the
 * descriptor's own path decides); the walk, a check of paths that another process can line its
 * swaps up with, must refuse all but a rare open. The race must really have struck: some requests
 * are refused, and the swapper must have swapped. Counted in tries, never timed: a reader goes
 * on until the race has struck, so a loaded machine (fewer swaps per try) cannot fail it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { galleryUrl } from '../../../shared/ipc/api';
import { openInside } from '../../../electron/core/fs/open-inside';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../electron/core/library/archive/archive-limits';
import { openFolderSource } from '../../../electron/core/library/archive/folder-source';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { serveGalleryRequest } from '../../../electron/app/protocol/gallery-request';
import { filesUnder } from '../../support/files';
import { makeImage } from '../../support/gallery-helpers';
import { startLinkSwapper, type LinkSwapper } from '../../support/link-swapper';
import {
  addTask,
  makeLibrary,
  type Library,
} from '../../unit/core/library/archive/library-fixture';
import { NOT_MEASURED, recordReliability } from '../support/reliability-record';
import { scaled } from '../support/scale';
import { removeFolder } from '../../support/temp-folders';

const FILE = 'hardening/hostile/link-swap-race.test.ts';
const SECRET_PROMPT = 'a private prompt from outside the gallery';
/** Tries per reader; a reader whose refusals are checked goes on until the race has struck. */
const TRIES = scaled(400, 4_000);
const IMPORTS = scaled(12, 100);
/** How many times {@link TRIES} a reader may go on before a race that never strikes fails. */
const STRIKE_LIMIT = 20;
/** The swapper ends by itself only as a safety: each race stops it (below the test's limit). */
const SWAPPER_SAFETY_MS = 170_000;

let library: Library;
let record: TaskRecord;
let own: Buffer;
let secret: Buffer;
let taskFolder: string;
let twin: string;
const figures = { tries: 0, swaps: 0, inside: 0, refused: 0, outside: 0 };
/** The identity walk's own tally: a path-based check, beaten now and then (see its test). */
const walk = { tries: 0, swaps: 0, inside: 0, refused: 0, outside: 0 };
/**
 * How many of the walk's opens may reach the outside file: the walk compares paths' identities
 * before and after the open (core/fs/open-inside.ts says a swapper that lines a swap up between
 * each pair of its calls can still win), so it is held to rare, not to never. Measured at a
 * load average of 5-12 on 2 cores: 0 to 3 of 400 opens, nearly all others refused.
 */
const WALK_OUTSIDE_SHARE = 1 / 20;

beforeAll(async () => {
  library = await makeLibrary();
  record = await addTask(library, ['png']);
  taskFolder = join(library.root, ...(record.folder ?? '').split('/'));
  own = await readFile(join(taskFolder, 'image-1.png'));
  secret = await makeImage('png', 37, 29);
  twin = join(library.dir, 'outside-task');
  await mkdir(twin);
  await writeFile(join(twin, 'image-1.png'), secret);
  const theirs = { ...record, request: { ...record.request, prompt: SECRET_PROMPT } };
  await writeFile(join(twin, 'pictor.json'), sidecarText(theirs));
});

afterAll(async () => {
  library.history.close();
  await removeFolder(library.dir);
  recordReliability({
    section: 'hostile-input',
    row: 'A task folder swapped for a link and back by another thread (real race)',
    load: `${TRIES} gallery requests, ${TRIES} folder-import reads, ${TRIES} identity-walk opens (each more until one was refused), ${IMPORTS} whole folder imports`,
    injected: { 'folder swaps': figures.swaps },
    outcome: {
      'reads tried': figures.tries,
      'served or read from inside': figures.inside,
      refused: figures.refused,
      'outside bytes or prompt served or imported': figures.outside,
      'identity walk: opens tried': walk.tries,
      'identity walk: refused': walk.refused,
      'identity walk: opens that reached the outside file': walk.outside,
    },
    // Reads and imports raced against the swapper: no task's work is counted here.
    lost: NOT_MEASURED,
    duplicated: NOT_MEASURED,
    leaked: figures.outside,
    file: `tests/${FILE}`,
  });
});

/** What one try gave: the bytes it read, or nothing (refused). */
type Try = () => Promise<Buffer | null>;

const secretBytes = () => secret.subarray(33, secret.length - 12);
const isOutside = (bytes: Buffer) => bytes.includes(secretBytes()) || bytes.includes(SECRET_PROMPT);

/**
 * Runs `attempt` `tries` times while the folder is swapped, and with `untilRefused` on until one
 * was refused too (at most {@link STRIKE_LIMIT} times as many).
 */
async function race(tries: number, attempt: Try, untilRefused = false, tally = figures) {
  const swapper: LinkSwapper = startLinkSwapper({
    folder: taskFolder,
    outside: twin,
    maxMs: SWAPPER_SAFETY_MS,
  });
  const counts = { tries: 0, inside: 0, refused: 0, outside: 0 };
  const more = () =>
    counts.tries < tries ||
    (untilRefused && counts.refused === 0 && counts.tries < tries * STRIKE_LIMIT);
  try {
    await swapper.started;
    while (more()) {
      counts.tries += 1;
      const bytes = await attempt().catch(() => null);
      if (bytes === null) counts.refused += 1;
      else if (isOutside(bytes)) counts.outside += 1;
      else counts.inside += 1;
    }
  } finally {
    tally.swaps += await swapper.stop();
  }
  for (const key of ['tries', 'inside', 'refused', 'outside'] as const) tally[key] += counts[key];
  return counts;
}

describe('a folder swapped for a link in a tight loop', () => {
  it('the gallery protocol never serves the outside file', async () => {
    const url = galleryUrl(record.images[0]?.file ?? '');
    const counts = await race(
      TRIES,
      async () => {
        const response = await serveGalleryRequest(new Request(url), library.root);
        const body = Buffer.from(await response.arrayBuffer());
        return response.status === 200 ? body : null;
      },
      true,
    );
    expect(counts.outside).toBe(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('a folder import never reads the outside file', async () => {
    const source = await openFolderSource(library.root, DEFAULT_ARCHIVE_LIMITS);
    const counts = await race(
      TRIES,
      async () => {
        const chunks: Buffer[] = [];
        for (const file of source.files) {
          for await (const chunk of await file.open()) chunks.push(chunk as Buffer);
        }
        return Buffer.concat(chunks);
      },
      true,
    );
    expect(counts.outside).toBe(0);
    expect(counts.refused).toBeGreaterThan(0);
  });

  it('whole folder imports never take in the outside image or sidecar', async () => {
    const counts = await race(IMPORTS, async () => {
      const into = await makeLibrary();
      try {
        await importLibrary({ intake: into.intake, history: into.history, source: library.root });
        const files = await filesUnder(into.root, { missing: 'empty' });
        const texts = await Promise.all(files.map((file) => readFile(file)));
        texts.push(Buffer.from(JSON.stringify(into.history.list({ limit: 50 }).items)));
        const imported = Buffer.concat(texts);
        return imported.includes(own.subarray(33, own.length - 12)) || isOutside(imported)
          ? imported
          : null;
      } finally {
        into.history.close();
        await removeFolder(into.dir);
      }
    });
    expect(counts.outside).toBe(0);
  });

  it('the identity walk (the mechanism where the kernel names no descriptor path) refuses all but a rare open', async () => {
    const path = join(taskFolder, 'image-1.png');
    const counts = await race(
      TRIES,
      async () => {
        const opened = await openInside(library.root, path, { containment: 'walk' });
        if (!opened.ok) return null;
        try {
          return await opened.handle.readFile();
        } finally {
          await opened.handle.close();
        }
      },
      true,
      walk,
    );
    expect(counts.refused).toBeGreaterThan(0);
    expect(counts.outside).toBeLessThanOrEqual(Math.floor(counts.tries * WALK_OUTSIDE_SHARE));
  });
});
