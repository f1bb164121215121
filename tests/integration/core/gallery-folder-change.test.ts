/**
 * Changing the gallery folder with real files, through the `library:`
 * handlers over the real AppRuntime (demo service on loopback, SQLite history, gallery on disk):
 * a move cancelled at several points leaves the old library intact, complete and in use and no
 * copy in the new folder; a finished move reports its progress to the end; "open the library
 * there" switches to another library as it is and adds its tasks to the history, moving nothing;
 * a folder is only ever the one main's dialog returned, under a one-time ticket.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { libraryHandlers } from '../../../electron/ipc/library-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import {
  events,
  type EventChannel,
  type FolderChange,
  type RequestChannel,
} from '../../../shared/ipc/contract';
import { listFiles } from '../../e2e/harness/disk';
import { startTestRuntime } from '../../support/app-runtime';
import { ipcCaller, okValue } from '../../support/ipc';
import { targetOf } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await tempFolder('folder');
  cleanups.push(() => removeFolder(dir));
  return dir;
}

/** A runtime whose gallery holds `tasks` completed tasks. */
async function libraryOf(dir: string, tasks: number, prompt: string) {
  const runtime = await startTestRuntime(dir, {
    defaultGalleryDir: join(dir, 'Pictures', 'Pictor'),
    demo: { durationMs: 100 },
    pollIntervalMs: 100,
    // Every progress report reaches the page: the test cancels at exact points.
    progressEveryMs: 0,
  });
  cleanups.push(() => runtime.close());
  runtime.core.engine.start();
  const records = await runtime.core.engine.submit(
    { prompt, size: '64x64' },
    targetOf(runtime.credentials),
    tasks,
  );
  await runtime.core.engine.whenSettled(records.map((record) => record.localId));
  return { runtime, ids: records.map((record) => record.localId) };
}

/**
 * Every file of the library under `root`: images and thumbnails with the SHA-256 of their
 * bytes, sidecars with the task they name (the app rewrites a sidecar when its record changes,
 * such as a poll count written at close). Pictor's own temporary folders are left out.
 */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const file of await listFiles(root)) {
    if (file.startsWith('.pictor-')) continue;
    const bytes = await readFile(join(root, file));
    out[file] = file.endsWith('pictor.json')
      ? `task ${(JSON.parse(bytes.toString('utf8')) as { record: { localId: string } }).record.localId}`
      : createHash('sha256').update(bytes).digest('hex');
  }
  return out;
}

type Runtime = Awaited<ReturnType<typeof libraryOf>>['runtime'];

function folderApi(runtime: Runtime, chosen: string, onEvent?: (progress: unknown) => void) {
  const emitted: [EventChannel, unknown][] = [];
  const handlers = libraryHandlers({
    runtime,
    choices: runtime.core.folderChoices,
    operations: runtime.core.operations,
    chooseFolder: async () => chosen,
    emit: (channel, payload) => {
      emitted.push([channel, events[channel].parse(payload)]);
      onEvent?.(payload);
    },
  }) as IpcHandlers;
  const ask = ipcCaller(handlers);
  const call = async <T>(channel: RequestChannel, input?: unknown): Promise<T> =>
    okValue(await ask(channel, input)) as T;
  const pick = () =>
    call<{
      choice: {
        ticket: string;
        library: { tasks: number };
        current: { tasks: number };
        same: boolean;
      };
    }>('library:pick');
  const apply = (ticket: string, action: 'move' | 'open') =>
    call<FolderChange>(action === 'move' ? 'library:move' : 'library:open', { ticket });
  return { emitted, call, pick, apply };
}

