/**
 * A task's seed travels with its record: through a library archive's export and import, and
 * back from the gallery folder's sidecars by a rebuild. A task without one comes back without
 * one; a sidecar whose seed is damaged comes back as its task, without the seed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { rebuildFromFolder } from '../../../../../electron/core/library/rebuild';
import { addTask, importInto, useLibraries, type Library } from './library-fixture';

const library = useLibraries();

async function exported(from: Library): Promise<string> {
  const target = join(from.dir, 'export.zip');
  await exportLibrary({ root: from.root, history: from.history, target, pictorVersion: '9.9.9' });
  return target;
}

const seedsOf = (records: readonly { localId: string; seed?: number }[]) =>
  Object.fromEntries(records.map((record) => [record.localId, record.seed ?? null]));

describe('a task’s seed', () => {
  it('goes through an archive’s export and import, and stays absent where there was none', async () => {
    const from = await library();
    const seeded = await addTask(from, ['png'], { seed: Number.MAX_SAFE_INTEGER });
    const plain = await addTask(from, ['png']);
    const to = await library();
    const summary = await importInto(to, await exported(from));
    expect(summary).toMatchObject({ addedTasks: 2, refused: [] });
    const records = to.history.list({ limit: 10 }).items;
    expect(seedsOf(records)).toEqual({
      [seeded.localId]: Number.MAX_SAFE_INTEGER,
      [plain.localId]: null,
    });
    // The imported task's own sidecar says it too.
    const record = to.history.get(seeded.localId);
    const sidecar = await readFile(join(to.root, record!.folder!, 'pictor.json'), 'utf8');
    expect(JSON.parse(sidecar)).toMatchObject({ record: { seed: Number.MAX_SAFE_INTEGER } });
  });

  it('comes back from the sidecars by a rebuild', async () => {
    const from = await library();
    const seeded = await addTask(from, ['png'], { seed: 12_345 });
    const plain = await addTask(from, ['webp']);
    const { records } = await rebuildFromFolder(from.root);
    expect(seedsOf(records)).toEqual({ [seeded.localId]: 12_345, [plain.localId]: null });
  });

  it('is dropped from a sidecar that damaged it; the task is rebuilt and imported without it', async () => {
    const from = await library();
    const seeded = await addTask(from, ['png'], { seed: 77 });
    const path = join(from.root, seeded.folder!, 'pictor.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"seed": 77', '"seed": 7.5'));
    const { records, skipped } = await rebuildFromFolder(from.root);
    expect(skipped).toEqual([]);
    expect(records.map((record) => [record.localId, record.seed])).toEqual([
      [seeded.localId, undefined],
    ]);
    const to = await library();
    // The archive carries the history's record, whose seed was never damaged; the folder's
    // own sidecar is what a rebuild of it reads.
    await importInto(to, await exported(from));
    expect(to.history.get(seeded.localId)?.seed).toBe(77);
    const folder = await library();
    const fromFolder = await importInto(folder, from.root);
    expect(fromFolder).toMatchObject({ addedTasks: 1, refused: [] });
    expect(folder.history.get(seeded.localId)).not.toHaveProperty('seed');
  });
});
