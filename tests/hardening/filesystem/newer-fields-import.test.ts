/**
 * An archive a newer Pictor exported, whose task sidecars hold fields this version does not know
 * (the record's own, the envelope's, the request's, an image's), imported as a new task: the
 * history's insert parsed the record by the schema and the task's `pictor.json` was written from
 * it, so both lost them (a write of a task the library has kept them since newer36/37). Now the
 * import keeps them by the same rule, in the history's row and in `pictor.json`, and an export of
 * the library (`pictor import`, then `pictor export`: the history worker's write) gives them back.
 * They come from a file anyone could write: one that carries a key the process holds, in any
 * encoding, in a value or a name, reaches neither the history nor the gallery (the others kept).
 */
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../electron/core/library/archive/archive-limits';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { readBounded } from '../../../electron/core/library/archive/stream-copy';
import { openZipSource } from '../../../electron/core/library/archive/zip-source';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { scrubKey } from '../../../electron/core/secrets';
import { filesUnder } from '../../support/files';
import { galleryOffline } from '../../support/gallery-with-intake';
import { taskFiles, type ExportFile } from '../../unit/core/library/archive/crafted-export';
import { yazlExport } from '../../unit/core/library/archive/yazl-archive';
import { expectExit, useCliWorlds } from '../../integration/cli/cli-harness';
import { ENCODINGS, keyScanner } from '../key-and-bodies/key-encodings';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-newer-import-4Gh8Tq2Lm6Vx0Rb';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const newWorld = useCliWorlds();

type Json = Record<string, unknown>;

/** A newer Pictor's fields a test puts in the sidecar, and where. */
interface Newer {
  readonly envelope: Json;
  readonly record: Json;
  readonly request: Json;
  readonly image: Json;
}

const NEWER: Newer = {
  envelope: { futureEnvelope: { written: 'by a newer Pictor' } },
  record: { futureTop: 'kept', futureList: [1, 'two', { three: 3 }] },
  request: { futureStrength: 0.7 },
  image: { futureNote: { by: 'newer' } },
};

/** A task of one saved PNG whose sidecar holds `more` (see {@link NEWER}) beside its own. */
async function newerTask(more: Newer): Promise<{ localId: string; files: ExportFile[] }> {
  const { record, files } = await taskFiles();
  const sidecar = files.find((file) => file.kind === 'sidecar')!;
  const json = JSON.parse(sidecar.data.toString('utf8')) as Json & { record: Json };
  const own = json.record as Json & { request: Json; images: Json[] };
  const whole = {
    ...json,
    ...more.envelope,
    record: {
      ...own,
      ...more.record,
      request: { ...own.request, ...more.request },
      images: own.images.map((image) => ({ ...image, ...more.image })),
    },
  };
  const data = Buffer.from(`${JSON.stringify(whole, null, 2)}\n`);
  return {
    localId: record.localId,
    files: files.map((file) => (file === sidecar ? { ...file, data } : file)),
  };
}

async function tempDir(): Promise<string> {
  const base = await tempFolder('newer-import');
  cleanups.push(() => removeFolder(base));
  return base;
}

/** `files` imported as an archive into a fresh library holding {@link KEY}. */
async function imported(files: ExportFile[]) {
  const base = await tempDir();
  const root = join(base, 'gallery');
  const dataDir = join(base, 'data');
  await mkdir(root);
  await mkdir(dataDir);
  const file = join(dataDir, HISTORY_FILE);
  const history = HistoryStore.open(file);
  let open = true;
  cleanups.push(() => (open ? history.close() : undefined));
  const summary = await importLibrary({
    intake: galleryOffline(root).intake,
    history,
    source: await yazlExport(base, files, 'newer.zip'),
    keyScrubber: () => Promise.resolve((text: string) => scrubKey(text, [KEY])),
  });
  expect(summary.addedTasks).toBe(1);
  history.close();
  open = false;
  return { root, dataDir, file };
}

