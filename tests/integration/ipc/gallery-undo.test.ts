/**
 * Delete with Undo, and the gallery selection's actions, over the real core: images the demo
 * service made on loopback, saved by the real gallery, deleted into `.pictor-trash`, restored,
 * sent on to the (recording) system trash when the time to undo ends or the gallery moves, and
 * exported into a folder main's dialog gave.
 */
import { existsSync, lstatSync } from 'node:fs';
import { readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TrashJournal } from '../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../electron/core/trash/trash-operations';
import { TRASH_DIR } from '../../../electron/core/trash/gallery-trash';
import { galleryHandlers } from '../../../electron/ipc/gallery-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import {
  MAX_SELECT_ALL,
  type EventChannel,
  type RequestOutput,
  type Result,
} from '../../../shared/ipc/contract';
import { ManualClock } from '../../fakes/manual-clock';
import { DONE_AT_FIRST_POLL, coreAgainstDemo } from '../core/core-harness';
import { ipcCaller } from '../../support/ipc';
import { UNTIL } from '../../support/waits';
import { TempFolders, removeFolder } from '../../support/temp-folders';

const KEEP_MS = 60_000;
const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

async function galleryWithImages(count: number) {
  const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  h.core.engine.start();
  const records = await h.core.engine.submit(
    { prompt: 'undo test', size: '96x64' },
    h.target,
    count,
  );
  await h.core.engine.whenSettled(records.map((r) => r.localId));
  const systemTrashed: string[] = [];
  // No shell action is asked in these tests: the deletes go through the trash alone.
  const shell = {} as ShellActions;
  const sendToSystemTrash = async (file: string): Promise<void> => {
    systemTrashed.push(basename(file));
    await rm(file);
  };
  const clock = new ManualClock();
  const trash = new TrashOperations({
    journal: new TrashJournal(await dirs.make('journal')),
    core: h.core,
    sendToSystemTrash,
    clock,
    keepMs: KEEP_MS,
  });
  const emitted: [EventChannel, unknown][] = [];
  const exportTo: (string | null)[] = [];
  const handlers = galleryHandlers({
    core: h.core,
    shell,
    chooseExportFolder: async () => exportTo.shift() ?? null,
    emit: (channel, payload) => emitted.push([channel, payload]),
    trash,
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  const refs = records.map((record) => ({ localId: record.localId, index: 0 }));
  const fileOf = (n: number) => {
    const image = h.core.engine.get(records[n]!.localId)!.images[0]!;
    return { file: image.file, path: image.file ? h.core.gallery.resolve(image.file) : null };
  };
  return { h, refs, call, clock, systemTrashed, emitted, exportTo, trash, fileOf };
}

describe('delete with Undo over the real core', () => {
  it('restores the file, thumbnail and record; the listing shows the image again', async () => {
    const g = await galleryWithImages(2);
    const before = g.fileOf(0);
    const bytes = await readFile(before.path!);
    expect((await g.call('gallery:deleteImage', g.refs[0])).ok).toBe(true);
    expect(existsSync(before.path!)).toBe(false);
    expect(await g.call('gallery:list', {})).toMatchObject({ value: { items: [{}] } });

    const undone = await g.call('gallery:undoDelete', { images: [g.refs[0]] });
    expect(undone).toMatchObject({
      ok: true,
      value: { failed: 0, items: [{ record: { images: [{ state: 'saved' }] } }] },
    });
    expect(g.fileOf(0).file).toBe(before.file);
    expect((await readFile(before.path!)).equals(bytes)).toBe(true);
    const thumbnail = g.h.core.engine.get(g.refs[0]!.localId)!.images[0]!.thumbnail!;
    expect(existsSync(g.h.core.gallery.resolve(thumbnail))).toBe(true);
    expect(await g.call('gallery:list', {})).toMatchObject({ value: { items: [{}, {}] } });
    expect(g.emitted).toContainEqual(['gallery:changed', { reason: 'restored' }]);
    expect(g.systemTrashed).toEqual([]);
  });

  it('an Undo while the delete runs stops it: every image is back, the delete says canceled', async () => {
    const g = await galleryWithImages(8);
    const paths = g.refs.map((_, n) => g.fileOf(n).path!);
    let changes = 0;
    let undo: Promise<Result<RequestOutput<'gallery:undoDelete'>>> | null = null;
    const watching = g.h.core.engine.onDidUpdate(() => {
      changes += 1;
      if (changes === 3) undo = g.call('gallery:undoDelete', { images: g.refs });
    });
    const deleted = await g.call('gallery:deleteImages', { images: g.refs });
    watching.dispose();
    expect(deleted).toMatchObject({ ok: true, value: { canceled: true, failed: 0 } });
    const undone = await undo!;
    expect(undone).toMatchObject({ ok: true, value: { failed: 0 } });
    expect(undone.ok && undone.value.items).toHaveLength(8);
    expect(paths.every((path) => existsSync(path))).toBe(true);
    expect(g.refs.map((ref) => g.h.core.engine.get(ref.localId)!.images[0]!.state)).toEqual(
      Array(8).fill('saved'),
    );
    expect(g.emitted).toContainEqual(['gallery:changed', { reason: 'restored' }]);
    expect(g.emitted).not.toContainEqual(['gallery:changed', { reason: 'deleted' }]);
    expect(g.systemTrashed).toEqual([]);
  });

  it('sends the image to the system trash when the time to undo ends; Undo then says so', async () => {
    const g = await galleryWithImages(1);
    await g.call('gallery:deleteImage', g.refs[0]);
    await g.clock.advance(KEEP_MS);
    await vi.waitFor(() => expect(g.systemTrashed).toHaveLength(1), UNTIL);
    const late = await g.call('gallery:undoDelete', { images: [g.refs[0]] });
    expect(late).toMatchObject({ ok: true, value: { items: [], failed: 1 } });
    expect(late.ok && late.value.problem).toMatch(/no longer be restored/);
  });

  it('deletes and restores a selection in one request each', async () => {
    const g = await galleryWithImages(3);
    const deleted = await g.call('gallery:deleteImages', { images: g.refs });
    expect(deleted).toMatchObject({ ok: true, value: { failed: 0 } });
    expect(deleted.ok && deleted.value.items).toHaveLength(3);
    expect(await g.call('gallery:list', {})).toMatchObject({ value: { items: [] } });
    const restored = await g.call('gallery:undoDelete', { images: g.refs });
    expect(restored.ok && restored.value.items).toHaveLength(3);
    expect(await g.call('gallery:list', {})).toMatchObject({ value: { items: [{}, {}, {}] } });
  });

  it('never overwrites on restore: a file at the old name stays, the image comes back beside it', async () => {
    const g = await galleryWithImages(1);
    const before = g.fileOf(0);
    await g.call('gallery:deleteImage', g.refs[0]);
    await writeFile(before.path!, 'a file the user put there');
    const restored = await g.call('gallery:undoDelete', { images: [g.refs[0]] });
    expect(restored).toMatchObject({ ok: true, value: { failed: 0 } });
    const now = g.fileOf(0);
    expect(now.file).not.toBe(before.file);
    expect(now.file).toMatch(/-restored-1\.png$/);
    expect(await readFile(before.path!, 'utf8')).toBe('a file the user put there');
    expect(await g.call('gallery:list', {})).toMatchObject({
      value: { items: [{ image: { state: 'saved', file: now.file } }] },
    });
  });

  it('never goes through a link in place of the trash folder', async () => {
    const g = await galleryWithImages(1);
    const outside = await dirs.make('outside');
    const trashDir = join(g.h.core.gallery.root, TRASH_DIR);
    await removeFolder(trashDir);
    await symlink(outside, trashDir);
    expect((await g.call('gallery:deleteImage', g.refs[0])).ok).toBe(true);
    expect(lstatSync(trashDir).isSymbolicLink()).toBe(false);
    expect(await readdir(outside)).toEqual([]);
    expect((await g.call('gallery:undoDelete', { images: [g.refs[0]] })).ok).toBe(true);
    expect(existsSync(g.fileOf(0).path!)).toBe(true);
  });

  it('restores after the task folder was removed, and refuses through a folder made a link', async () => {
    const g = await galleryWithImages(2);
    const first = g.fileOf(0).path!;
    await g.call('gallery:deleteImages', { images: g.refs });
    const second = g.h.core.gallery.resolve(g.h.core.engine.get(g.refs[1]!.localId)!.folder ?? '');
    // The engine writes the sidecars after the edit: wait for both, so none is in flight.
    for (const folder of [dirname(first), second]) {
      await vi.waitFor(
        async () =>
          expect(await readFile(join(folder, 'pictor.json'), 'utf8')).toContain('"deleted"'),
        UNTIL,
      );
    }
    // Task 1's folder is gone; task 2's folder is now a link to somewhere else.
    await rm(dirname(first), { recursive: true });
    const outside = await dirs.make('outside');
    await rm(second, { recursive: true });
    await symlink(outside, second);
    const restored = await g.call('gallery:undoDelete', { images: g.refs });
    expect(restored).toMatchObject({ ok: true, value: { failed: 1 } });
    expect(restored.ok && restored.value.problem).toMatch(/link/);
    expect(existsSync(first)).toBe(true);
    expect(await readdir(outside)).toEqual([]);
  });

  it('emptied early (as before the gallery changes folder, see wire-app.test.ts), Undo then says so', async () => {
    const g = await galleryWithImages(1);
    await g.call('gallery:deleteImage', g.refs[0]);
    await g.trash.empty();
    expect(g.systemTrashed).toHaveLength(1);
    const late = await g.call('gallery:undoDelete', { images: [g.refs[0]] });
    expect(late).toMatchObject({ ok: true, value: { failed: 1 } });
  });

  it('refuses refs it does not know and inputs out of bounds', async () => {
    const g = await galleryWithImages(1);
    expect(
      await g.call('gallery:deleteImages', { images: [{ localId: 'nope', index: 0 }] }),
    ).toMatchObject({ ok: true, value: { items: [], failed: 1 } });
    const refused = { ok: false, error: { code: 'bad_input' } };
    for (const input of [
      { images: [] },
      { images: [{ ...g.refs[0], path: '/etc/passwd' }] },
      { images: [g.refs[0]], folder: '/tmp' },
    ]) {
      expect(await g.call('gallery:deleteImages', input)).toMatchObject(refused);
      expect(await g.call('gallery:exportImages', input)).toMatchObject(refused);
    }
    // A delete takes a chunk at most; an export takes a whole "Select all" in one dialog.
    const many = (count: number) => ({ images: Array.from({ length: count }, () => g.refs[0]) });
    expect(await g.call('gallery:deleteImages', many(501))).toMatchObject(refused);
    expect(await g.call('gallery:exportImages', many(MAX_SELECT_ALL + 1))).toMatchObject(refused);
    expect(existsSync(g.fileOf(0).path!)).toBe(true);
  });
});

describe('exporting a selection', () => {
  it('copies the chosen images into the folder main asked for, never over a file there', async () => {
    const g = await galleryWithImages(2);
    const folder = await dirs.make('export');
    g.exportTo.push(folder, folder, null);
    const first = await g.call('gallery:exportImages', { images: g.refs });
    expect(first).toEqual({ ok: true, value: { folder, copied: 2, failed: 0 } });
    const names = (await readdir(folder)).sort();
    expect(names).toHaveLength(2);
    const original = await readFile(g.fileOf(0).path!);
    const copies = await Promise.all(names.map((name) => readFile(join(folder, name))));
    expect(copies.some((copy) => copy.equals(original))).toBe(true);
    // Again: new names beside the first copies, which stay as they were.
    const again = await g.call('gallery:exportImages', { images: [g.refs[0]] });
    expect(again).toMatchObject({ ok: true, value: { copied: 1 } });
    expect(await readdir(folder)).toHaveLength(3);
    expect((await readFile(join(folder, names[0]!))).length).toBeGreaterThan(0);
    // A cancelled dialog copies nothing.
    expect(await g.call('gallery:exportImages', { images: g.refs })).toEqual({
      ok: true,
      value: { folder: null, copied: 0, failed: 0 },
    });
  });

  it('does not follow a gallery file replaced by a link', async () => {
    const g = await galleryWithImages(1);
    const outside = await dirs.make('outside');
    await writeFile(join(outside, 'secret.png'), 'not an image of the gallery');
    const path = g.fileOf(0).path!;
    await rm(path);
    await symlink(join(outside, 'secret.png'), path);
    const folder = await dirs.make('export');
    g.exportTo.push(folder);
    expect(await g.call('gallery:exportImages', { images: g.refs })).toEqual({
      ok: true,
      value: { folder, copied: 0, failed: 1 },
    });
    expect(await readdir(folder)).toEqual([]);
  });
});
