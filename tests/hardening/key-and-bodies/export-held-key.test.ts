/**
 * A library export (the window's Export and `pictor export`: one core operation) of a library
 * whose files or records carry a key the process holds: a task kept under a key-carrying id the
 * app's sweep has not reached yet (its record, its PNG's own metadata, the XMP file beside a
 * signed image), and fields a newer Pictor added to a task (its own, its request's, an image's),
 * which this version only carries. An archive leaves the computer: none of its entries may carry
 * the key, in any encoding, while each task keeps its provenance (the id with "[redacted]" in the
 * key's place), its pixels and a signed image's bytes. Before, the export had no scrubber (an
 * import has one). Control: a task that carries no key is archived byte for byte as before.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { runOnHistoryFile } from '../../support/history-file';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { readImageProvenance } from '../../../electron/core/gallery/metadata/read';
import { buildXmpPacket, parseXmpPacket } from '../../../electron/core/gallery/metadata/xmp-packet';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { TEMP_DIR } from '../../../electron/core/fs/temp-names';
import { HISTORY_FILE, type PictorCore } from '../../../electron/core/pictor-core';
import { archiveEntries } from '../../support/archive-entries';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord } from '../../support/gallery-helpers';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { ENCODINGS, keyScanner, speltLeaks } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;

/** Every string in a JSON value, names too, decoded (a JSON file escapes what it holds). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([name, item]) => [name, ...stringsOf(item)]);
}

function leaksIn(name: string, bytes: Buffer): string[] {
  const utf8 = bytes.toString('utf8');
  const decoded = name.endsWith('.json') ? stringsOf(JSON.parse(utf8)).join('\n') : '';
  const text = `${bytes.toString('latin1')}\n${utf8}\n${decoded}`;
  return [...keyScanner(KEY).leaks(text), ...speltLeaks(`${utf8}\n${decoded}`, KEY)];
}

interface World {
  readonly base: string;
  readonly gallery: string;
  readonly dataDir: string;
  readonly core: PictorCore;
}

async function world(): Promise<World> {
  const base = await offlineDir();
  const gallery = join(base, 'gallery');
  const dataDir = join(base, 'data');
  const core = await offlineCore({ dir: base, key: KEY, clock: systemClock });
  await mkdir(join(gallery, TEMP_DIR), { recursive: true });
  return { base, gallery, dataDir, core };
}

/** A saved task with one image of `png`'s bytes (its folder `folder` when given). */
function savedRecord(
  taskId: string,
  png: Buffer,
  size: { width: number; height: number },
): TaskRecord & { folder: string } {
  const draft = makeRecord([null], { taskId, status: 'completed' });
  const folder = taskFolderName(draft);
  const image = {
    ...draft.images[0]!,
    state: 'saved' as const,
    file: `${folder}/image-1.png`,
    mime: 'image/png' as const,
    bytes: png.length,
    ...size,
  };
  return { ...draft, folder, images: [image] };
}

