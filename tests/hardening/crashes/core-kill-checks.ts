/**
 * What core-kill.test.ts looks at between runs and at the end: the history as a new process
 * would open it, the gallery's temp folder, the history's journal and lock files, and every
 * image file against the bytes the service serves.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect } from 'vitest';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { SIDECAR_NAME } from '../../../electron/core/gallery/gallery-layout';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, UNKNOWN_VERSION } from '../../../electron/core/pictor-core';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { LogFields, Logger } from '../../../electron/ports/logger';
import { listFiles } from '../../e2e/harness/disk';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import { galleryOnServer } from '../../support/gallery-with-intake';

/** Files in the gallery's temp folder (written by an attempt that a kill interrupted). */
export function tempFiles(galleryDir: string): string[] {
  const folder = join(galleryDir, TEMP_DIR);
  return existsSync(folder) ? readdirSync(folder) : [];
}

/**
 * A write-ahead log left with content: the kill came before the history's clean close (its
 * committed frames are kept, an interrupted transaction's are dropped, at the next open).
 */
export function hasLeftLog(dataDir: string): boolean {
  return ['-wal', '-journal'].some((suffix) => {
    const log = join(dataDir, `${HISTORY_FILE}${suffix}`);
    return existsSync(log) && statSync(log).size > 0;
  });
}

/** Every record, page by page; fails when a stored row could not be read. */
function allRecords(store: HistoryStore, warnings: LogFields[]): TaskRecord[] {
  const records: TaskRecord[] = [];
  let cursor: string | null = null;
  do {
    const page = store.list({ limit: 500, cursor });
    records.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  expect(records).toHaveLength(store.count());
  expect(warnings.filter((fields) => 'localId' in fields)).toEqual([]);
  return records;
}

/** Opens the history the way the next start would (recovery, integrity check) and reads it all. */
export function openAndReadHistory(dataDir: string): TaskRecord[] {
  const warnings: LogFields[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    error: (_message, fields) => warnings.push(fields ?? {}),
    warn: (_message, fields) => warnings.push(fields ?? {}),
  };
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE), {
    logger,
    integrityCheck: 'always',
  });
  try {
    return allRecords(store, warnings);
  } finally {
    store.close();
  }
}

/** What a clean close leaves in the data folder: the database alone (no log, no lock file). */
export function expectCleanDataDir(dataDir: string): void {
  const names = readdirSync(dataDir).sort();
  expect(names.filter((name) => name !== HISTORY_FILE)).toEqual([]);
  expect(hasLeftLog(dataDir)).toBe(false);
}

/** The files a completed task owns: its images and their thumbnails (its sidecar aside). */
function expectedFiles(record: TaskRecord): string[] {
  return record.images.flatMap((image) => [image.file ?? '?', image.thumbnail ?? '?']);
}

/** What the sidecars say, beside the history. */
export interface SidecarFigures {
  readonly images: number;
  /** Sidecars still showing images pending: a kill came between the history and the sidecar. */
  readonly staleSidecars: number;
  /** Completed tasks with no sidecar: a kill came before the first one was written. */
  readonly missingSidecars: number;
}

/**
 * The gallery holds exactly one file per image and one thumbnail per image, and at most one
 * sidecar per completed task, nothing else; each image is byte for byte what the service serves
 * with its provenance written in (gallery/metadata) and decodes fully; each thumbnail decodes. Every sidecar parses (written atomically), and a
 * rebuild of the library from the folder alone finds each task that has one with both images
 * saved. Sidecars a kill left stale or never let be written are counted (see the report).
 */
export async function expectGalleryExact(
  galleryDir: string,
  completed: readonly TaskRecord[],
): Promise<SidecarFigures> {
  expect(tempFiles(galleryDir)).toEqual([]);
  const sidecarPaths = completed.map((record) => `${record.folder}/${SIDECAR_NAME}`);
  const found = await listFiles(galleryDir);
  expect(found.filter((path) => !sidecarPaths.includes(path))).toEqual(
    completed.flatMap(expectedFiles).sort(),
  );
  let images = 0;
  for (const record of completed) {
    for (const image of record.images) {
      const onDisk = await readFile(join(galleryDir, image.file!));
      const served = Buffer.from(await (await fetch(image.url!)).arrayBuffer());
      // The core writes each image's provenance into it (gallery/metadata), pixels untouched.
      const kind =
        image.mime === 'image/jpeg' ? 'jpeg' : image.mime === 'image/webp' ? 'webp' : 'png';
      const expected = await embedProvenanceInBuffer(
        served,
        kind,
        provenanceOf(record, image.index, UNKNOWN_VERSION),
      );
      expect(onDisk.equals(expected), `${image.file} differs from the served image`).toBe(true);
      await sharp(onDisk).stats(); // decodes every pixel: a half-written file throws
      await sharp(join(galleryDir, image.thumbnail!)).stats();
      images += 1;
    }
  }
  const withSidecar = completed.filter((r) => found.includes(`${r.folder}/${SIDECAR_NAME}`));
  let staleSidecars = 0;
  for (const record of withSidecar) {
    const text = await readFile(join(galleryDir, record.folder!, SIDECAR_NAME), 'utf8');
    const sidecar = parseSidecar(text);
    expect(sidecar.ok, `sidecar of ${record.folder}`).toBe(true);
    if (sidecar.ok && sidecar.record.images.some((image) => image.state !== 'saved'))
      staleSidecars += 1;
  }
  await expectRebuildFinds(galleryDir, withSidecar);
  return { images, staleSidecars, missingSidecars: completed.length - withSidecar.length };
}

async function expectRebuildFinds(galleryDir: string, records: readonly TaskRecord[]) {
  const { intake } = galleryOnServer(galleryDir);
  const rebuilt = await rebuildLibrary(intake);
  expect(rebuilt.skipped).toEqual([]);
  const summary = (record: TaskRecord) => ({
    localId: record.localId,
    folder: record.folder,
    images: record.images.map((image) => [image.state, image.file, image.thumbnail]),
  });
  const byId = (a: { localId: string }, b: { localId: string }) =>
    a.localId.localeCompare(b.localId);
  expect(rebuilt.records.map(summary).sort(byId)).toEqual(records.map(summary).sort(byId));
}