/** The task's record as the history's row holds it, read past the store. */
function storedRecord(file: string, localId: string): Json {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    return JSON.parse(String(row?.['record'])) as Json;
  } finally {
    db.close();
  }
}

/** The task's `pictor.json` in the gallery under `root`. */
async function gallerySidecar(root: string): Promise<Json & { record: Json }> {
  const [path] = (await filesUnder(root)).filter((file) => file.endsWith('/pictor.json'));
  return JSON.parse(await readFile(path!, 'utf8')) as Json & { record: Json };
}

const KEPT_RECORD = {
  ...NEWER.record,
  request: NEWER.request,
  images: [{ index: 0, ...NEWER.image }],
};

describe('an import of a task a newer Pictor exported, with fields this version does not know', () => {
  it('keeps them in the history’s row and in the task’s pictor.json', async () => {
    const { localId, files } = await newerTask(NEWER);
    const { root, file } = await imported(files);
    expect(storedRecord(file, localId)).toMatchObject(KEPT_RECORD);
    const sidecar = await gallerySidecar(root);
    expect(sidecar).toMatchObject({ ...NEWER.envelope, record: KEPT_RECORD });
    // The task reads here as any other: its own fields, as the archive had them.
    const history = HistoryStore.open(file);
    try {
      expect(history.get(localId)?.request.prompt).toMatch(/^Crafted /);
      expect(history.get(localId)).not.toHaveProperty('futureTop');
    } finally {
      history.close();
    }
  });

  it.each(['raw', 'base64', 'hexLower', 'percentEveryByte', 'zeroWidth'])(
    'leaves out every one that carries a key the process holds (%s), in a value or a name',
    async (encoding) => {
      const said = encoding === 'raw' ? KEY : ENCODINGS[encoding]!(KEY, 0);
      const { localId, files } = await newerTask({
        envelope: { futureEnvelope: `echo ${said}` },
        record: { ...NEWER.record, [`name-${said}`]: 'a name' },
        request: { futureStrength: 0.7, futureEcho: [`x ${said}`] },
        image: { futureNote: { said } },
      });
      // The positive control: the source says the key.
      const scanner = keyScanner(KEY);
      expect(scanner.leaks(files.map((one) => one.data.toString('utf8')).join('\n'))).not.toEqual(
        [],
      );
      const { root, dataDir, file } = await imported(files);
      for (const path of [...(await filesUnder(root)), ...(await filesUnder(dataDir))]) {
        const bytes = await readFile(path);
        const text = `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
        expect(scanner.leaks(text), path).toEqual([]);
      }
      // What carried none of it is kept.
      expect(storedRecord(file, localId)).toMatchObject({ futureTop: 'kept' });
      expect((await gallerySidecar(root)).record).toMatchObject({ futureTop: 'kept' });
    },
  );

  it('gives them back in the library’s next export (pictor import, then pictor export)', async () => {
    const { localId, files } = await newerTask(NEWER);
    const world = await newWorld();
    expectExit(await world.run(['list']), 0);
    const archive = await yazlExport(await tempDir(), files, 'newer.zip');
    expectExit(await world.run(['import', archive]), 0);
    const again = join(world.dataDir, 'again.zip');
    expectExit(await world.run(['export', again]), 0);
    const records = await sidecarRecords(again);
    expect(records.get(localId)).toMatchObject(KEPT_RECORD);
  });
});

/** Each task sidecar's record in the archive, by local id (read with the import's reader). */
async function sidecarRecords(file: string): Promise<Map<string, Json>> {
  const source = await openZipSource(file, (await stat(file)).size, DEFAULT_ARCHIVE_LIMITS);
  const records = new Map<string, Json>();
  try {
    for (const entry of source.files) {
      if (!entry.path.endsWith('/pictor.json')) continue;
      const text = (await readBounded(await entry.open(), 1 << 20)).toString('utf8');
      const record = (JSON.parse(text) as { record: Json }).record;
      records.set(String(record['localId']), record);
    }
  } finally {
    await source.close();
  }
  return records;
}