/** The task as an old app left it: its image says the id, its pictor.json the record. */
async function keptPng(w: World, taskId: string) {
  const plain = await sharp({
    create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();
  const record = savedRecord(taskId, plain, { width: 8, height: 8 });
  const path = join(w.gallery, record.images[0]!.file!);
  await mkdir(join(w.gallery, record.folder), { recursive: true });
  await writeFile(path, plain);
  const embedded = await embedProvenanceInFile(path, 'png', provenanceOf(record, 0, 'old'), {
    root: w.gallery,
    maxBytes: MAX_IMAGE_BYTES,
  });
  expect(embedded.ok).toBe(true);
  const bytes = await readFile(path);
  const kept = { ...record, images: [{ ...record.images[0]!, bytes: bytes.length }] };
  await writeFile(join(w.gallery, record.folder, 'pictor.json'), sidecarText(kept));
  w.core.history.put(kept);
  return { record: kept, pixels: await sharp(bytes).raw().toBuffer() };
}

/** A signed PNG (never edited) whose Pictor packet beside it says `taskId`. */
async function keptSigned(w: World, taskId: string) {
  const png = c2paFixture('signed.png');
  const { width, height } = await sharp(png).metadata();
  const drafted = savedRecord(taskId, png, { width: width!, height: height! });
  const record: TaskRecord = {
    ...drafted,
    images: [{ ...drafted.images[0]!, xmpFile: `${drafted.folder}/image-1.xmp` }],
  };
  await mkdir(join(w.gallery, drafted.folder), { recursive: true });
  await writeFile(join(w.gallery, drafted.images[0]!.file!), png);
  const packet = buildXmpPacket(provenanceOf(record, 0, 'old'))!;
  await writeFile(join(w.gallery, drafted.folder, 'image-1.xmp'), packet);
  await writeFile(join(w.gallery, drafted.folder, 'pictor.json'), sidecarText(record));
  w.core.history.put(record);
  return { record, png };
}

/** `sql` run on the history file as a newer Pictor would. */
function rawly(w: World, sql: string, ...params: string[]): void {
  runOnHistoryFile(join(w.dataDir, HISTORY_FILE), sql, ...params);
}

async function exported(w: World): Promise<Map<string, Buffer>> {
  const target = join(w.base, 'library.zip');
  const summary = await w.core.operations.exportArchive({ target, pictorVersion: 't' });
  expect(summary?.skipped).toEqual([]);
  return archiveEntries(target);
}

function sidecarOf(entries: Map<string, Buffer>, record: TaskRecord) {
  const found = [...entries].find(
    ([path, bytes]) =>
      path.endsWith('/pictor.json') &&
      (JSON.parse(bytes.toString('utf8')) as { record: TaskRecord }).record.localId ===
        record.localId,
  );
  expect(found, record.localId).toBeDefined();
  const [path, bytes] = found!;
  return {
    folder: path.slice(0, -'/pictor.json'.length),
    record: JSON.parse(bytes.toString('utf8')).record as Record<string, unknown> & TaskRecord,
  };
}

describe('an export of a library whose tasks carry a key the process holds', () => {
  it('holds the key in none of its entries; each task keeps its provenance and pixels', async () => {
    const w = await world();
    const ids = {
      raw: `task-${KEY}`,
      base64: `task-${ENCODINGS.base64!(KEY, 1)}`,
      hexUpper: `task-${ENCODINGS.hexUpper!(KEY, 0)}`,
    };
    const pngs = [];
    for (const id of Object.values(ids)) pngs.push(await keptPng(w, id));
    const signed = await keptSigned(w, `task-${ENCODINGS.base64url!(KEY, 2)}`);
    // A newer Pictor's fields, carrying the key in three encodings and three places.
    const newer = (await keptPng(w, 'task-newer-fields')).record;
    rawly(
      w,
      `UPDATE tasks SET record = json_set(record, '$.futureNote', ?, '$.request.futureHint', ?,
         '$.images[0].futureLabel', ?) WHERE local_id = ?`,
      `note ${KEY}`,
      ENCODINGS.percentEveryByte!(KEY, 0),
      [...KEY].join(' '),
      newer.localId,
    );
    // The positive control: the library's files say the key.
    const before = [];
    for (const { record } of [...pngs, signed]) {
      for (const name of ['image-1.png', 'image-1.xmp', 'pictor.json']) {
        const path = join(w.gallery, record.folder!, name);
        const bytes = await readFile(path).catch(() => null);
        if (bytes) before.push(...leaksIn(name, bytes));
      }
    }
    expect(before.length).toBeGreaterThan(0);

    const entries = await exported(w);
    for (const [path, bytes] of entries) expect(leaksIn(path, bytes), path).toEqual([]);

    for (const { record, pixels } of pngs) {
      const { folder, record: archived } = sidecarOf(entries, record);
      expect(archived.taskId).toContain('[redacted]');
      const image = entries.get(`${folder}/image-1.png`)!;
      const said = await readImageProvenance(image, 'png');
      expect(said.ok && said.provenance.taskId).toBe(archived.taskId);
      expect(await sharp(image).raw().toBuffer()).toEqual(pixels);
    }
    const { folder, record: archived } = sidecarOf(entries, signed.record);
    expect(archived.taskId).toContain('[redacted]');
    expect(entries.get(`${folder}/image-1.png`)).toEqual(signed.png);
    const packet = entries.get(`${folder}/image-1.xmp`)!.toString('utf8');
    expect(parseXmpPacket(packet)?.taskId).toBe(archived.taskId);
    // The newer Pictor's fields are carried, the key out of them.
    const carried = sidecarOf(entries, newer).record;
    expect(carried['futureNote']).toContain('[redacted]');
    expect(carried.request).toHaveProperty('futureHint');
    expect(carried.images[0]).toHaveProperty('futureLabel');
  });

  it('archives a task that carries no key as it is', async () => {
    const w = await world();
    const { record } = await keptPng(w, 'task-9d3f-ordinary');
    const signed = await keptSigned(w, 'task-signed-ordinary');
    const entries = await exported(w);
    for (const one of [record, signed.record]) {
      const { folder, record: archived } = sidecarOf(entries, one);
      expect(folder).toBe(one.folder);
      expect(archived.taskId).toBe(one.taskId);
      for (const name of ['image-1.png', 'image-1.xmp']) {
        const path = join(w.gallery, one.folder!, name);
        const bytes = await readFile(path).catch(() => undefined);
        expect(entries.get(`${folder}/${name}`), name).toEqual(bytes);
      }
    }
  });
});
