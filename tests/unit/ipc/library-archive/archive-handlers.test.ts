/**
 * The `archive:` handlers over a real library in temporary folders: paths only from main's
 * dialogs (the page's input cannot name one), progress events, one operation at a time, cancel,
 * and an archive that cannot be written answered with its sentence through the IPC bridge.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { englishText } from '../../../../shared/i18n/sentence';
import { requests } from '../../../../shared/ipc/contract';
import { archiveHandlers } from '../../../../electron/ipc/archive-handlers';
import { ipcCaller } from '../../../support/ipc';
import type { LibraryDialogs } from '../../../../electron/ports/library-dialogs';
import {
  addTask,
  makeLibrary,
  operationsOn,
  savedImages,
  type Library,
} from '../../core/library/archive/library-fixture';
import { UNTIL } from '../../../support/waits';
import { removeFolder } from '../../../support/temp-folders';

const opened: Library[] = [];
afterEach(async () => {
  for (const library of opened.splice(0)) {
    library.history.close();
    await removeFolder(library.dir);
  }
});

async function library(): Promise<Library> {
  const made = await makeLibrary();
  opened.push(made);
  return made;
}

function handlersFor(
  target: Library,
  dialogs: LibraryDialogs,
  onEvent: (channel: string, payload: unknown) => void = () => undefined,
) {
  const events: { channel: string; payload: unknown }[] = [];
  const handlers = archiveHandlers({
    operations: operationsOn(target),
    dialogs,
    version: () => '1.2.3',
    emit: (channel, payload) => {
      events.push({ channel, payload });
      onEvent(channel, payload);
    },
  });
  return { handlers, events };
}

const context = { sender: {} as never };

describe('library IPC handlers', () => {
  it('export then import through the dialogs moves the library, with progress events', async () => {
    const from = await library();
    await addTask(from, ['png']);
    await addTask(from, ['jpeg', 'webp']);
    const archive = join(from.dir, 'chosen.zip');
    const exporter = handlersFor(from, {
      chooseExportFile: async () => archive,
      chooseImportSource: async () => null,
    });
    const exported = await exporter.handlers['archive:export']({}, context);
    expect(requests['archive:export'].output.parse(exported)).toMatchObject({
      summary: {
        file: archive,
        tasks: 2,
        images: 3,
        keyRemoved: 0,
        skipped: [],
        skippedTotal: 0,
      },
    });
    expect(
      exporter.events.filter((e) => e.channel === 'archive:progress').at(-1)?.payload,
    ).toMatchObject({
      operation: 'export',
      done: 2,
      total: 2,
    });

    const to = await library();
    const asked: string[] = [];
    const importer = handlersFor(to, {
      chooseExportFile: async () => null,
      chooseImportSource: async (from) => (asked.push(from), archive),
    });
    const imported = await importer.handlers['archive:import']({ from: 'archive' }, context);
    expect(asked).toEqual(['archive']);
    expect(requests['archive:import'].output.parse(imported)).toMatchObject({
      summary: { addedTasks: 2, addedImages: 3, refusedTotal: 0, cancelled: false },
    });
    expect(importer.events).toContainEqual({
      channel: 'gallery:changed',
      payload: { reason: 'imported' },
    });
    expect(await savedImages(to)).toEqual(await savedImages(from));
  });

  it('says how many exported images were saved with their key-carrying metadata removed', async () => {
    const from = await library();
    const marked = await addTask(from, ['png', 'jpeg', 'webp']);
    const [metadata, credentials, kept] = marked.images;
    from.history.put({
      ...marked,
      images: [
        { ...metadata!, keyRemoved: 'metadata' },
        { ...credentials!, keyRemoved: 'credentials' },
        kept!,
      ],
    });
    await addTask(from, ['png']);
    const archive = join(from.dir, 'chosen.zip');
    const exporter = handlersFor(from, {
      chooseExportFile: async () => archive,
      chooseImportSource: async () => null,
    });
    const exported = await exporter.handlers['archive:export']({}, context);
    expect(requests['archive:export'].output.parse(exported)).toMatchObject({
      summary: { tasks: 2, images: 4, keyRemoved: 2 },
    });
  });

  it('returns no summary when the user cancels the dialog, and never takes a path from the page', async () => {
    const target = await library();
    const { handlers } = handlersFor(target, {
      chooseExportFile: async () => null,
      chooseImportSource: async () => null,
    });
    expect(await handlers['archive:export']({}, context)).toEqual({ summary: null });
    expect(await handlers['archive:import']({ from: 'folder' }, context)).toEqual({
      summary: null,
    });
    expect(
      requests['archive:import'].input.safeParse({ from: 'archive', path: '/etc' }).success,
    ).toBe(false);
    expect(requests['archive:export'].input.safeParse({ target: '/tmp/x.zip' }).success).toBe(
      false,
    );
    expect(requests['archive:export'].input.safeParse({ localIds: [] }).success).toBe(false);
  });

  it('runs one operation at a time, and cancel stops the running import', async () => {
    const from = await library();
    for (let i = 0; i < 12; i += 1) await addTask(from, ['png']);
    const to = await library();
    let release: (path: string) => void = () => undefined;
    let asked = false;
    const cancelled: unknown[] = [];
    const { handlers } = handlersFor(
      to,
      {
        chooseExportFile: async () => null,
        chooseImportSource: () =>
          new Promise((resolve) => {
            asked = true;
            release = resolve;
          }),
      },
      (channel, payload) => {
        // The page's Cancel, pressed once the first task is in.
        if (channel === 'archive:progress' && (payload as { done: number }).done === 1) {
          cancelled.push(handlers['archive:cancel'](undefined, context));
        }
      },
    );
    expect(await handlers['archive:cancel'](undefined, context)).toEqual({ cancelled: false });
    const first = handlers['archive:import']({ from: 'folder' }, context);
    await expect.poll(() => asked, UNTIL).toBe(true);
    // While the dialog is open the operation is running: a second one is refused.
    await expect(handlers['archive:export']({}, context)).rejects.toThrow(/already running/);
    await expect(handlers['archive:import']({ from: 'archive' }, context)).rejects.toThrow(
      /already running/,
    );
    release(from.root);
    const summary = (await first).summary;
    expect(summary?.cancelled).toBe(true);
    expect(cancelled).toEqual([{ cancelled: true }]);
    // Tasks under way when Cancel came may finish; the summary counts exactly what came in.
    expect(summary?.addedTasks).toBeGreaterThanOrEqual(1);
    // At most the tasks under way then (four at a time) finish after it.
    expect(summary?.addedTasks).toBeLessThanOrEqual(5);
    expect(to.history.count()).toBe(summary?.addedTasks);
  });

  it('answers an archive it cannot write with the sentence saying why, through the bridge', async () => {
    const from = await library();
    await addTask(from, ['png']);
    const out = join(from.dir, 'out');
    await mkdir(out);
    // The folder the save dialog returned is gone by the time the export writes there.
    let chosen = join(out, 'unplugged', 'library.zip');
    const { handlers, events } = handlersFor(from, {
      chooseExportFile: async () => chosen,
      chooseImportSource: async () => null,
    });
    const call = ipcCaller(handlers);
    const refused = await call('archive:export', {});
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.sentence).toEqual({
      key: 'error.library.exportNotWritten',
      params: { file: chosen, problem: 'noFolder', code: 'ENOENT' },
    });
    expect(refused.error.message).toBe(englishText(refused.error.sentence!));
    expect(refused.error.message).toContain(
      'because its folder does not exist (ENOENT). Nothing was exported there; choose another folder, then export again.',
    );
    expect(refused.error.detail).toMatch(/ENOENT/);
    expect(await readdir(out)).toEqual([]);
    // The operation ended: the next export, to a folder that exists, goes through.
    chosen = join(out, 'library.zip');
    const exported = await call('archive:export', {});
    expect(exported).toMatchObject({ ok: true, value: { summary: { file: chosen, tasks: 1 } } });
    expect(await readdir(out)).toEqual(['library.zip']);
    expect(events.some((event) => event.channel === 'archive:progress')).toBe(true);
  });
});
