/**
 * The lineage outlives the library's moves: an export carries the input files its tasks' edits
 * were made from (each once), an import into a fresh library restores them into its input store
 * and the stack is the same there; a crafted source's input (bytes that do not match its name, a
 * name that is not a digest, a link) is refused alone with a sentence. `rebuild` from the folder
 * keeps `request.inputs` and the stack, does not take `inputs/` for tasks, and a missing input
 * file leaves the record readable, "Run again" then refusing with the store's sentence.
 */
import { readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputImage } from '../../../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { rebuildFromFolder } from '../../../../../electron/core/library/rebuild';
import { InputStore } from '../../../../../electron/core/inputs/input-store';
import { imageStack } from '../../../../../electron/core/lineage/image-stack';
import { HistoryStore } from '../../../../../electron/core/history/history-store';
import { makeImage } from '../../../../support/gallery-helpers';
import { addTask, useLibraries, type Library } from './library-fixture';

const library = useLibraries();

/** A parent task, and two edits of its image (the input kept once in the store), and a plain task. */
async function lineage(from: Library) {
  const parent = await addTask(from, ['png']);
  const store = new InputStore({ root: from.root });
  const source = await store.put(await readFile(join(from.root, parent.images[0]!.file!)));
  const reference = await store.put(await makeImage('webp', 20, 20));
  const inputs = (extra: object = {}) => ({
    operation: 'edit' as const,
    source,
    parent: { localId: parent.localId, index: 0 },
    ...extra,
  });
  const edit = await addTask(from, ['png'], {
    request: { prompt: 'make it night', inputs: inputs({ references: [reference] }) },
  });
  const upscale = await addTask(from, ['png'], {
    request: {
      prompt: 'larger',
      inputs: {
        ...inputs({ operation: 'upscale', factor: 2 }),
        parent: { localId: edit.localId, index: 0 },
      },
    },
  });
  await addTask(from, ['png']);
  return { parent, edit, upscale, source, reference };
}

function stackIds(history: HistoryStore, record: TaskRecord) {
  const stack = imageStack(history, { localId: record.localId, index: 0 });
  return { original: stack?.original, entries: stack?.entries.map((entry) => entry.localId) };
}

const inputFiles = async (root: string) => (await readdir(join(root, 'inputs'))).sort();

