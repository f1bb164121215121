/**
 * The desktop app and a library that kept tasks under an id that carries a key (stored before ids
 * were checked). `pictor track` cleans the one task it names (kept-id-files.test.ts); the app was
 * never asked: such a task's id went to the page in every task list and gallery page and back
 * into its pictor.json at every write of it. The app sweeps its library once its keys' text is
 * known (app-runtime.ts `redactKeyIn`: at start and at each change of a key) and cleans each task
 * found the one way (batch/kept-key-id.ts); the page's "Track a task" with such an id is refused
 * and its task cleaned the same way.
 *
 * The app is the recorded one (recorded-app.ts: AppRuntime, the app's wiring, the real IPC bridge
 * recording what the page receives) over a real library: a first run makes the tasks with their
 * images from a demo service; the old files are then written as an old app wrote them, by the
 * gallery's own sidecar writer and the download's own provenance embedder, from the record with
 * the key-carrying id (the positive control: the scanner finds the key in them). Afterwards no
 * file of the gallery, no file of the data folder (the history's database among them) and no IPC
 * payload holds the key, in any encoding a typed id can carry.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import { filesUnder } from '../../support/files';
import { ownAddress } from '../../support/own-address';
import { pageTarget } from '../../support/submit-target';
import { ENCODINGS, ENCODING_NAMES, keyScanner } from './key-encodings';
import { startRecordedApp, type IpcRecord, type RecordedApp } from './recorded-app';

const KEY = 'sk-kept-app-7d1e0c94b2a8f63e15c7';
/** Another service's key, stored only once the app runs. */
const OTHER = 'r8_kept-other-Hn3Wc7Ky5Bd1Qz8x';

/** The encodings a task id can carry (no NUL byte: an id with one is not a typed id). */
const ID_ENCODINGS = ENCODING_NAMES.filter(
  (encoding) => !ENCODINGS[encoding]!(KEY, 1).includes('\0'),
);

interface World {
  readonly base: string;
  readonly userDataDir: string;
  readonly galleryDir: string;
  readonly service: DemoService;
  readonly ipc: IpcRecord[];
}

const worlds: World[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) {
    await world.service.close();
    await rm(world.base, { recursive: true, force: true });
  }
});

async function newWorld(): Promise<World> {
  const base = await mkdtemp(join(tmpdir(), 'pictor-kept-id-app-'));
  const service = await startDemoService({ accounts: [{ account: 'a', key: KEY }], durationMs: 0 });
  const world = {
    base,
    userDataDir: join(base, 'data'),
    galleryDir: join(base, 'gallery'),
    service,
    ipc: [],
  };
  worlds.push(world);
  return world;
}

function start(world: World): Promise<RecordedApp> {
  const { userDataDir, galleryDir, ipc } = world;
  return startRecordedApp({ userDataDir, galleryDir, fetchCalls: [], ipc });
}

async function ok(result: Promise<{ ok: boolean }>): Promise<void> {
  const answer = await result;
  expect(answer.ok, JSON.stringify(answer)).toBe(true);
}

/** A first run: the key stored, `count` tasks made and settled, their images saved. */
async function firstRun(world: World, count: number): Promise<TaskRecord[]> {
  const app = await start(world);
  try {
    await ok(app.invoke('settings:update', ownAddress(world.service.url)));
    const key = { provider: 'pictor' as const, key: KEY, skipCheck: true, allowWeakStorage: false };
    await ok(app.invoke('keys:set', key));
    const localIds: string[] = [];
    for (let left = count; left > 0; left -= 10) {
      const target = pageTarget(app.runtime);
      const request = { prompt: 'kept before ids were checked', size: '64x64' };
      const made = await app.invoke('tasks:submit', { request, target, count: Math.min(left, 10) });
      expect(made.ok).toBe(true);
      const items = (made as { value: { record: TaskRecord }[] }).value;
      localIds.push(...items.map((item) => item.record.localId));
    }
    const done = await app.runtime.core.engine.whenSettled(localIds);
    expect(done.every((record) => record.images.some((image) => image.state === 'saved'))).toBe(
      true,
    );
    return done;
  } finally {
    await app.close();
  }
}

/**
 * The task as an app from before ids were checked left it: its record under `taskId` in the
 * history, its pictor.json and each image's provenance written from that record.
 */
async function keepUnder(world: World, localId: string, taskId: string): Promise<void> {
  const history = HistoryStore.open(join(world.userDataDir, HISTORY_FILE));
  let kept: TaskRecord;
  try {
    kept = { ...history.get(localId)!, taskId };
    history.put(kept);
  } finally {
    history.close();
  }
  const root = world.galleryDir;
  await new Gallery({ root, appVersion: 'old' }).writeSidecar(kept);
  for (const image of kept.images) {
    if (image.state !== 'saved') continue;
    const written = await embedProvenanceInFile(
      join(root, image.file!),
      'png',
      provenanceOf(kept, image.index, 'old'),
      { root, maxBytes: MAX_IMAGE_BYTES },
    );
    expect(written.ok).toBe(true);
  }
}

