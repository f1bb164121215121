/**
 * The Tasks screen's batch actions over the real core (SQLite history, gallery on disk) against
 * the demo service on loopback, called the way the page calls them: through runRequest, so every
 * input goes through the contract's schema first.
 */
import { lstat, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SIDECAR_NAME } from '../../../electron/core/gallery/gallery-layout';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import { MAX_IDS_PER_BATCH } from '../../../shared/domain/limits';
import { MAX_SELECT_ALL, type EventChannel } from '../../../shared/ipc/contract';
import { DONE_AT_FIRST_POLL, coreAgainstDemo } from '../core/core-harness';
import { trashFixture } from '../../support/trash-fixture';
import { ipcCaller } from '../../support/ipc';
import { offlineDir } from '../../support/offline-core';
import { UNTIL } from '../../support/waits';

/** An export's own folder, removed when the test ends. */
const exportFolder = offlineDir;

async function batchOf(count: number, demo: Parameters<typeof coreAgainstDemo>[0] = {}) {
  const h = await coreAgainstDemo({ ...DONE_AT_FIRST_POLL, ...demo });
  h.core.engine.start();
  const records = await h.core.engine.submit(
    { prompt: 'batch handler test', size: '96x64' },
    h.target,
    count,
  );
  await h.core.engine.whenSettled(records.map((record) => record.localId));
  const emitted: [EventChannel, unknown][] = [];
  /** The tasks the page was told went (in its task batches). */
  const removed: string[] = [];
  const chosen: (string | null)[] = [];
  const handlers = taskHandlers({
    core: h.core,
    chooseFolder: async () => chosen.shift() ?? null,
    emit: (channel, payload) => emitted.push([channel, payload]),
    changes: { removed: (localId) => removed.push(localId), refused: () => undefined },
    trash: trashFixture(h.core, h.dir).trash,
  }) as IpcHandlers;
  const call = ipcCaller(handlers);
  const ids = records.map((record) => record.localId);
  return { h, ids, emitted, removed, chosen, call };
}

function valueOf<T>(result: { ok: boolean; value?: unknown }): T {
  expect(result.ok).toBe(true);
  return result.value as T;
}

describe('batch ids', () => {
  it('stamps every task of one submit with the first task id, in the history and the sidecars', async () => {
    const b = await batchOf(3);
    const [first] = b.ids;
    const listed = valueOf<{ items: { record: { localId: string; batchId?: string } }[] }>(
      await b.call('tasks:list', {}),
    );
    expect(listed.items.map((item) => item.record.batchId)).toEqual([first, first, first]);
    const record = b.h.core.engine.get(b.ids[2]!)!;
    const sidecar = JSON.parse(
      await readFile(join(b.h.dir, 'gallery', record.folder!, SIDECAR_NAME), 'utf8'),
    ) as { record: { batchId?: string } };
    expect(sidecar.record.batchId).toBe(first);
    // Reopened from disk, the batch is still there.
    await b.h.core.close();
    b.h.core = await b.h.open();
    expect(b.h.core.history.get(b.ids[1]!)?.batchId).toBe(first);
  });

  it('leaves a submit of one unstamped', async () => {
    const b = await batchOf(1);
    expect(b.h.core.engine.get(b.ids[0]!)?.batchId).toBeUndefined();
  });
});

