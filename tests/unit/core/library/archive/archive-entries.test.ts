/**
 * What only shows while an archive or folder is read is refused entry by entry: that image (or,
 * for a sidecar, its task) is left out with its reason, everything valid comes in, and nothing is
 * left half-written or written outside the gallery.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from '../../../../../electron/core/library/archive/archive-errors';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { filesUnder } from '../../../../support/files';
import { exportEntries, manifestFor, taskFiles, writeZip, type ExportFile } from './crafted-export';
import type { CraftedEntry } from './crafted-zip';
import { addTask, makeLibrary, useLibrary } from './library-fixture';
import { removeFolder } from '../../../../support/temp-folders';

const randomHex = (length: number) => randomBytes(length / 2).toString('hex');

const library = useLibrary();

async function run(entries: readonly CraftedEntry[]) {
  const source = await writeZip(library.dir, entries);
  return importLibrary({ intake: library.intake, history: library.history, source });
}

/** A good task beside the broken one: it must come in whatever happens to the other. */
async function withGoodTask(broken: ExportFile[], build: (all: ExportFile[]) => CraftedEntry[]) {
  const good = await taskFiles();
  const summary = await run(build([...good.files, ...broken]));
  expect(library.history.get(good.record.localId)?.images[0]?.state).toBe('saved');
  expect(await readdir(join(library.root, '.pictor-tmp'))).toEqual([]);
  return summary;
}

describe('entries refused one by one', () => {
  it('refuses an image that inflates past the size it declares; its task comes in without it', async () => {
    const { record, files } = await taskFiles();
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const declared = { ...image, data: Buffer.alloc(100) };
    const summary = await withGoodTask([sidecar], (all) => [
      ...all.map((file) => ({ name: file.path, data: file.data })),
      { name: image.path, data: Buffer.alloc(5 * 1024 * 1024, 7), uncompressedSize: 100 },
      { name: 'pictor-export.json', data: manifestFor([...all, declared]) },
    ]);
    expect(summary.refused).toEqual([
      {
        path: image.path,
        reason: expect.stringMatching(/could not be read|larger/),
        reasonSentence: expect.objectContaining({
          key: expect.stringMatching(/^error\.library\.image(Unreadable|TooLarge)$/),
        }),
      },
    ]);
    // Recorded as refused, with why: its address is not fetched for a file that failed.
    expect(library.history.get(record.localId)?.images[0]).toMatchObject({
      state: 'invalid',
      errorSentence: summary.refused[0]?.reasonSentence,
    });
    expect(
      (await filesUnder(library.root)).filter((file) => file.includes(record.folder ?? '?')),
    ).toHaveLength(1);
  });

  it('refuses an image whose bytes are not the ones the manifest lists', async () => {
    const { record, files } = await taskFiles();
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const tampered = Buffer.from(image.data);
    const at = tampered.length - 5;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 0xff, at);
    const summary = await withGoodTask([image, sidecar], (all) => [
      ...all.map((file) => ({ name: file.path, data: file === image ? tampered : file.data })),
      { name: 'pictor-export.json', data: manifestFor(all) },
    ]);
    expect(summary.refused).toEqual([
      {
        path: image.path,
        reason: expect.stringContaining('SHA-256'),
        reasonSentence: { key: 'error.library.imageShaMismatch' },
      },
    ]);
    expect(library.history.get(record.localId)?.images[0]).toMatchObject({
      state: 'invalid',
      errorSentence: { key: 'error.library.imageShaMismatch' },
    });
  });

  it('refuses a file named like an image that holds something else', async () => {
    const { files } = await taskFiles();
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const html = { ...image, data: Buffer.from('<!doctype html><script>alert(1)</script>') };
    const summary = await withGoodTask([html, sidecar], (all) => exportEntries(all));
    expect(summary.refused).toEqual([
      {
        path: image.path,
        reason: expect.stringContaining('not hold the image'),
        reasonSentence: { key: 'error.library.imageNotAsNamed' },
      },
    ]);
  });

  it.each([
    ['not JSON', '{"app": "pictor", '],
    ['not a sidecar', '{"app": "other"}'],
    [
      'a record out of bounds',
      // Random, so it does not compress like a zip bomb (refused as a whole: archive-refusals).
      JSON.stringify({ app: 'pictor', version: 1, record: { localId: randomHex(10_000) } }),
    ],
    ['from a newer Pictor', JSON.stringify({ app: 'pictor', version: 99, record: {} })],
  ])('refuses the task of a sidecar that is %s', async (_label, text) => {
    const { record, files } = await taskFiles();
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const summary = await withGoodTask([image, { ...sidecar, data: Buffer.from(text) }], (all) =>
      exportEntries(all),
    );
    expect(summary.refused.map((r) => r.path)).toEqual([sidecar.path]);
    expect(library.history.get(record.localId)).toBeUndefined();
    expect(
      (await filesUnder(library.root)).some((file) => file.includes(record.folder ?? '?')),
    ).toBe(false);
  });

  it.each([
    ['an override', 'task-\u202egnp.exe'],
    ['an isolate', '\u2066task-1\u2069'],
    ['a control character', 'task-\u0007'],
  ])('refuses the task of a sidecar whose task id holds %s', async (_label, taskId) => {
    const { record, files } = await taskFiles();
    const [image, sidecar] = files as [ExportFile, ExportFile];
    const crafted = Buffer.from(sidecarText({ ...record, taskId }));
    const summary = await withGoodTask([image, { ...sidecar, data: crafted }], (all) =>
      exportEntries(all),
    );
    expect(summary.refused.map((r) => r.path)).toEqual([sidecar.path]);
    expect(library.history.get(record.localId)).toBeUndefined();
  });

  it('refuses files that are not part of a library, or not in the manifest', async () => {
    const summary = await withGoodTask([], (all) => [
      ...exportEntries(all),
      { name: 'notes.txt', data: Buffer.from('hello') },
      { name: '2025/02/unlisted/image-1.png', data: Buffer.from('x') },
    ]);
    expect(summary.refused.map((r) => r.path).sort()).toEqual([
      '2025/02/unlisted/image-1.png',
      'notes.txt',
    ]);
  });
});

