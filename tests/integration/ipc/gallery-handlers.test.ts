import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readOwnTriage } from '../../../electron/core/gallery/metadata/xmp-own-triage';
import { xmpSidecarOf } from '../../../electron/core/gallery/metadata/xmp-sidecar-sync';
import { TRASH_DIR } from '../../../electron/core/trash/gallery-trash';
import { galleryHandlers } from '../../../electron/ipc/gallery-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import type { EventChannel } from '../../../shared/ipc/contract';
import { DONE_AT_FIRST_POLL, coreAgainstDemo } from '../core/core-harness';
import { trashFixture } from '../../support/trash-fixture';
import { ipcCaller } from '../../support/ipc';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** A shell that records what it was asked. */
function recordingShell() {
  const calls: [string, string][] = [];
  const ok = async (name: string, file: string) => {
    calls.push([name, file]);
    return { ok: true as const, value: undefined };
  };
  const shell: ShellActions = {
    reveal: (file) => ok('reveal', file),
    copyImage: (file) => ok('copy', file),
    chooseSaveAsFile: async (file) => {
      calls.push(['saveAs', file]);
      return { ok: true, value: null };
    },
    startDrag: (_sender, file) => ok('drag', file),
    openExternal: (url) => ok('external', url),
    openGalleryFolder: () => ok('openGallery', ''),
    openLogsFolder: () => ok('openLogs', ''),
  };
  return { shell, calls };
}

