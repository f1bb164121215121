/**
 * A gallery folder holding a task kept under a service id that carries a key the process holds
 * (a library from before typed ids were checked), taken into the history by `pictor rebuild` or
 * by "open the library there" (library/relocate-open.ts `importGalleryTasks`, the one way both
 * take): the key is redacted on the way in, as an import redacts it (archive/import-kept-id.ts),
 * so the history, `pictor list` and the page never show it, and the folder's `pictor.json` and
 * images are made again from the redacted record (the app's sweep never reaches such a task
 * afterwards: its id no longer carries the key). A folder that lost its sidecar (the task made
 * again from its image's own metadata) is taken in the same way. An id that carries no key, and
 * its files, are left as they are.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { readFileProvenance } from '../../../electron/core/gallery/metadata/read';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { filesUnder } from '../../support/files';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { ENCODINGS, keyScanner, speltLeaks } from './key-encodings';
import { keptTask } from './kept-id-archive';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;

const KEPT_IDS: Record<string, string> = {
  raw: `task-${KEY}`,
  base64: `task-${ENCODINGS.base64!(KEY, 1)}`,
  'spelt out': [...KEY].join(' '),
};

async function leaksUnder(folder: string): Promise<string[]> {
  const leaking: string[] = [];
  for (const file of await filesUnder(folder, { missing: 'empty' })) {
    const bytes = await readFile(file);
    const text = `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
    const found = [...keyScanner(KEY).leaks(text), ...speltLeaks(bytes.toString('utf8'), KEY)];
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

/**
 * A gallery folder holding the task kept under `taskId` as an old app left it: its `pictor.json`
 * and its image saying the id (or, `bare`, the image alone: its sidecar lost).
 */
async function keptFolder(taskId: string, bare = false) {
  const base = await offlineDir();
  const { record, files } = await keptTask(base, taskId);
  const gallery = join(base, 'gallery');
  for (const file of files) {
    if (bare && file.kind === 'sidecar') continue;
    await mkdir(dirname(join(gallery, file.path)), { recursive: true });
    await writeFile(join(gallery, file.path), file.data);
  }
  const image = files.find((file) => file.kind === 'image')!.data;
  return { base, gallery, record, pixels: await sharp(image).raw().toBuffer() };
}

/** The task as the history at `dataDir` holds it. */
function stored(dataDir: string, localId: string): TaskRecord | undefined {
  const history = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    return history.get(localId);
  } finally {
    history.close();
  }
}

/** The task came in redacted, and nothing under the gallery or the data folder holds the key. */
async function expectRedacted(
  world: { gallery: string; dataDir: string; pixels: Buffer },
  task: TaskRecord | undefined,
  name: string,
) {
  expect(task?.taskId, name).toContain('[redacted]');
  expect(await leaksUnder(world.gallery), name).toEqual([]);
  expect(await leaksUnder(world.dataDir), name).toEqual([]);
  const image = join(world.gallery, task!.images[0]!.file!);
  const said = await readFileProvenance(world.gallery, image, 'png', MAX_IMAGE_BYTES);
  expect(said.ok && said.provenance.taskId, name).toContain('[redacted]');
  expect(await sharp(image).raw().toBuffer(), name).toEqual(world.pixels);
  expect(task!.images[0]!.bytes, name).toBe((await readFile(image)).length);
}

describe('pictor rebuild of a folder holding a task kept under a key-carrying id', () => {
  for (const bare of [false, true])
    it.each(Object.keys(KEPT_IDS))(
      `${bare ? '(its sidecar lost) ' : ''}id %s: in the history and listed with the key redacted, its files made again`,
      async (name) => {
        const folder = await keptFolder(KEPT_IDS[name]!, bare);
        // The positive control: the folder's files say the id, so they carry the key.
        expect((await leaksUnder(folder.gallery)).length, name).toBeGreaterThan(0);
        const world = await newWorld();
        expectExit(await world.run(['rebuild', '--gallery-dir', folder.gallery]), 0);
        const listed = await world.list();
        expect(listed.find((one) => one.localId === folder.record.localId)?.taskId).toContain(
          '[redacted]',
        );
        const task = stored(world.dataDir, folder.record.localId);
        await expectRedacted({ ...folder, dataDir: world.dataDir }, task, name);
      },
    );

  it('leaves an id that carries no key, and its files, as they are', async () => {
    const folder = await keptFolder('task-9d3f-ordinary');
    const before = await Promise.all(
      (await filesUnder(folder.gallery)).map(async (file) => [file, await readFile(file)]),
    );
    const world = await newWorld();
    expectExit(await world.run(['rebuild', '--gallery-dir', folder.gallery]), 0);
    expect(stored(world.dataDir, folder.record.localId)?.taskId).toBe('task-9d3f-ordinary');
    for (const [file, bytes] of before) expect(await readFile(file as string)).toEqual(bytes);
  });
});

describe('"open the library there" on a folder holding a task kept under a key-carrying id', () => {
  it.each(Object.keys(KEPT_IDS))('id %s: joins the history with the key redacted', async (name) => {
    const folder = await keptFolder(KEPT_IDS[name]!);
    const dataDir = join(folder.base, 'data');
    const core = await offlineCore({
      dir: folder.base,
      galleryDir: join(folder.base, 'first-gallery'),
      key: KEY,
      clock: systemClock,
    });
    expect(await core.library.openAt(folder.gallery)).toEqual({ imported: 1, skipped: [] });
    await expectRedacted({ ...folder, dataDir }, core.history.get(folder.record.localId), name);
  });
});