describe('a folder to import', () => {
  it('follows no link: a linked image or folder is refused, what it points at is never read', async () => {
    const from = await makeLibrary();
    try {
      const task = await addTask(from, ['png']);
      const secret = join(from.dir, 'secret');
      await mkdir(secret);
      await writeFile(join(secret, 'pictor.json'), 'not yours');
      const image = join(from.root, ...(task.images[0]?.file ?? '').split('/'));
      await removeFolder(image);
      await symlink(join(secret, 'pictor.json'), image);
      await symlink(secret, join(from.root, '2025', 'linked'));
      const summary = await importLibrary({
        intake: library.intake,
        history: library.history,
        source: from.root,
      });
      expect(summary.refused.map((r) => [r.path.split('/').pop(), r.reason])).toEqual(
        expect.arrayContaining([
          ['image-1.png', expect.stringContaining('link')],
          ['linked', expect.stringContaining('link')],
        ]),
      );
      expect(library.history.get(task.localId)?.images[0]?.state).toBe('pending');
      expect(
        (await filesUnder(library.root)).filter((file) => !file.endsWith('pictor.json')),
      ).toEqual([]);
    } finally {
      from.history.close();
      await removeFolder(from.dir);
    }
  });

  it('refuses the library itself, or a folder inside it', async () => {
    await addTask(library, ['png']);
    await expect(
      importLibrary({ intake: library.intake, history: library.history, source: library.root }),
    ).rejects.toBeInstanceOf(ArchiveRefusedError);
    await expect(
      importLibrary({
        intake: library.intake,
        history: library.history,
        source: join(library.root, '2025'),
      }),
    ).rejects.toBeInstanceOf(ArchiveRefusedError);
  });

  it('leaves a task still running in the library alone', async () => {
    const running = await addTask(library, ['png'], { status: 'processing', finishedAt: null });
    const from = await makeLibrary();
    try {
      await addTask(from, ['png'], { localId: running.localId, request: running.request });
      const summary = await importLibrary({
        intake: library.intake,
        history: library.history,
        source: from.root,
      });
      expect(summary.refused).toEqual([
        {
          path: expect.stringContaining('pictor.json'),
          reason: expect.stringContaining('in progress'),
          reasonSentence: { key: 'error.library.taskInProgress' },
        },
      ]);
      expect(library.history.get(running.localId)?.images).toHaveLength(1);
    } finally {
      from.history.close();
      await removeFolder(from.dir);
    }
  });
});

describe('tasks imported side by side', () => {
  it('imports one task met twice in an archive once, and two tasks wanting one folder into two', async () => {
    const twice = await taskFiles();
    const copy = twice.files.map((file) => ({ ...file, path: file.path.replace(/^/, 'copy/') }));
    // Two tasks whose folder names are equal: same second, same prompt, same first 8 id chars.
    const first = await taskFiles();
    const second = await taskFiles();
    const clash = (source: typeof first, localId: string) => {
      const record = {
        ...source.record,
        localId,
        createdAt: Date.UTC(2025, 5, 5),
        request: { prompt: 'Same' },
      };
      return {
        record,
        files: source.files.map((file) =>
          file.kind === 'sidecar'
            ? { ...file, taskId: localId, data: Buffer.from(sidecarText(record)) }
            : { ...file, taskId: localId },
        ),
      };
    };
    const a = clash(first, 'samesame-a');
    const b = clash(second, 'samesame-b');
    const summary = await run(
      exportEntries([
        ...twice.files,
        ...copy,
        ...a.files,
        ...b.files.map((f) => ({ ...f, path: `other/${f.path}` })),
      ]),
    );
    expect(summary).toMatchObject({
      addedTasks: 3,
      addedImages: 3,
      duplicateTasks: 1,
      duplicateImages: 1,
      refused: [],
    });
    const folders = ['samesame-a', 'samesame-b'].map((id) => library.history.get(id)?.folder);
    const base = folders.find((folder) => folder && !folder.endsWith('-2'));
    expect(base).toBeDefined();
    expect(folders.sort()).toEqual([base, `${base}-2`].sort());
  });
});
