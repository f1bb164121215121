import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OperationCancelledError } from '../../../../../electron/core/library/archive/archive-errors';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { imageNames } from '../../../../../electron/core/gallery/gallery-layout';
import { makeImage } from '../../../../support/gallery-helpers';
import { addTask, savedImages, useLibraries, type Library } from './library-fixture';
import { filesUnder } from '../../../../support/files';

const library = useLibraries();

async function exportAll(from: Library, localIds?: string[]) {
  const target = join(from.dir, 'export.zip');
  const summary = await exportLibrary({
    root: from.root,
    history: from.history,
    target,
    pictorVersion: '9.9.9',
    ...(localIds ? { localIds } : {}),
  });
  return { target, summary };
}

describe('library export and import', () => {
  it('brings the same tasks and identical image bytes into a fresh library, and nothing the second time', async () => {
    const from = await library();
    await addTask(from, ['png', 'jpeg']);
    await addTask(from, ['webp']);
    await addTask(from, []);
    const { target, summary } = await exportAll(from);
    expect(summary).toMatchObject({ tasks: 3, images: 3, skipped: [] });

    const to = await library();
    const progress: number[] = [];
    const first = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: target,
      onProgress: (p) => progress.push(p.done),
    });
    expect(first).toMatchObject({
      addedTasks: 3,
      addedImages: 3,
      duplicateImages: 0,
      refused: [],
      cancelled: false,
    });
    expect(progress.at(-1)).toBe(3);
    expect(await savedImages(to)).toEqual(await savedImages(from));
    const records = to.history.list({ limit: 10 }).items;
    expect(records.map((r) => r.request.prompt).sort()).toEqual(
      from.history
        .list({ limit: 10 })
        .items.map((r) => r.request.prompt)
        .sort(),
    );
    expect(records.every((r) => r.imported === true)).toBe(true);

    const again = await importLibrary({ intake: to.intake, history: to.history, source: target });
    expect(again).toMatchObject({
      addedTasks: 0,
      addedImages: 0,
      duplicateTasks: 3,
      duplicateImages: 3,
    });
    expect(await savedImages(to)).toEqual(await savedImages(from));
    expect(await readdir(join(to.root, '.pictor-tmp'))).toEqual([]);
  });

  it('exports only the tasks named, and names an unknown one', async () => {
    const from = await library();
    const kept = await addTask(from, ['png']);
    await addTask(from, ['png']);
    const { target, summary } = await exportAll(from, [kept.localId, 'nobody']);
    expect(summary.tasks).toBe(1);
    expect(summary.skipped).toEqual([
      {
        path: 'nobody',
        reason: expect.stringContaining('no task'),
        reasonSentence: { key: 'error.library.exportNoTask' },
      },
    ]);
    const to = await library();
    await importLibrary({ intake: to.intake, history: to.history, source: target });
    expect([...(await savedImages(to)).keys()]).toEqual([`${kept.localId}#0`]);
  });

  it('imports a gallery folder, and gives a different image of a known task a new name', async () => {
    const from = await library();
    const task = await addTask(from, ['png']);
    const to = await library();
    await importLibrary({ intake: to.intake, history: to.history, source: from.root });
    // The same task elsewhere got another picture at the same name.
    const other = await makeImage('png', 20, 20);
    const file = task.images[0]?.file ?? '';
    await writeFile(join(from.root, ...file.split('/')), other);
    const merged = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: from.root,
    });
    expect(merged).toMatchObject({ addedTasks: 0, addedImages: 1, duplicateImages: 0 });
    const record = to.history.get(task.localId);
    expect(record?.images.map((image) => image.file?.split('/').pop())).toEqual([
      imageNames(0, 'png').image,
      imageNames(1, 'png').image,
    ]);
    const bytes = await savedImages(to);
    expect(bytes.get(`${task.localId}#1`)).toBe(other.toString('base64'));
    expect(bytes.get(`${task.localId}#0`)).not.toBe(other.toString('base64'));
  });

  it('stops when cancelled: earlier tasks stay whole, nothing half-written is left', async () => {
    const from = await library();
    for (let i = 0; i < 12; i += 1) await addTask(from, ['png', 'png']);
    const { target } = await exportAll(from);
    const to = await library();
    const controller = new AbortController();
    const summary = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: target,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 2) controller.abort();
      },
    });
    expect(summary.cancelled).toBe(true);
    // Tasks already under way when Cancel came may finish; the summary counts exactly those.
    const added = summary.addedTasks;
    expect(added).toBeGreaterThanOrEqual(2);
    // At most the four under way then finish after it.
    expect(added).toBeLessThanOrEqual(6);
    expect(to.history.count()).toBe(added);
    expect(await readdir(join(to.root, '.pictor-tmp'))).toEqual([]);
    const files = await filesUnder(to.root);
    expect(files.filter((f) => f.endsWith('.png'))).toHaveLength(2 * added);
    expect(files.filter((f) => f.endsWith('pictor.json'))).toHaveLength(added);
    expect(summary.addedImages).toBe(2 * added);
  });

  it('leaves no archive when an export is cancelled', async () => {
    const from = await library();
    for (let i = 0; i < 3; i += 1) await addTask(from, ['png']);
    const controller = new AbortController();
    const target = join(from.dir, 'cancelled.zip');
    await expect(
      exportLibrary({
        root: from.root,
        history: from.history,
        target,
        pictorVersion: '1',
        signal: controller.signal,
        onProgress: (p) => (p.done === 1 ? controller.abort() : undefined),
      }),
    ).rejects.toBeInstanceOf(OperationCancelledError);
    expect((await readdir(from.dir)).filter((name) => name.includes('cancelled'))).toEqual([]);
  });
});