/** Every string value in a JSON text, decoded (a JSON file escapes an id's own backslashes). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsOf);
}

/** The files under `folder` that hold `key` (the vault's own, the key's place, aside). */
async function leaksUnder(folder: string, key: string): Promise<string[]> {
  const leaking: string[] = [];
  for (const file of await filesUnder(folder, { missing: 'empty' })) {
    if (basename(file).startsWith('key-vault')) continue;
    const bytes = await readFile(file);
    const utf8 = bytes.toString('utf8');
    const decoded = file.endsWith('.json') ? stringsOf(JSON.parse(utf8)).join('\n') : '';
    const found = keyScanner(key).leaks(`${bytes.toString('latin1')}\n${utf8}\n${decoded}`);
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

async function everywhere(world: World, key: string): Promise<string[]> {
  return [
    ...(await leaksUnder(world.galleryDir, key)),
    ...(await leaksUnder(world.userDataDir, key)),
  ];
}

function ipcLeaks(world: World, key: string): string[] {
  const scanner = keyScanner(key);
  return world.ipc.flatMap((record) =>
    scanner.leaks(record.text).map((form) => `${record.kind} ${record.channel}: ${form}`),
  );
}

/** What the page reads of the library: its task list, its gallery, each task. */
async function pageReads(app: RecordedApp, tasks: readonly TaskRecord[]): Promise<void> {
  await ok(app.invoke('tasks:list', {}));
  await ok(app.invoke('gallery:list', {}));
  for (const task of tasks) await ok(app.invoke('tasks:get', { localId: task.localId }));
}

describe('a library with tasks kept under a key-carrying id, in the desktop app', () => {
  it('is swept as the keys are read at start: no file and no IPC payload holds the key', async () => {
    const world = await newWorld();
    const tasks = await firstRun(world, ID_ENCODINGS.length);
    for (const [n, encoding] of ID_ENCODINGS.entries())
      await keepUnder(world, tasks[n]!.localId, `task-${ENCODINGS[encoding]!(KEY, n)}`);
    // The positive control: the old files say the ids, so they carry the key.
    expect((await leaksUnder(world.galleryDir, KEY)).length).toBeGreaterThan(0);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      await pageReads(app, tasks);
      for (const task of tasks) {
        const record = app.runtime.core.engine.get(task.localId)!;
        expect(record.taskId).toContain('[redacted]');
      }
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
  });

  it("refuses the page's track of such an id and cleans the task it names", async () => {
    const world = await newWorld();
    const encodings = ['raw', 'base64', 'hexUpper', 'percentEveryByte'];
    const tasks = await firstRun(world, encodings.length);
    const ids = encodings.map((encoding, n) => `task-${ENCODINGS[encoding]!(KEY, n)}`);
    for (const [n, id] of ids.entries()) await keepUnder(world, tasks[n]!.localId, id);
    world.ipc.length = 0;

    const app = await start(world);
    try {
      // The sweep stopped before it cleaned anything: the track alone cleans.
      await app.runtime.keptIds.close();
      expect(app.runtime.core.engine.get(tasks[0]!.localId)!.taskId).toBe(ids[0]);
      for (const [n, id] of ids.entries()) {
        const answer = await app.invoke('tasks:track', { taskId: id });
        expect(answer.ok).toBe(false);
        expect(app.runtime.core.engine.get(tasks[n]!.localId)!.taskId).toContain('[redacted]');
      }
      await pageReads(app, tasks);
      expect(ipcLeaks(world, KEY)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, KEY)).toEqual([]);
  });

  it('is swept again when a key is added: an old id may carry the new key', async () => {
    const world = await newWorld();
    const tasks = await firstRun(world, 2);
    const ids = [`task-${OTHER}`, `task-${ENCODINGS['base64']!(OTHER, 1)}`];
    for (const [n, id] of ids.entries()) await keepUnder(world, tasks[n]!.localId, id);

    const app = await start(world);
    try {
      await app.runtime.keptIds.swept();
      // The control: the app did not hold that key, so nothing was cleaned.
      expect(app.runtime.core.engine.get(tasks[0]!.localId)!.taskId).toBe(ids[0]);
      const key = { provider: 'replicate' as const, key: OTHER, skipCheck: true };
      await ok(app.invoke('keys:set', { ...key, allowWeakStorage: false }));
      await vi.waitFor(() => {
        for (const task of tasks)
          expect(app.runtime.core.engine.get(task.localId)!.taskId).toContain('[redacted]');
      });
      await app.runtime.keptIds.swept();
      world.ipc.length = 0;
      await pageReads(app, tasks);
      expect(ipcLeaks(world, OTHER)).toEqual([]);
    } finally {
      await app.close();
    }
    expect(await everywhere(world, OTHER)).toEqual([]);
  });
});