describe('a gallery move', () => {
  type Point = { name: string; at: (p: { filesDone: number; files: number }) => boolean };
  const POINTS: Point[] = [
    { name: 'before anything is copied', at: (p) => p.filesDone === 0 },
    { name: 'half-way through a task folder', at: (p) => p.filesDone === 2 },
    { name: 'after the last file, before the switch', at: (p) => p.filesDone === p.files },
  ];

  it.each(POINTS)(
    'cancelled $name leaves the old library intact and in use, and no copy',
    async ({ at }) => {
      const dir = await tempDir();
      const { runtime, ids } = await libraryOf(dir, 3, 'cancel me');
      const oldRoot = runtime.core.gallery.root;
      const before = await snapshot(oldRoot);
      expect(Object.keys(before).length).toBeGreaterThanOrEqual(9);
      // The target exists and holds a file of the user's: it must survive the cancel.
      const target = join(dir, 'Elsewhere');
      await mkdir(target);
      await writeFile(join(target, 'notes.txt'), 'mine');
      let cancelled = false;
      const api = folderApi(runtime, target, (progress) => {
        if (!cancelled && at(progress as { filesDone: number; files: number })) {
          cancelled = true;
          void api.call('library:cancel');
        }
      });
      const { choice } = await api.pick();
      const result = await api.apply(choice.ticket, 'move');
      expect(cancelled).toBe(true);
      expect(result).toMatchObject({ outcome: 'cancelled', path: oldRoot });
      expect(runtime.settings.get().galleryDir).toBe('');
      expect(runtime.core.gallery.root).toBe(oldRoot);
      expect(await snapshot(oldRoot)).toEqual(before);
      expect(await listFiles(target)).toEqual(['notes.txt']);
      for (const id of ids) {
        const record = runtime.core.engine.get(id)!;
        expect(existsSync(runtime.core.gallery.resolve(record.images[0]!.file!))).toBe(true);
      }
    },
  );

  it('into a folder it creates, cancelled, leaves no folder behind; then completes on a second try', async () => {
    const dir = await tempDir();
    const { runtime, ids } = await libraryOf(dir, 2, 'second try');
    const target = join(dir, 'New', 'Pictor');
    let first = true;
    const api = folderApi(runtime, target, (progress) => {
      if (first && (progress as { filesDone: number }).filesDone === 1) {
        first = false;
        void api.call('library:cancel');
      }
    });
    const cancelled = await api.apply((await api.pick()).choice.ticket, 'move');
    expect(cancelled.outcome).toBe('cancelled');
    expect(existsSync(target)).toBe(false);
    const moved = await api.apply((await api.pick()).choice.ticket, 'move');
    expect(moved).toMatchObject({ outcome: 'moved', path: target, moved: 2, leftBehind: 0 });
    expect(runtime.core.gallery.root).toBe(target);
    const progress = api.emitted
      .filter(([channel]) => channel === 'library:progress')
      .map(([, payload]) => payload as { filesDone: number; files: number; bytesDone: number });
    const last = progress[progress.length - 1]!;
    expect(last.filesDone).toBe(last.files);
    expect(last.bytesDone).toBeGreaterThan(0);
    for (const id of ids) {
      const record = runtime.core.engine.get(id)!;
      expect(existsSync(runtime.core.gallery.resolve(record.images[0]!.file!))).toBe(true);
    }
  });

  it('takes a ticket once, and only the one main gave', async () => {
    const dir = await tempDir();
    const { runtime } = await libraryOf(dir, 1, 'tickets');
    const api = folderApi(runtime, join(dir, 'Other'));
    const { choice } = await api.pick();
    await expect(api.apply('f'.repeat(32), 'open')).rejects.toThrow(/no longer valid/);
    await api.apply(choice.ticket, 'open');
    await expect(api.apply(choice.ticket, 'open')).rejects.toThrow(/no longer valid/);
    // The page cannot name a path: the contract refuses one.
    await expect(
      api.call('library:move', { ticket: choice.ticket, path: '/etc' }),
    ).rejects.toThrow();
  });
});

describe('choosing the library’s own folder through a link', () => {
  it('is found the same folder, and a move or an open asked anyway changes nothing', async () => {
    const dir = await tempDir();
    const { runtime } = await libraryOf(dir, 2, 'stay put');
    const root = runtime.core.gallery.root;
    const before = await snapshot(root);
    const link = join(dir, 'Pictor link');
    await symlink(root, link, 'junction');
    const api = folderApi(runtime, link);
    for (const action of ['move', 'open'] as const) {
      const { choice } = await api.pick();
      expect(choice.same).toBe(true);
      const result = await api.apply(choice.ticket, action);
      expect(result).toMatchObject({ path: root, moved: 0, leftBehind: 0, imported: 0 });
    }
    expect(runtime.settings.get().galleryDir).toBe('');
    expect(runtime.core.gallery.root).toBe(root);
    expect(await snapshot(root)).toEqual(before);
  });
});

describe('opening the library already in a folder', () => {
  it('switches to it as it is, adds its tasks, and moves nothing', async () => {
    const other = await libraryOf(await tempDir(), 2, 'the other library');
    const otherRoot = other.runtime.core.gallery.root;
    await other.runtime.close();
    const otherBefore = await snapshot(otherRoot);
    const dir = await tempDir();
    const { runtime, ids } = await libraryOf(dir, 1, 'my library');
    const mine = runtime.core.gallery.root;
    const mineBefore = await snapshot(mine);
    const api = folderApi(runtime, otherRoot);
    const { choice } = await api.pick();
    expect(choice.library.tasks).toBe(2);
    expect(choice.current.tasks).toBe(1);
    const result = await api.apply(choice.ticket, 'open');
    expect(result).toMatchObject({ outcome: 'opened', path: otherRoot, imported: 2 });
    expect(runtime.settings.get().galleryDir).toBe(otherRoot);
    expect(runtime.core.gallery.root).toBe(otherRoot);
    expect(await snapshot(mine)).toEqual(mineBefore);
    expect(await snapshot(otherRoot)).toEqual(otherBefore);
    for (const id of other.ids) {
      const record = runtime.core.history.get(id);
      expect(record).toMatchObject({ status: 'completed', imported: true });
      expect(existsSync(runtime.core.gallery.resolve(record!.images[0]!.file!))).toBe(true);
    }
    expect(runtime.core.history.get(ids[0]!)).toBeDefined();
  });
});
