/**
 * What the interrupted-import suites share: an archive of several tasks as Pictor's exporter
 * writes one (images stored, JSON deflated), whose images span more than one read (so an
 * interruption lands while reads of several tasks are in flight), some refused
 * before any decode (a wrong SHA-256 in the manifest) and one refused by the image check; a way to
 * interrupt at every step; and the checks every interrupted import must pass.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createWriteStream, openSync, statfsSync, writeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { filesUnder } from '../../support/files';
import { makeImage } from '../../support/gallery-helpers';
import { openDescriptorsUnder } from '../../support/open-descriptors';
import { UNTIL } from '../../support/waits';
import {
  manifestFor,
  taskFiles,
  type ExportFile,
} from '../../unit/core/library/archive/crafted-export';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** How one task of the archive ends when imported whole. */
export type TaskKind = 'good' | 'wrong-sha' | 'not-an-image';

export interface InterruptArchive {
  /** The archive, alone in its folder (so a descriptor left open on it can be counted). */
  readonly path: string;
  readonly folder: string;
  readonly kinds: readonly TaskKind[];
}

/**
 * A task whose image file holds random pixels: `side`×`side` PNG, about 3 bytes a pixel, which
 * neither compresses nor fits in one 64 KiB read from 150 up.
 */
async function imageTask(kind: TaskKind, side: number): Promise<ExportFile[]> {
  if (kind === 'not-an-image') {
    // A PNG signature before random bytes: the name and the sniff agree, the check refuses it.
    const data = Buffer.concat([PNG_SIGNATURE, randomBytes(3 * side * side)]);
    return (await taskFiles({ data, width: side, height: side })).files;
  }
  const data = await makeImage('png', side, side);
  return (await taskFiles({ data, width: side, height: side })).files;
}

/**
 * Writes the archive of `kinds` (one task each, images of `side` pixels) into `folder`, the
 * manifest naming another SHA-256 for the images of the `wrong-sha` tasks.
 */
export async function interruptArchive(
  folder: string,
  kinds: readonly TaskKind[],
  side = 150,
): Promise<InterruptArchive> {
  const tasks = await Promise.all(kinds.map((kind) => imageTask(kind, side)));
  const files = tasks.flat();
  const wrong = new Set(
    tasks.flatMap((task, i) =>
      kinds[i] === 'wrong-sha' ? task.filter((file) => file.kind === 'image') : [],
    ),
  );
  const manifest = JSON.parse(manifestFor(files).toString('utf8')) as {
    entries: { path: string; sha256: string }[];
  };
  for (const entry of manifest.entries) {
    if ([...wrong].some((file) => file.path === entry.path)) {
      entry.sha256 = createHash('sha256').update(entry.path).digest('hex');
    }
  }
  // As Pictor's exporter writes it: images stored (they do not compress), the JSON deflated.
  const zip = new yazl.ZipFile();
  for (const file of files)
    zip.addBuffer(file.data, file.path, { compress: file.kind !== 'image' });
  zip.addBuffer(Buffer.from(JSON.stringify(manifest)), 'pictor-export.json', { compress: true });
  zip.end();
  const path = join(folder, 'interrupted.zip');
  await pipeline(zip.outputStream, createWriteStream(path));
  return { path, folder, kinds };
}

/**
 * Counts every look at an `AbortSignal`'s `aborted` in this process, the steps of an import (it
 * checks its signal before each task, each chunk it copies and each image it checks), calling
 * `onStep` with each one's number before answering it. Returns the restore.
 */
export function countSteps(onStep: (step: number) => void): () => void {
  const original = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted');
  const get = original?.get;
  if (!original || !get) throw new Error('AbortSignal.prototype.aborted is not a getter here.');
  let step = 0;
  Object.defineProperty(AbortSignal.prototype, 'aborted', {
    ...original,
    get(this: AbortSignal) {
      step += 1;
      onStep(step);
      return get.call(this) as boolean;
    },
  });
  return () => Object.defineProperty(AbortSignal.prototype, 'aborted', original);
}

/** Every uncaught exception and unhandled rejection of this process while it listens. */
export function watchProcessErrors(): { readonly errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const onError = (error: unknown) => void errors.push(error);
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
  return {
    errors,
    stop: () => {
      process.off('uncaughtException', onError);
      process.off('unhandledRejection', onError);
    },
  };
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * How `work` ended, as soon as it ends; fails when it has not ended by the waits' deadline (a read
 * left waiting on the archive keeps an import from ever ending). A race with the deadline, not a
 * look every interval: an import of these few tasks ends in milliseconds, and a test of a hundred
 * interrupted imports paid an interval's wait on each.
 */
export async function settled<T>(work: Promise<T>): Promise<Settled<T>> {
  const outcome = work.then(
    (value): Settled<T> => ({ ok: true, value }),
    (error: unknown): Settled<T> => ({ ok: false, error }),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('The import has not ended: a read is left waiting.')),
      UNTIL.timeout,
    );
  });
  try {
    return await Promise.race([outcome, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What an interrupted import left that it must not: staged files, open descriptors, halves. */
export interface Leftovers {
  /** Entries of the gallery's `.pictor-tmp`. */
  readonly staged: string[];
  /** Descriptors of this process open on the archive's folder. */
  readonly archiveDescriptors: number | null;
  /** Task folders in the gallery that the history does not list, or the reverse. */
  readonly unrecorded: string[];
}

/** Every task folder (a folder holding a sidecar) under `root`, relative to it. */
export async function taskFolders(root: string): Promise<string[]> {
  return (await filesUnder(root))
    .filter((file) => file.endsWith('/pictor.json'))
    .map((file) => relative(root, dirname(file)))
    .sort();
}

export async function leftovers(
  root: string,
  archive: InterruptArchive,
  recorded: readonly string[],
): Promise<Leftovers> {
  const onDisk = await taskFolders(root);
  const listed = new Set(recorded);
  return {
    staged: await readdir(join(root, TEMP_DIR)).catch(() => []),
    archiveDescriptors: openDescriptorsUnder(archive.folder),
    unrecorded: [
      ...onDisk.filter((folder) => !listed.has(folder)),
      ...recorded.filter((folder) => !onDisk.includes(folder)),
    ],
  };
}

/** What a clean end leaves: nothing staged, the archive closed, every folder with its record. */
export const CLEAN: Leftovers = { staged: [], archiveDescriptors: 0, unrecorded: [] };

/**
 * Fills the disk of `folder` with one file until `room` bytes are left free (tmpfs counts whole
 * pages), or until it is full when another process writes there meanwhile; returns its path.
 */
export function leaveFree(folder: string, room: number): string {
  const path = join(folder, 'filler.bin');
  const { bavail, bsize } = statfsSync(folder);
  let left = bavail * bsize - room;
  const chunk = Buffer.alloc(1 << 20, 0x5a);
  const fd = openSync(path, 'w');
  try {
    while (left > 0) {
      const size = Math.min(left, chunk.length);
      try {
        left -= writeSync(fd, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}
