/**
 * The setting of disk-full.test.ts: the demo service, data and gallery folders (either on its
 * own small tmpfs), the real core, and what the scenarios look at in the gallery and history.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseSidecar } from '../../../electron/core/gallery/sidecar';
import { SIDECAR_NAME } from '../../../electron/core/gallery/gallery-layout';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE, type PictorCore } from '../../../electron/core/pictor-core';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService } from '../../../electron/demo-service/types';
import type { Logger } from '../../../electron/ports/logger';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { mountTmpfs, openCoreAt, unmount, waitFor } from './disk-fixture';
import { targetAt } from '../../support/submit-target';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** Undone after each test, last first (a disk is unmounted before its folder is removed). */
export const cleanups: (() => Promise<void> | void)[] = [];

/** One case's service, folders and running core. */
export interface Setup {
  readonly service: DemoService;
  /** Error lines the core logged, by message. */
  readonly errors: Map<string, number>;
  readonly dataDir: string;
  readonly galleryDir: string;
  core: PictorCore;
}

/** Demo service, data and gallery folders (either may be a tmpfs of `disks` bytes), the core. */
export async function setUp(disks: { gallery?: number; data?: number }): Promise<Setup> {
  const service = await startDemoService({ durationMs: 300, imagesPerTask: 2 });
  const root = await tempFolder('disk');
  cleanups.push(async () => {
    await service.close();
    await removeFolder(root);
  });
  const dataDir = join(root, 'data');
  const galleryDir = join(root, 'gallery');
  for (const [dir, bytes] of [
    [dataDir, disks.data],
    [galleryDir, disks.gallery],
  ] as const) {
    await mkdir(dir, { recursive: true });
    if (bytes === undefined) continue;
    mountTmpfs(dir, bytes);
    cleanups.push(() => unmount(dir)); // runs before the folder is removed
  }
  const errors = new Map<string, number>();
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error: (message) => void errors.set(message, (errors.get(message) ?? 0) + 1),
  };
  const core = await openCoreAt(dataDir, galleryDir, service, logger);
  const setup: Setup = { service, errors, dataDir, galleryDir, core };
  cleanups.push(() => setup.core.close().catch(() => undefined));
  return setup;
}

/** Submits one task and waits until it is completed with every image saved, sidecar included. */
export async function generate(
  setup: Setup,
  prompt: string,
  afterSubmit: () => void | Promise<void> = () => undefined,
): Promise<TaskRecord> {
  const [record] = await setup.core.engine.submit(
    { prompt, size: '384x384' },
    targetAt(setup.service.url),
  );
  await afterSubmit();
  const done = await waitFor(`${prompt} saved`, () => {
    const now = setup.core.engine.get(record!.localId);
    const saved = now?.status === 'completed' && now.images.every((i) => i.state === 'saved');
    return saved ? now : undefined;
  });
  const sidecar = join(setup.galleryDir, done.folder!, SIDECAR_NAME);
  await waitFor(`${prompt} sidecar`, () => {
    const parsed = existsSync(sidecar) && parseSidecar(readFileSync(sidecar, 'utf8'));
    return parsed && parsed.ok && parsed.record.images.every((i) => i.state === 'saved');
  });
  return done;
}

/** Every file of a finished task, by path, with its bytes. */
export async function filesOf(
  galleryDir: string,
  record: TaskRecord,
): Promise<Map<string, Buffer>> {
  const paths = [
    `${record.folder}/${SIDECAR_NAME}`,
    ...record.images.flatMap((image) => [image.file!, image.thumbnail!]),
  ];
  const files = new Map<string, Buffer>();
  for (const path of paths) files.set(path, await readFile(join(galleryDir, path)));
  return files;
}

export async function expectUnchanged(
  galleryDir: string,
  files: Map<string, Buffer>,
): Promise<void> {
  for (const [path, bytes] of files)
    expect((await readFile(join(galleryDir, path))).equals(bytes), path).toBe(true);
}

/** Image files (final names) in a task's folder: none may appear while the disk refuses. */
export function imagesIn(galleryDir: string, folder: string | null): string[] {
  const dir = join(galleryDir, folder ?? '.none');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('image-')) : [];
}

/** Opens the history as the next start would, with the full integrity check. */
export function reopenHistory(dataDir: string): TaskRecord[] {
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE), { integrityCheck: 'always' });
  try {
    return store.list({ limit: 100 }).items;
  } finally {
    store.close();
  }
}