describe('an export and import', () => {
  it('carries each input file once and keeps the stack in a fresh library', async () => {
    const from = await library();
    const { parent, edit, upscale, source, reference } = await lineage(from);
    const target = join(from.dir, 'lineage.zip');
    const summary = await exportLibrary({
      root: from.root,
      history: from.history,
      target,
      pictorVersion: '9',
    });
    expect(summary).toMatchObject({ tasks: 4, images: 4, skipped: [] });

    const to = await library();
    const result = await importLibrary({ intake: to.intake, history: to.history, source: target });
    expect(result).toMatchObject({ addedTasks: 4, refused: [] });
    expect(await inputFiles(to.root)).toEqual(
      [`${source.sha256}.png`, `${reference.sha256}.webp`].sort(),
    );
    const store = new InputStore({ root: to.root });
    expect(
      (await store.read(source)).equals(await new InputStore({ root: from.root }).read(source)),
    ).toBe(true);
    expect(to.history.get(upscale.localId)!.request.inputs).toEqual(upscale.request.inputs);
    const expected = {
      original: { kind: 'library', localId: parent.localId, index: 0 },
      entries: [parent.localId, edit.localId, upscale.localId],
    };
    for (const record of [parent, edit, upscale])
      expect(stackIds(to.history, record)).toEqual(expected);
  });

  it('names an input the library lacks and exports its task without it', async () => {
    const from = await library();
    const { edit, reference } = await lineage(from);
    await rm(join(from.root, 'inputs', `${reference.sha256}.webp`));
    const target = join(from.dir, 'missing.zip');
    const summary = await exportLibrary({
      root: from.root,
      history: from.history,
      target,
      pictorVersion: '9',
    });
    expect(summary.tasks).toBe(4);
    expect(summary.skipped.map((item) => [item.path, item.reasonSentence?.key])).toEqual([
      [`inputs/${reference.sha256}.webp`, 'error.lineage.inputMissing'],
    ]);
    const to = await library();
    await importLibrary({ intake: to.intake, history: to.history, source: target });
    expect(to.history.get(edit.localId)!.request.inputs?.references).toEqual([reference]);
  });

  it('refuses a crafted input alone, with a sentence, and loses nothing else', async () => {
    const from = await library();
    const { parent, edit, source, reference } = await lineage(from);
    const other = await makeImage('png', 9, 9);
    const inputs = join(from.root, 'inputs');
    // Bytes that are not those of the digest they are named by.
    await writeFile(join(inputs, `${'ab'.repeat(32)}.png`), other);
    // A name that is not a digest, a link out of the folder, a PNG named as a WebP.
    await writeFile(join(inputs, 'holiday.png'), other);
    await symlink('/etc/hostname', join(inputs, `${'cd'.repeat(32)}.png`));
    await writeFile(
      join(inputs, `${reference.sha256}.png`),
      await readFile(join(inputs, `${reference.sha256}.webp`)),
    );
    const to = await library();
    const result = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: from.root,
    });
    expect(result.addedTasks).toBe(4);
    const refused = new Map(
      result.refused.map((item) => [item.path.split('/').pop(), item.reasonSentence?.key]),
    );
    expect(refused.get(`${'ab'.repeat(32)}.png`)).toBe('error.lineage.inputMismatch');
    expect(refused.get('holiday.png')).toBe('error.lineage.inputName');
    expect(refused.has(`${'cd'.repeat(32)}.png`)).toBe(true);
    expect(refused.get(`${reference.sha256}.png`)).toBe('error.lineage.inputNotImage');
    expect(result.refused).toHaveLength(4);
    expect(await inputFiles(to.root)).toEqual(
      [`${source.sha256}.png`, `${reference.sha256}.webp`].sort(),
    );
    expect(stackIds(to.history, edit).entries).toEqual([
      parent.localId,
      edit.localId,
      expect.any(String),
    ]);
  });
});

describe('a rebuild from the folder', () => {
  it('keeps request.inputs and the stack, and takes nothing in inputs/ for a task', async () => {
    const from = await library();
    const { parent, edit, upscale } = await lineage(from);
    const rebuilt = await rebuildFromFolder(from.root);
    expect(rebuilt.skipped).toEqual([]);
    expect(rebuilt.notes).toEqual([]);
    expect(rebuilt.records).toHaveLength(4);
    const history = HistoryStore.open(':memory:');
    try {
      history.putMany(rebuilt.records);
      expect(history.get(edit.localId)!.request.inputs).toEqual(edit.request.inputs);
      expect(stackIds(history, upscale).entries).toEqual([
        parent.localId,
        edit.localId,
        upscale.localId,
      ]);
    } finally {
      history.close();
    }
  });

  it('keeps a task whose input file is gone readable, and Run again says the input is gone', async () => {
    const from = await library();
    const { edit, source } = await lineage(from);
    await rm(join(from.root, 'inputs', `${source.sha256}.png`));
    const rebuilt = await rebuildFromFolder(from.root);
    expect(rebuilt.skipped).toEqual([]);
    const record = rebuilt.records.find((item) => item.localId === edit.localId)!;
    expect(record.request.inputs).toEqual(edit.request.inputs);
    expect(rebuilt.notes.map((note) => note.reason)).toEqual([
      expect.stringContaining(source.sha256),
      expect.stringContaining(source.sha256),
    ]);
    const gone: InputImage = record.request.inputs!.source;
    await expect(new InputStore({ root: from.root }).read(gone)).rejects.toMatchObject({
      sentence: { key: 'error.inputs.missing' },
    });
  });
});
