/**
 * The core's rebuild (`pictor rebuild`, the library's open) and import write their records in
 * the history worker (core/history/history-writes.ts), not on the calling thread's store: main's
 * store is never asked to write them, and they are in the history when the operation ends, with
 * the triage a rebuild reads from the XMP sidecars and an archive's `pictor.json` carries.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { makeImage as makeImageFile } from '../../support/gallery-helpers';
import { makeImage, makeTask } from '../../support/task-records';
import { offlineCore, offlineDir } from '../../support/offline-core';

let dir: string;

beforeEach(async () => {
  dir = await offlineDir();
});

/** An offline core on the library in `dir`'s folder `name`. */
const open = (name: string) => offlineCore({ dir: join(dir, name) });

/** A task folder as Pictor writes one, its rating in its image's XMP sidecar. */
async function taskFolder(gallery: string) {
  const folder = '2026/01/2026-01-15_120000_harbour_abcd1234';
  await mkdir(join(gallery, folder), { recursive: true });
  await writeFile(join(gallery, folder, 'image-1.png'), await makeImageFile('png', 8, 8));
  const task = makeTask({
    localId: 'abcd1234-0000-4000-8000-000000000001',
    folder,
    images: [makeImage(0, { file: `${folder}/image-1.png`, thumbnail: undefined, rating: 4 })],
  });
  return task;
}

describe('the core’s rebuild and import', () => {
  it('write their records in the history worker, never through main’s store', async () => {
    const first = await open('a');
    const task = await taskFolder(first.gallery.root);
    await first.gallery.writeSidecar(task);
    const writes = vi.spyOn(first.history, 'putManyCounted');
    const rebuilt = await first.operations.rebuild();
    expect(rebuilt).toMatchObject({ added: 1 });
    expect(first.history.get(task.localId)?.images[0]).toMatchObject({ rating: 4 });

    const archive = join(dir, 'library.zip');
    await first.operations.exportArchive({ target: archive, pictorVersion: '9.8.7' });
    const second = await open('b');
    const imports = vi.spyOn(second.history, 'putManyCounted');
    expect(await second.operations.importArchive(archive)).toMatchObject({ addedTasks: 1 });
    expect(second.history.get(task.localId)?.images[0]).toMatchObject({ rating: 4 });

    expect(writes).not.toHaveBeenCalled();
    expect(imports).not.toHaveBeenCalled();
  });

  it('rebuild reads a gallery written before (its pictor.json holding the triage) as it did', async () => {
    const core = await open('c');
    const task = await taskFolder(core.gallery.root);
    await writeFile(join(core.gallery.root, task.folder!, 'pictor.json'), sidecarText(task));
    expect(await core.operations.rebuild()).toMatchObject({ added: 1 });
    expect(core.history.get(task.localId)?.images[0]).toMatchObject({ rating: 4 });
  });
});