describe('batch actions', () => {
  it('stars only tasks with no image, retries what applies and removes, skipping unknown and repeated ids', async () => {
    const b = await batchOf(3);
    // Tasks with images are skipped: their pick is their images' flags (triage, with Undo).
    const skipped = valueOf<{ items: unknown[]; skipped: number }>(
      await b.call('tasks:setFavouriteMany', {
        localIds: [...b.ids, 'no-such-task', b.ids[0]],
        favourite: true,
      }),
    );
    expect(skipped).toEqual({ items: [], skipped: 4 });
    const images = b.ids.flatMap((id) => b.h.core.history.get(id)?.images ?? []);
    expect(images.length).toBeGreaterThan(0);
    expect(images.some((image) => image.favourite)).toBe(false);
    expect(b.ids.some((id) => b.h.core.history.get(id)?.favourite)).toBe(false);

    // A task that failed has no image: it keeps its own star, set and taken off.
    b.h.service.setFailureRate(1);
    const [failed] = await b.h.core.engine.submit({ prompt: 'no image' }, b.h.target);
    await b.h.core.engine.whenSettled([failed!.localId]);
    b.h.service.setFailureRate(0);
    expect(b.h.core.history.get(failed!.localId)?.status).toBe('failed');
    const starred = valueOf<{ items: { record: { favourite: boolean } }[]; skipped: number }>(
      await b.call('tasks:setFavouriteMany', {
        localIds: [failed!.localId, b.ids[0]],
        favourite: true,
      }),
    );
    expect(starred.items.map((item) => item.record.favourite)).toEqual([true]);
    expect(starred.skipped).toBe(1);
    expect(b.h.core.history.get(failed!.localId)?.favourite).toBe(true);
    await b.call('tasks:setFavouriteMany', { localIds: [failed!.localId], favourite: false });
    expect(b.h.core.history.get(failed!.localId)?.favourite).toBe(false);

    // Completed with every image saved: retry applies to none of them.
    const retried = valueOf<{ items: unknown[]; skipped: number }>(
      await b.call('tasks:retryMany', { localIds: b.ids }),
    );
    expect(retried).toEqual({ items: [], skipped: 3 });

    const removed = valueOf<{ removed: string[]; skipped: number }>(
      await b.call('tasks:removeMany', { localIds: [b.ids[0], 'no-such-task', b.ids[2]] }),
    );
    expect(removed).toEqual({ removed: [b.ids[0], b.ids[2]], skipped: 1 });
    expect(b.removed).toEqual([b.ids[0], b.ids[2]]);
    const left = valueOf<{ items: { record: { localId: string } }[] }>(
      await b.call('tasks:list', {}),
    );
    expect(left.items.map((item) => item.record.localId)).toEqual([failed!.localId, b.ids[1]]);
  });

  it('retries the images a retry can still save and skips a task whose image was refused', async () => {
    const b = await batchOf(2);
    const [expired, invalid] = b.ids as [string, string];
    const markAll = (localId: string, state: 'expired' | 'invalid') =>
      b.h.core.engine.edit(localId, (record) => ({
        ...record,
        images: record.images.map((image) => ({ ...image, state })),
      }));
    markAll(expired, 'expired');
    markAll(invalid, 'invalid');
    const retried = valueOf<{ items: { record: { localId: string } }[]; skipped: number }>(
      await b.call('tasks:retryMany', { localIds: b.ids }),
    );
    // Its bytes were refused as no usable image: the same link gives the same bytes.
    expect(retried.items.map((item) => item.record.localId)).toEqual([expired]);
    expect(retried.skipped).toBe(1);
    await vi.waitFor(() => {
      expect(b.h.core.engine.get(expired)?.images.every((image) => image.state === 'saved')).toBe(
        true,
      );
    }, UNTIL);
    expect(b.h.core.engine.get(invalid)?.images.every((image) => image.state === 'invalid')).toBe(
      true,
    );
  });

  it('submits failed tasks again as new tasks and leaves the failed ones as they were', async () => {
    const b = await batchOf(2, { failureRate: 1 });
    expect(b.ids.map((id) => b.h.core.engine.get(id)?.status)).toEqual(['failed', 'failed']);
    const again = valueOf<{ items: { record: { localId: string; request: unknown } }[] }>(
      await b.call('tasks:resend', { localIds: b.ids, as: 'each', onlyFailed: true }),
    );
    expect(again.items).toHaveLength(2);
    expect(again.items.every((item) => !b.ids.includes(item.record.localId))).toBe(true);
    expect(again.items[0]!.record.request).toEqual(b.h.core.engine.get(b.ids[0]!)!.request);
    expect(b.ids.map((id) => b.h.core.engine.get(id)?.status)).toEqual(['failed', 'failed']);
    expect(b.h.core.history.count({})).toBe(4);
  });

  /** Each is refused on every batch channel, with nothing run: one batch serves them all. */
  const refused: [string, unknown][] = [
    ['no object', undefined],
    ['ids as a string', { localIds: 'a,b' }],
    ['numbers for ids', { localIds: [1, 2] }],
    ['an empty list', { localIds: [] }],
    ['an empty id', { localIds: [''] }],
    ['an id too long', { localIds: ['x'.repeat(101)] }],
    [
      'too many ids',
      { localIds: Array.from({ length: MAX_IDS_PER_BATCH + 1 }, (_, i) => `t${i}`) },
    ],
    ['an extra field', { localIds: ['a'], path: '/tmp' }],
  ];
  it(`refuses ${refused.map(([name]) => name).join(', ')} before anything runs`, async () => {
    const b = await batchOf(1);
    for (const [name, input] of refused) {
      // An export takes a whole "Select all" in one dialog: its own limit is MAX_SELECT_ALL.
      const exports = name === 'too many ids' ? [] : (['tasks:exportMany'] as const);
      for (const channel of ['tasks:removeMany', 'tasks:retryMany', ...exports] as const) {
        const result = await b.call(channel, input);
        expect(result, `${channel}: ${name}`).toMatchObject({
          ok: false,
          error: { code: 'bad_input' },
        });
      }
      expect(b.emitted, name).toEqual([]);
    }
    const favourite = await b.call('tasks:setFavouriteMany', { localIds: b.ids, favourite: 'yes' });
    expect(favourite).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(b.h.core.engine.get(b.ids[0]!)).toMatchObject({ favourite: false });
    expect(b.emitted).toEqual([]);
  });

  it('exports a whole "Select all" in one request, and refuses more than that', async () => {
    const b = await batchOf(1);
    const tooMany = Array.from({ length: MAX_SELECT_ALL + 1 }, (_, i) => `t${i}`);
    expect(await b.call('tasks:exportMany', { localIds: tooMany })).toMatchObject({
      ok: false,
      error: { code: 'bad_input' },
    });
    b.chosen.push(await exportFolder());
    const outcome = valueOf<{ copied: number; skipped: number }>(
      await b.call('tasks:exportMany', { localIds: [b.ids[0]!, ...tooMany.slice(0, 1_500)] }),
    );
    expect(outcome).toMatchObject({ copied: 1, skipped: 1_500 });
  });

  it('takes exactly the largest batch', async () => {
    // A failed task: it has no image, so the batch stars it.
    const b = await batchOf(1, { failureRate: 1 });
    const localIds = [
      b.ids[0]!,
      ...Array.from({ length: MAX_IDS_PER_BATCH - 1 }, (_, i) => `t${i}`),
    ];
    const result = valueOf<{ items: unknown[]; skipped: number }>(
      await b.call('tasks:setFavouriteMany', { localIds, favourite: true }),
    );
    expect(result.items).toHaveLength(1);
    expect(result.skipped).toBe(MAX_IDS_PER_BATCH - 1);
  });
});

