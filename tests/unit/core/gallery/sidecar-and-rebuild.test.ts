import { promises } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeRecord, serve, tempFiles } from '../../../support/gallery-helpers';
import { galleryOnServer } from '../../../support/gallery-with-intake';
import { rebuildLibrary } from '../../../../electron/core/library/rebuild-verified';
import { galleryPerTest } from '../../../support/gallery-per-test';

const fixture = galleryPerTest();

beforeAll(async () => {
  fixture.server.route('/a.png', serve(await makeImage('png', 64, 48)));
  fixture.server.route('/b.jpg', serve(await makeImage('jpeg', 40, 30)));
});

/** A task whose two images were downloaded for real and recorded as the engine would. */
async function savedTask(overrides: Partial<TaskRecord> = {}): Promise<TaskRecord> {
  const record = makeRecord(
    [`${fixture.server.baseUrl}/a.png`, `${fixture.server.baseUrl}/b.jpg`],
    overrides,
  );
  const folder = fixture.gallery.folderFor(record);
  const images = [];
  for (const image of record.images) {
    const outcome = await fixture.intake.downloadImage(record, image.index, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    const { state: _state, ...saved } = outcome;
    images.push({
      ...image,
      ...saved,
      state: 'saved' as const,
      attempts: 1,
      savedAt: 1_700_000_000_000,
    });
  }
  return { ...record, folder, images };
}

async function writeRaw(relativeFolder: string, content: string): Promise<void> {
  const folder = join(fixture.root, relativeFolder);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'pictor.json'), content);
}

describe('writeSidecar', () => {
  it('writes { app, version, record } into the task folder, atomically, with no temp file left', async () => {
    const record = makeRecord([null]);
    await fixture.gallery.writeSidecar(record);
    const folder = fixture.gallery.folderFor(record);
    const json = JSON.parse(
      await readFile(fixture.gallery.resolve(`${folder}/pictor.json`), 'utf8'),
    );
    expect(json).toEqual({ app: 'pictor', version: 1, record: { ...record, folder } });
    expect(await tempFiles(fixture.root)).toEqual([]);
  });

  it('replaces the sidecar on a second write', async () => {
    const record = makeRecord([null]);
    await fixture.gallery.writeSidecar(record);
    await fixture.gallery.writeSidecar({
      ...record,
      favourite: true,
      updatedAt: record.updatedAt + 5,
    });
    const folder = fixture.gallery.resolve(fixture.gallery.folderFor(record));
    expect(await readdir(folder)).toEqual(['pictor.json']);
    expect(JSON.parse(await readFile(join(folder, 'pictor.json'), 'utf8')).record.favourite).toBe(
      true,
    );
  });

  it('refuses a record whose folder leaves the gallery', async () => {
    await expect(
      fixture.gallery.writeSidecar(makeRecord([], { folder: '../evil' })),
    ).rejects.toThrow(/leaves the gallery/);
  });
});

