/**
 * A desktop app over a library that kept tasks under an id that carries a key (stored before ids
 * were checked), for the kept-id tests (kept-id-app, kept-id-ledger, kept-id-sweep-marks): a
 * demo service taking the key, a first run that makes tasks with their images, the old files
 * written as an old app wrote them, and the scans of every file and IPC payload for the key.
 *
 * The app is the recorded one (recorded-app.ts: AppRuntime, the app's wiring, the real IPC bridge
 * recording what the page receives) over a real library. The old files are written by the
 * gallery's own sidecar writer and the download's own provenance embedder, from the record with
 * the key-carrying id.
 */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import { filesUnder } from '../../support/files';
import { copyFolder } from '../../support/folder-template';
import { ownAddress } from '../../support/own-address';
import { pageTarget } from '../../support/submit-target';
import { keyScanner } from './key-encodings';
import { startRecordedApp, type IpcRecord, type RecordedApp } from './recorded-app';
import { removeFolder, tempFolder } from '../../support/temp-folders';

export interface World {
  readonly key: string;
  readonly base: string;
  readonly userDataDir: string;
  readonly galleryDir: string;
  readonly service: DemoService;
  readonly ipc: IpcRecord[];
}

const worlds: World[] = [];
/** Copies of a kept world: their folders are theirs, their service the template's. */
const copies: World[] = [];

/** Ends every world made since the last call (each test file's afterEach). */
export async function endWorlds(): Promise<void> {
  for (const world of worlds.splice(0)) await endWorld(world);
  for (const world of copies.splice(0)) await removeFolder(world.base);
}

/** A temporary data folder and gallery, and a demo service that takes `key`. */
export async function newWorld(key: string, demo: DemoServiceOptions = {}): Promise<World> {
  const base = await tempFolder('kept-id-app');
  const service = await startDemoService({
    accounts: [{ account: 'a', key }],
    durationMs: 0,
    ...demo,
  });
  const world = {
    key,
    base,
    userDataDir: join(base, 'data'),
    galleryDir: join(base, 'gallery'),
    service,
    ipc: [],
  };
  worlds.push(world);
  return world;
}

/**
 * A world kept past `endWorlds` (a file's beforeAll makes it once; `endWorld` in its afterAll
 * ends it): the template {@link copyOf} copies for each test.
 */
export async function keptWorld(key: string): Promise<World> {
  const world = await newWorld(key);
  worlds.splice(worlds.indexOf(world), 1);
  return world;
}

/** Ends a world made by {@link keptWorld}. */
export async function endWorld(world: World): Promise<void> {
  await world.service.close();
  await removeFolder(world.base);
}

/**
 * A test's own world whose folders start as a copy of `template`'s (no app running on it), the
 * page's IPC record so far with them: what the same steps on a new world would have left, made
 * once. The demo service is the template's (it stays until the template ends).
 */
export async function copyOf(template: World): Promise<World> {
  const base = await tempFolder('kept-id-app');
  await copyFolder(template.base, base);
  const world = {
    ...template,
    base,
    userDataDir: join(base, 'data'),
    galleryDir: join(base, 'gallery'),
    ipc: [...template.ipc],
  };
  copies.push(world);
  return world;
}

/** The recorded app on the world's folders (a second start is a restart). */
export function start(world: World): Promise<RecordedApp> {
  const { userDataDir, galleryDir, ipc } = world;
  return startRecordedApp({ userDataDir, galleryDir, fetchCalls: [], ipc });
}

export async function ok(result: Promise<{ ok: boolean }>): Promise<void> {
  const answer = await result;
  expect(answer.ok, JSON.stringify(answer)).toBe(true);
}

/** A first run: the key stored, `count` tasks made and settled, their images saved. */
export async function firstRun(world: World, count: number): Promise<TaskRecord[]> {
  const app = await start(world);
  try {
    await ok(app.invoke('settings:update', ownAddress(world.service.url)));
    const key = { provider: 'pictor' as const, key: world.key, skipCheck: true };
    await ok(app.invoke('keys:set', { ...key, allowWeakStorage: false }));
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
    await app.runtime.keptIds.swept();
    return done;
  } finally {
    await app.close();
  }
}

/** Runs `work` on the world's history, opened as a command would, then closes it. */
export function withHistory<T>(world: World, work: (history: HistoryStore) => T): T {
  const history = HistoryStore.open(join(world.userDataDir, HISTORY_FILE));
  try {
    return work(history);
  } finally {
    history.close();
  }
}

/**
 * The task as an app from before ids were checked left it: its record under `taskId` in the
 * history, its pictor.json and each image's provenance written from that record.
 */
export async function keepUnder(world: World, localId: string, taskId: string): Promise<void> {
  const kept = withHistory(world, (history) => {
    const record = { ...history.get(localId)!, taskId };
    history.put(record);
    return record;
  });
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
export async function leaksUnder(folder: string, key: string): Promise<string[]> {
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

/** The files of the gallery and of the data folder that hold `key`. */
export async function everywhere(world: World, key: string): Promise<string[]> {
  return [
    ...(await leaksUnder(world.galleryDir, key)),
    ...(await leaksUnder(world.userDataDir, key)),
  ];
}

/** The IPC payloads the page received that hold `key`. */
export function ipcLeaks(world: World, key: string): string[] {
  const scanner = keyScanner(key);
  return world.ipc.flatMap((record) =>
    scanner.leaks(record.text).map((form) => `${record.kind} ${record.channel}: ${form}`),
  );
}

/** What the page reads of the library: its task list, its gallery, each task, the Costs screen. */
export async function pageReads(app: RecordedApp, tasks: readonly TaskRecord[]): Promise<void> {
  await ok(app.invoke('tasks:list', {}));
  await ok(app.invoke('gallery:list', {}));
  await ok(app.invoke('costs:ledger', {}));
  for (const task of tasks) await ok(app.invoke('tasks:get', { localId: task.localId }));
}