describe('export to a folder', () => {
  it('copies the saved images byte for byte into the folder main chose, never overwriting', async () => {
    const b = await batchOf(2);
    const folder = await exportFolder();
    b.chosen.push(folder, folder);
    const first = valueOf<{ folder: string; copied: number }>(
      await b.call('tasks:exportMany', { localIds: [...b.ids, 'no-such-task'] }),
    );
    expect(first).toEqual({ folder, copied: 2, failed: 0, skipped: 1 });
    // The page is told how far the copy is, from its start (before the first image) to its end;
    // the step between goes too when the real clock passed the throttle's interval meanwhile.
    const progress = b.emitted.filter(([channel]) => channel === 'export:progress');
    expect(progress[0]).toEqual(['export:progress', { done: 0, total: 2 }]);
    expect(progress.at(-1)).toEqual(['export:progress', { done: 2, total: 2 }]);
    expect(progress.length).toBeLessThanOrEqual(3);
    const names = (await readdir(folder)).sort();
    expect(names).toHaveLength(2);
    const sources = await Promise.all(
      b.ids.map((id) =>
        readFile(b.h.core.gallery.resolve(b.h.core.engine.get(id)!.images[0]!.file!)),
      ),
    );
    const copies = await Promise.all(names.map((name) => readFile(join(folder, name))));
    for (const source of sources) expect(copies.some((copy) => copy.equals(source))).toBe(true);
    expect(copies[0]!.subarray(1, 4).toString('latin1')).toBe('PNG');

    // The same images again: new names beside the first copies, which stay as they were.
    await writeFile(join(folder, names[0]!), 'mine');
    const second = valueOf<{ copied: number }>(
      await b.call('tasks:exportMany', { localIds: b.ids }),
    );
    expect(second.copied).toBe(2);
    const after = (await readdir(folder)).sort();
    expect(after).toHaveLength(4);
    expect(after.filter((name) => name.includes(' (2)'))).toHaveLength(2);
    expect(await readFile(join(folder, names[0]!), 'utf8')).toBe('mine');
  });

  it('writes nothing through a link at the target name, and copies no image that is a link', async () => {
    const b = await batchOf(2);
    const folder = await exportFolder();
    const elsewhere = await exportFolder();
    const victim = join(elsewhere, 'victim.txt');
    await writeFile(victim, 'untouched');
    // A link where the first copy would go: the copy takes another name.
    b.chosen.push(folder);
    const probe = await exportFolder();
    b.chosen.unshift(probe);
    valueOf(await b.call('tasks:exportMany', { localIds: [b.ids[0]] }));
    const [name] = await readdir(probe);
    await symlink(victim, join(folder, name!));
    // The second task's image is swapped for a link to a file outside the gallery.
    const second = b.h.core.engine.get(b.ids[1]!)!;
    const image = b.h.core.gallery.resolve(second.images[0]!.file!);
    await rm(image);
    await symlink(victim, image);
    const outcome = valueOf<{ copied: number; failed: number }>(
      await b.call('tasks:exportMany', { localIds: b.ids }),
    );
    expect(outcome).toMatchObject({ copied: 1, failed: 1 });
    expect(await readFile(victim, 'utf8')).toBe('untouched');
    expect((await lstat(join(folder, name!))).isSymbolicLink()).toBe(true);
    const copies = await readdir(folder);
    expect(copies).toHaveLength(2);
    expect(copies).toContain(name!.replace(/(\.[a-z]+)$/, ' (2)$1'));
  });

  it('copies nothing when the user cancels the dialog, and never asks the page for a path', async () => {
    const b = await batchOf(1);
    const result = await b.call('tasks:exportMany', { localIds: b.ids });
    expect(result).toEqual({
      ok: true,
      value: { folder: null, copied: 0, failed: 0, skipped: 0 },
    });
    const folder = await exportFolder();
    await mkdir(join(folder, 'sub'));
    const refused = await b.call('tasks:exportMany', { localIds: b.ids, folder });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await readdir(folder)).toEqual(['sub']);
  });
});