describe('rebuild', () => {
  it('round-trips downloaded tasks through their sidecars', async () => {
    const first = await savedTask();
    const second = await savedTask({ request: { prompt: 'Second task' }, favourite: true });
    await fixture.gallery.writeSidecar(first);
    await fixture.gallery.writeSidecar(second);
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(skipped).toEqual([]);
    // Marked as imported: a sidecar is a file anyone could have written.
    expect(records).toEqual([
      { ...first, imported: true },
      { ...second, imported: true },
    ]);
  });

  it('hands the records out in batches, in path order, when asked, keeping none itself', async () => {
    const tasks = [];
    for (let n = 0; n < 5; n += 1) {
      const record = makeRecord([null], { request: { prompt: `batch ${n}` } });
      await fixture.gallery.writeSidecar(record);
      tasks.push(record);
    }
    const whole = await rebuildLibrary(fixture.intake);
    const batches: TaskRecord[][] = [];
    const streamed = await rebuildLibrary(fixture.intake, {
      batchSize: 2,
      onBatch: (b) => void batches.push(b),
    });
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    expect(batches.flat()).toEqual(whole.records);
    expect(streamed).toEqual({ records: [], skipped: [], count: 5, notes: [] });
    expect(whole.count).toBe(5);
  });

  it('hands out five hundred records a batch by default: each is one transaction of the history', async () => {
    const records = Array.from({ length: 501 }, () => makeRecord([]));
    await Promise.all(records.map((record) => fixture.gallery.writeSidecar(record)));
    const batches: number[] = [];
    await rebuildLibrary(fixture.intake, { onBatch: (batch) => void batches.push(batch.length) });
    // Two batches, where 200 a commit made three.
    expect(batches).toEqual([500, 1]);
  });

  it('skips a sidecar that changed to another task between its two reads', async () => {
    const first = makeRecord([null], { request: { prompt: 'first' } });
    const second = makeRecord([null], { request: { prompt: 'second' } });
    await fixture.gallery.writeSidecar(first);
    await fixture.gallery.writeSidecar(second);
    const order = (await rebuildLibrary(fixture.intake)).records.map((record) => record.localId);
    const later = order[1] === second.localId ? second : first;
    const seen: string[] = [];
    const result = await rebuildLibrary(fixture.intake, {
      batchSize: 1,
      onBatch: async (batch) => {
        seen.push(...batch.map((record) => record.localId));
        // After the first batch, the other task's folder is overwritten with a third task.
        if (seen.length === 1) {
          const folder = fixture.gallery.resolve(fixture.gallery.folderFor(later));
          const third = makeRecord([null], { request: { prompt: 'third' } });
          await writeFile(
            join(folder, 'pictor.json'),
            JSON.stringify({ app: 'pictor', version: 1, record: third }),
          );
        }
      },
    });
    expect(seen).toHaveLength(1);
    expect(result.count).toBe(1);
    expect(result.skipped).toEqual([
      {
        path: `${fixture.gallery.folderFor(later)}/pictor.json`,
        reason: 'The sidecar changed while the gallery was being rebuilt.',
        reasonSentence: { key: 'error.library.sidecarChanged' },
      },
    ]);
  });

  it('finds nothing in an empty gallery and ignores .pictor-tmp and .thumbs', async () => {
    await writeRaw('.pictor-tmp/x', 'junk');
    await writeRaw('2024/01/task/.thumbs', 'junk');
    expect(await rebuildLibrary(fixture.intake)).toEqual({
      records: [],
      skipped: [],
      count: 0,
      notes: [],
    });
  });

  it('skips unreadable or invalid sidecars with a reason', async () => {
    const good = await savedTask();
    await fixture.gallery.writeSidecar(good);
    await writeRaw('2024/02/not-json', '{ "app": "pictor", ');
    await writeRaw('2024/02/other-app', JSON.stringify({ app: 'other', version: 1, record: good }));
    await writeRaw('2024/02/newer', JSON.stringify({ app: 'pictor', version: 2, record: good }));
    await writeRaw(
      '2024/02/bad-record',
      JSON.stringify({ app: 'pictor', version: 1, record: { ...good, status: 'exploded' } }),
    );
    // A copy of the task folder: the original (at its own folder, same age) wins; an older
    // copy loses even where it sits; a newer copy wins over the original.
    await writeRaw('2024/02/copy', JSON.stringify({ app: 'pictor', version: 1, record: good }));
    await writeRaw(
      '2099/older',
      JSON.stringify({ app: 'pictor', version: 1, record: { ...good, updatedAt: 1 } }),
    );
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records.map((record) => record.localId)).toEqual([good.localId]);
    expect(skipped).toEqual([
      {
        path: '2024/02/bad-record/pictor.json',
        reason: expect.stringMatching(/not valid \(status: /),
        reasonSentence: {
          key: 'error.library.recordInvalid',
          params: { detail: expect.stringMatching(/^status: /) },
        },
      },
      {
        path: '2024/02/copy/pictor.json',
        reason: 'Another sidecar in the gallery describes the same task.',
        reasonSentence: { key: 'error.library.sameTaskSidecar' },
      },
      {
        path: '2024/02/newer/pictor.json',
        reason: 'The sidecar was written by a newer version of Pictor (format 2).',
        reasonSentence: { key: 'error.library.sidecarNewer', params: { format: '2' } },
      },
      {
        path: '2024/02/not-json/pictor.json',
        reason: 'The sidecar is not valid JSON.',
        reasonSentence: { key: 'error.library.sidecarNotJson' },
      },
      {
        path: '2024/02/other-app/pictor.json',
        reason: 'The file is not a Pictor sidecar.',
        reasonSentence: { key: 'error.library.notASidecar' },
      },
      {
        path: '2099/older/pictor.json',
        reason: expect.stringMatching(/same task/),
        reasonSentence: { key: 'error.library.sameTaskSidecar' },
      },
    ]);
    expect(records[0]?.folder).toBe(good.folder);
  });

  it('keeps the task from a valid copy when a newer copy of it is invalid', async () => {
    const good = await savedTask();
    await fixture.gallery.writeSidecar(good);
    // Newer, so it ranks first, but its record is not valid: the original is used instead.
    await writeRaw(
      '2024/03/newer-but-broken',
      JSON.stringify({
        app: 'pictor',
        version: 1,
        record: { ...good, updatedAt: good.updatedAt + 1_000, status: 'exploded' },
      }),
    );
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records.map((record) => record.localId)).toEqual([good.localId]);
    expect(records[0]?.folder).toBe(good.folder);
    expect(skipped).toEqual([
      {
        path: '2024/03/newer-but-broken/pictor.json',
        reason: expect.stringMatching(/not valid \(status: /),
        reasonSentence: {
          key: 'error.library.recordInvalid',
          params: { detail: expect.stringMatching(/^status: /) },
        },
      },
    ]);
  });

  it('prefers the most recently updated copy of a task', async () => {
    const good = await savedTask();
    await fixture.gallery.writeSidecar(good);
    await writeRaw(
      '2024/02/copy',
      JSON.stringify({
        app: 'pictor',
        version: 1,
        record: { ...good, updatedAt: good.updatedAt + 1 },
      }),
    );
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records.map((record) => record.folder)).toEqual(['2024/02/copy']);
    expect(skipped).toEqual([
      {
        path: `${good.folder}/pictor.json`,
        reason: expect.stringMatching(/same task/),
        reasonSentence: { key: 'error.library.sameTaskSidecar' },
      },
    ]);
  });

  it('asks the root’s real path once, not again for each file it opens', async () => {
    for (let n = 0; n < 3; n += 1) await fixture.gallery.writeSidecar(await savedTask());
    // Each task opens its sidecar twice and its two images once: 12 opens, each checked against
    // the one real path asked at the start (open-inside.ts asks per open when given none).
    const asked = vi.spyOn(promises, 'realpath');
    try {
      const { records } = await rebuildLibrary(fixture.intake);
      expect(records.flatMap((record) => record.images.map((image) => image.state))).toEqual(
        Array(6).fill('saved'),
      );
      expect(asked.mock.calls.filter(([path]) => path === fixture.root)).toHaveLength(1);
    } finally {
      asked.mockRestore();
    }
  });

  it('turns images whose file is missing into pending (with a URL) or invalid (without)', async () => {
    const record = await savedTask();
    const withoutUrl = {
      ...record,
      images: [record.images[0]!, { ...record.images[1]!, url: null }],
    };
    await fixture.gallery.writeSidecar(withoutUrl);
    await rm(fixture.gallery.resolve(record.images[0]!.file!));
    await rm(fixture.gallery.resolve(record.images[1]!.file!));
    const [rebuilt] = (await rebuildLibrary(fixture.intake)).records;
    expect(rebuilt?.images[0]).toMatchObject({ state: 'pending', url: record.images[0]!.url });
    expect(rebuilt?.images[0]?.file).toBeUndefined();
    expect(rebuilt?.images[1]).toMatchObject({
      state: 'invalid',
      url: null,
      error: expect.stringMatching(/missing/),
    });
  });

  it('keeps expired and invalid images as they were, without the file’s words for why', async () => {
    const record = makeRecord([`${fixture.server.baseUrl}/gone`, null]);
    const [gone, noUrl] = record.images as [ImageRecord, ImageRecord];
    record.images[0] = { ...gone, state: 'expired', error: 'Gone.' };
    record.images[1] = { ...noUrl, state: 'invalid', error: 'No URL.' };
    await fixture.gallery.writeSidecar(record);
    const [rebuilt] = (await rebuildLibrary(fixture.intake)).records;
    // Pictor would show those words as its own (file-words.ts): the states stay, the words go.
    expect(rebuilt?.images).toEqual([
      { ...gone, state: 'expired' },
      { ...noUrl, state: 'invalid' },
    ]);
  });

  it('follows a task folder the user moved, and finds files a crash left unrecorded', async () => {
    const record = await savedTask();
    // The sidecar was written before the downloads finished (images still pending).
    const pending = makeRecord([record.images[0]!.url, record.images[1]!.url], {
      localId: record.localId,
      createdAt: record.createdAt,
      folder: record.folder,
    });
    await fixture.gallery.writeSidecar(pending);
    const moved = join(fixture.root, 'my albums', 'lighthouse');
    await mkdir(dirname(moved), { recursive: true });
    await rename(fixture.gallery.resolve(record.folder!), moved);
    const [rebuilt] = (await rebuildLibrary(fixture.intake)).records;
    expect(rebuilt?.folder).toBe('my albums/lighthouse');
    expect(rebuilt?.images[0]).toMatchObject({
      state: 'saved',
      file: 'my albums/lighthouse/image-1.png',
      thumbnail: 'my albums/lighthouse/.thumbs/image-1.webp',
      width: 64,
      height: 48,
      mime: 'image/png',
      bytes: record.images[0]!.bytes,
    });
    expect(rebuilt?.images[1]).toMatchObject({
      state: 'saved',
      file: 'my albums/lighthouse/image-2.jpg',
      mime: 'image/jpeg',
    });
  });
});

describe('init', () => {
  it('creates the root and .pictor-tmp, and removes every leftover temp file', async () => {
    const fresh = join(fixture.root, 'new', 'gallery');
    const { gallery: other } = galleryOnServer(fresh);
    expect(await other.init()).toEqual({ removedTempFiles: 0 });
    await writeFile(join(fresh, '.pictor-tmp', 'abc.part'), 'half an image');
    await writeFile(join(fresh, '.pictor-tmp', 'def.thumb.part'), 'half a thumbnail');
    await writeFile(join(fresh, 'keep.txt'), 'the user’s file');
    expect(await other.init()).toEqual({ removedTempFiles: 2 });
    expect(await tempFiles(fresh)).toEqual([]);
    expect(await readFile(join(fresh, 'keep.txt'), 'utf8')).toBe('the user’s file');
  });
});
