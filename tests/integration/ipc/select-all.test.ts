/**
 * "Select all" means the whole filtered set, loaded by the page or not: main finds it from the
 * filters the page gives (the page never names a set main would take on trust), for the gallery
 * and the task history alike; and a selection of images is starred in one request. Over the real
 * core (SQLite history, gallery on disk) against the demo service on loopback, through
 * runRequest, so every input passes the contract's schema first.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TrashJournal } from '../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../electron/core/trash/trash-operations';
import { galleryHandlers } from '../../../electron/ipc/gallery-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { taskHandlers } from '../../../electron/ipc/task-handlers';
import type { ShellActions } from '../../../electron/ports/shell-actions';
import type { RequestChannel, RequestOutput } from '../../../shared/ipc/contract';
import { ManualClock } from '../../fakes/manual-clock';
import { ipcCaller, okValue } from '../../support/ipc';
import { DONE_AT_FIRST_POLL, coreAgainstDemo } from '../core/core-harness';
import { TempFolders } from '../../support/temp-folders';

const journals = new TempFolders();
afterEach(async () => {
  await journals.removeAll();
});

const unused = async () => ({ ok: true as const, value: undefined });
const shell = {
  reveal: unused,
  copyImage: unused,
  chooseSaveAsFile: async () => ({ ok: true as const, value: null }),
  startDrag: unused,
  openGalleryFolder: unused,
} as unknown as ShellActions;

async function library() {
  const h = await coreAgainstDemo(DONE_AT_FIRST_POLL);
  h.core.engine.start();
  const harbours = await h.core.engine.submit(
    { prompt: 'a harbour at dawn', size: '32x32' },
    h.target,
    3,
  );
  const foxes = await h.core.engine.submit({ prompt: 'a fox in snow', size: '32x32' }, h.target, 2);
  await h.core.engine.whenSettled([...harbours, ...foxes].map((record) => record.localId));
  const journal = await journals.make('select-all-journal');
  const trash = new TrashOperations({
    journal: new TrashJournal(journal),
    core: h.core,
    sendToSystemTrash: () => Promise.reject(new Error('Nothing goes on in this test.')),
    clock: new ManualClock(),
    keepMs: 60_000,
  });
  const handlers = {
    ...galleryHandlers({
      core: h.core,
      shell,
      chooseExportFolder: async () => null,
      emit: () => undefined,
      trash,
    }),
    ...taskHandlers({
      core: h.core,
      chooseFolder: async () => null,
      emit: () => undefined,
      changes: { removed: () => undefined, refused: () => undefined },
      trash,
    }),
  } as IpcHandlers;
  const caller = ipcCaller(handlers);
  const call = async <T>(channel: RequestChannel, input?: unknown): Promise<T> =>
    okValue(await caller(channel, input)) as T;
  return { h, harbours, foxes, call };
}

type Whole = RequestOutput<'gallery:selectAll'>;

describe('Select all over the real core', () => {
  it('names every image the filters match, newest first, and counts them', async () => {
    const { call, harbours, foxes } = await library();
    const all = await call<Whole>('gallery:selectAll', {});
    expect(all.total).toBe(5);
    expect(all.images).toHaveLength(5);
    const searched = await call<Whole>('gallery:selectAll', { search: 'harbour' });
    expect(searched.total).toBe(3);
    expect(searched.images.map((ref) => ref.localId).sort()).toEqual(
      harbours.map((record) => record.localId).sort(),
    );
    // Exactly what the list shows for the same filters, in its order.
    const listed = await call<RequestOutput<'gallery:list'>>('gallery:list', {
      search: 'fox',
      limit: 500,
    });
    const foxed = await call<Whole>('gallery:selectAll', { search: 'fox' });
    expect(foxed.images).toEqual(listed.items.map(({ localId, index }) => ({ localId, index })));
    expect(foxed.images).toHaveLength(foxes.length);
  });

  it('leaves out images in the trash, as the gallery does', async () => {
    const { call, harbours } = await library();
    const gone = { localId: harbours[0]!.localId, index: 0 };
    await call('gallery:deleteImages', { images: [gone] });
    const all = await call<Whole>('gallery:selectAll', {});
    expect(all.total).toBe(4);
    expect(all.images).not.toContainEqual(gone);
  });

  it('names every task of the filter, loaded or not, counted in the history worker', async () => {
    const { call, harbours, h } = await library();
    // Main's own store is not asked: at a million tasks a count is about 80 ms of its loop.
    const onMain = (name: string) => () => {
      throw new Error(`${name} read on main's thread`);
    };
    vi.spyOn(h.core.history, 'count').mockImplementation(onMain('count'));
    vi.spyOn(h.core.history, 'taskIds').mockImplementation(onMain('taskIds'));
    expect(await call('tasks:count', { search: 'fox' })).toEqual({ total: 2 });
    const all = await call<RequestOutput<'tasks:selectAll'>>('tasks:selectAll', {});
    expect(all).toMatchObject({ total: 5 });
    expect(all.localIds).toHaveLength(5);
    const some = await call<RequestOutput<'tasks:selectAll'>>('tasks:selectAll', {
      search: 'harbour',
      statuses: ['completed'],
    });
    expect(some.localIds.sort()).toEqual(harbours.map((record) => record.localId).sort());
  });

  it('refuses what no filter is: a made-up set of ids is not an input', async () => {
    const { call } = await library();
    await expect(
      call('gallery:selectAll', { images: [{ localId: 'x', index: 0 }] }),
    ).rejects.toThrow();
    await expect(call('tasks:selectAll', { localIds: ['x'] })).rejects.toThrow();
  });
});
