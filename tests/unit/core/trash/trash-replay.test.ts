/**
 * What the trash journal finishes at the next start (core/trash/trash-replay.ts), each case an
 * interruption at a step of a delete or an Undo: the images come back or go on exactly as the
 * user asked, never to the system trash when an Undo was under way.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRASH_DIR } from '../../../../electron/core/trash/gallery-trash';
import { TrashJournal } from '../../../../electron/core/trash/trash-journal';
import { galleryWithImages, inTrash } from './trash-fixture';
import { testFolder } from '../../../support/per-test';

/** The journal's batch files, parsed. */
async function batches(journalDir: string) {
  const state = await new TrashJournal(journalDir).load();
  return state.batches;
}

describe('replaying the trash journal at start-up', () => {
  it('finishes an Undo cut short: every image back and saved, none to the system trash', async () => {
    const g = await galleryWithImages(3);
    await g.ops.deleteImages(g.refs);
    const [batch] = await batches(g.journalDir);
    // The Undo's journal entry was written, then the process died before any image came back.
    await new TrashJournal(g.journalDir).saveRestore({
      v: 1,
      id: '00000000-0000-4000-8000-000000000001',
      entries: batch!.entries.map((entry) => ({ batch: batch!.id, entry: entry.id })),
    });
    const next = g.open();
    await next.replay();
    for (const [n, task] of g.tasks.entries()) {
      expect(g.records.get(task.localId)!.images[0]).toEqual(task.images[0]);
      expect(await readFile(join(g.root, `task-${String(n)}`, 'image-1.png'), 'utf8')).toBe(
        `png bytes ${String(n)}`,
      );
    }
    expect(g.trashed).toEqual([]);
    expect(await inTrash(g.root)).toEqual([]);
    expect(await readdir(g.journalDir)).toEqual([]);
  });

  it('takes as done an image linked back before the cut, without a second copy', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const [batch] = await batches(g.journalDir);
    const entry = batch!.kind === 'images' ? batch!.entries[0]! : null;
    await new TrashJournal(g.journalDir).saveRestore({
      v: 1,
      id: '00000000-0000-4000-8000-000000000002',
      entries: [{ batch: batch!.id, entry: entry!.id }],
    });
    // The link back was made, the record not yet told.
    const { link } = await import('node:fs/promises');
    await link(
      join(g.root, TRASH_DIR, entry!.id, 'image-1.png'),
      join(g.root, 'task-0', 'image-1.png'),
    );
    await g.open().replay();
    expect(g.records.get(g.tasks[0]!.localId)!.images[0]!.file).toBe('task-0/image-1.png');
    expect((await readdir(join(g.root, 'task-0'))).sort()).toEqual(['.thumbs', 'image-1.png']);
    expect(g.trashed).toEqual([]);
  });

  it('sends images an earlier run held (no Undo under way) to the system trash, thumbnails removed', async () => {
    const g = await galleryWithImages(2);
    await g.ops.deleteImages(g.refs);
    const outside = await testFolder('outside');
    await writeFile(join(outside, 'keep.png'), 'not Pictor’s');
    await symlink(join(outside, 'keep.png'), join(g.root, TRASH_DIR, 'planted.png'));
    await g.open().replay();
    expect(g.trashed.map((file) => basename(file))).toEqual(['image-1.png', 'image-1.png']);
    expect(await readdir(join(g.root, TRASH_DIR))).toEqual([]);
    expect(await readFile(join(outside, 'keep.png'), 'utf8')).toBe('not Pictor’s');
    expect(await readdir(g.journalDir)).toEqual([]);
    for (const task of g.tasks)
      expect(g.records.get(task.localId)!.images[0]!.state).toBe('deleted');
  });

  it('takes back a delete cut short before its record said so: the files return', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    // As if the process died after moving the files and before writing the record.
    g.records.map.set(g.tasks[0]!.localId, g.tasks[0]!);
    await g.open().replay();
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('png bytes 0');
    expect(existsSync(join(g.root, 'task-0', '.thumbs', 'image-1.webp'))).toBe(true);
    expect(g.records.get(g.tasks[0]!.localId)).toBe(g.tasks[0]);
    expect(g.trashed).toEqual([]);
  });

  it('keeps an Undo it cannot finish yet (a folder on the way is a link) for the next start', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const [batch] = await batches(g.journalDir);
    await new TrashJournal(g.journalDir).saveRestore({
      v: 1,
      id: '00000000-0000-4000-8000-000000000003',
      entries: batch!.entries.map((entry) => ({ batch: batch!.id, entry: entry.id })),
    });
    const outside = await testFolder('outside');
    await rm(join(g.root, 'task-0'), { recursive: true });
    await symlink(outside, join(g.root, 'task-0'));
    await g.open().replay();
    expect(g.trashed).toEqual([]);
    expect(await readdir(outside)).toEqual([]);
    expect(await inTrash(g.root)).toHaveLength(2);
    expect((await readdir(g.journalDir)).length).toBe(2);
    // The link goes; the next start finishes the Undo.
    await rm(join(g.root, 'task-0'));
    await g.open().replay();
    expect(g.records.get(g.tasks[0]!.localId)!.images[0]!.state).toBe('saved');
    expect(await readFile(join(g.root, 'task-0', 'image-1.png'), 'utf8')).toBe('png bytes 0');
    expect(await readdir(g.journalDir)).toEqual([]);
  });

  it('leaves the journal of another gallery folder alone', async () => {
    const g = await galleryWithImages();
    await g.ops.deleteImages(g.refs);
    const elsewhere = await galleryWithImages();
    const other = new TrashJournal(g.journalDir);
    // The same journal folder, opened over another gallery.
    const { TrashOperations } = await import('../../../../electron/core/trash/trash-operations');
    const ops = new TrashOperations({
      journal: other,
      core: {
        engine: elsewhere.records,
        gallery: { root: elsewhere.root, resolve: (path: string) => join(elsewhere.root, path) },
      },
      sendToSystemTrash: async (file) => void elsewhere.trashed.push(file),
    });
    await ops.replay();
    expect(elsewhere.trashed).toEqual([]);
    expect(await inTrash(g.root)).toHaveLength(2);
    expect((await readdir(g.journalDir)).length).toBe(1);
  });
});