async function galleryWithImages(count: number) {
  const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  h.core.engine.start();
  const records = await h.core.engine.submit(
    { prompt: 'gallery handler test', size: '96x64' },
    h.target,
    count,
  );
  await h.core.engine.whenSettled(records.map((r) => r.localId));
  const { shell, calls } = recordingShell();
  const fixture = trashFixture(h.core, h.dir);
  const emitted: [EventChannel, unknown][] = [];
  const handlers = galleryHandlers({
    core: h.core,
    shell,
    chooseExportFolder: async () => null,
    emit: (channel, payload) => emitted.push([channel, payload]),
    trash: fixture.trash,
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  return { h, records, calls, emitted, call, systemTrashed: fixture.systemTrashed };
}

describe('gallery IPC handlers over the real core', () => {
  it('lists saved images newest first and filters by favourite', async () => {
    const g = await galleryWithImages(2);
    const listed = await g.call('gallery:list', {});
    expect(listed).toMatchObject({
      ok: true,
      value: { items: [{ image: { state: 'saved', width: 96 } }, {}] },
    });
    const [first] = g.records;
    // A pick, as the page's P and selection bar make it (core/triage).
    const picked = await g.h.core.triage.apply([{ localId: first!.localId, index: 0 }], {
      kind: 'flag',
      flag: 'pick',
    });
    // The change answers at its commit; the task is announced (its sidecar asked for) after.
    await picked.announced;
    expect(g.h.core.engine.get(first!.localId)?.images[0]?.favourite).toBe(true);
    expect(await g.call('gallery:list', { favourite: true })).toMatchObject({
      ok: true,
      value: { items: [{ localId: first!.localId }] },
    });
    // The image's XMP sidecar follows (a triage edit writes it, not pictor.json), so a rebuild
    // from the folder keeps the favourite.
    await g.h.core.engine.stop();
    const image = g.h.core.engine.get(first!.localId)!.images[0]!;
    const xmp = readFileSync(g.h.core.gallery.resolve(xmpSidecarOf(image)!), 'utf8');
    expect(readOwnTriage(xmp)).toMatchObject({ favourite: true });
  });

  it('lists every model in the gallery for the model filter', async () => {
    const g = await galleryWithImages(1);
    const [extra] = await g.h.core.engine.submit(
      {
        prompt: 'another model',
        model: 'zeta-2',
        size: '64x64',
      },
      g.h.target,
    );
    await g.h.core.engine.whenSettled([extra!.localId]);
    const models = await g.call('gallery:models');
    // The models the service reported: the demo's default for the task that asked for none.
    expect(models).toEqual({ ok: true, value: ['sketch-image-1', 'zeta-2'] });
  });

  it('reads the count, the models and Select all in the history worker, never on main’s connection', async () => {
    const g = await galleryWithImages(2);
    // Main's own store must not be asked: at 2.5 million images these walks take 0.3 s and 0.9 s.
    const onMain = (name: string) => () => {
      throw new Error(`${name} read on main's thread`);
    };
    vi.spyOn(g.h.core.history, 'countImages').mockImplementation(onMain('countImages'));
    vi.spyOn(g.h.core.history, 'imageModels').mockImplementation(onMain('imageModels'));
    vi.spyOn(g.h.core.history, 'imageKeys').mockImplementation(onMain('imageKeys'));
    expect(await g.call('gallery:count', {})).toEqual({ ok: true, value: 2 });
    expect(await g.call('gallery:count', { model: 'no-such-model' })).toEqual({
      ok: true,
      value: 0,
    });
    expect(await g.call('gallery:models')).toEqual({ ok: true, value: ['sketch-image-1'] });
    const selected = await g.call('gallery:selectAll', {});
    expect(selected.ok && selected.value.total).toBe(2);
    // Both images, in the gallery's order (the two tasks may share a time: the order then breaks ties).
    const listed = await g.call('gallery:list', {});
    const order = listed.ok
      ? listed.value.items.map(({ localId, index }) => ({ localId, index }))
      : [];
    expect(order.map((ref) => ref.localId).sort()).toEqual(g.records.map((r) => r.localId).sort());
    expect(selected.ok && selected.value.images).toEqual(order);
  });

  it('has the worker walk the order a first page or a page by position lists, not a next page', async () => {
    const g = await galleryWithImages(2);
    const positions = vi.spyOn(g.h.core.libraryReads, 'positions');
    const listed = await g.call('gallery:list', { sort: 'oldest', limit: 1 });
    expect(positions).toHaveBeenCalledTimes(1);
    expect(positions.mock.calls[0]?.[0]).toMatchObject({ sort: 'oldest', states: VISIBLE_STATES });
    expect(await positions.mock.results[0]?.value).toBe(true);
    await g.call('gallery:list', { sort: 'oldest', offset: 1, limit: 1 });
    expect(positions).toHaveBeenCalledTimes(2);
    const cursor = listed.ok ? listed.value.nextCursor : null;
    expect(cursor).not.toBeNull();
    await g.call('gallery:list', { sort: 'oldest', limit: 1, cursor });
    expect(positions).toHaveBeenCalledTimes(2);
  });

  it('deletes to the gallery trash: file and thumbnail gone, record says deleted, listing hides it', async () => {
    const g = await galleryWithImages(1);
    const [record] = g.records;
    const saved = g.h.core.engine.get(record!.localId)!.images[0]!;
    const file = g.h.core.gallery.resolve(saved.file!);
    const thumbnail = g.h.core.gallery.resolve(saved.thumbnail!);
    const result = await g.call('gallery:deleteImage', { localId: record!.localId, index: 0 });
    expect(result).toMatchObject({
      ok: true,
      value: { record: { images: [{ state: 'deleted' }] } },
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(thumbnail)).toBe(false);
    // Held for Undo inside the gallery; the system trash gets it later (gallery-undo.test.ts).
    expect(existsSync(join(g.h.core.gallery.root, TRASH_DIR))).toBe(true);
    expect(g.systemTrashed).toEqual([]);
    expect(g.emitted).toContainEqual(['gallery:changed', { reason: 'deleted' }]);
    expect(await g.call('gallery:list', {})).toMatchObject({ ok: true, value: { items: [] } });
    expect(await g.call('gallery:reveal', { localId: record!.localId, index: 0 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('never removes a thumbnail through a link: a .thumbs folder swapped for a link keeps the outside file', async () => {
    const g = await galleryWithImages(1);
    const [record] = g.records;
    const saved = g.h.core.engine.get(record!.localId)!.images[0]!;
    const thumbnail = g.h.core.gallery.resolve(saved.thumbnail!);
    const outside = await tempFolder('outside');
    const victim = join(outside, basename(thumbnail));
    await writeFile(victim, 'not Pictor’s');
    await rm(dirname(thumbnail), { recursive: true });
    await symlink(outside, dirname(thumbnail));
    const result = await g.call('gallery:deleteImage', { localId: record!.localId, index: 0 });
    expect(result).toMatchObject({
      ok: true,
      value: { record: { images: [{ state: 'deleted' }] } },
    });
    expect(await readFile(victim, 'utf8')).toBe('not Pictor’s');
    await removeFolder(outside);
  });

  it('passes resolved gallery paths to reveal, copy, save as and drag', async () => {
    const g = await galleryWithImages(1);
    const [record] = g.records;
    const file = g.h.core.gallery.resolve(g.h.core.engine.get(record!.localId)!.images[0]!.file!);
    for (const channel of [
      'gallery:reveal',
      'gallery:copyImage',
      'gallery:saveAs',
      'gallery:startDrag',
    ] as const) {
      expect((await g.call(channel, { localId: record!.localId, index: 0 })).ok).toBe(true);
    }
    expect(g.calls.map(([, path]) => path)).toEqual([file, file, file, file]);
    expect(await g.call('gallery:reveal', { localId: 'nope', index: 0 })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
