/**
 * An archive or a folder that brings in a task kept under a service id that carries a key the
 * process holds (a library from before typed ids were checked, exported so): the key is redacted
 * from the id on the way in (library/archive/import-kept-id.ts, with the scrubber the core gives
 * an import: pictor-core.ts, of every key its credentials hold), so it never reaches the history
 * (what the page reads), the task's `pictor.json` or its image's own metadata in the library,
 * in any encoding or spelt out. The image keeps its provenance (the id with "[redacted]" in the
 * key's place) and its pixels. The source's files are made as an old app made them: the gallery's
 * own sidecar text and the download's own provenance embedder, from the record with the id; the
 * positive control is that the scanner finds the key in them.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { readFileProvenance } from '../../../electron/core/gallery/metadata/read';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { scrubKey } from '../../../electron/core/secrets';
import { importLibrary } from '../../../electron/core/library/archive/import-library';
import { filesUnder } from '../../support/files';
import { galleryOffline } from '../../support/gallery-with-intake';
import { yazlExport } from '../../unit/core/library/archive/yazl-archive';
import { ENCODINGS, keyScanner, speltLeaks } from './key-encodings';
import { keptTask } from './kept-id-archive';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const KEY = 'sk-import-8Fj2Lq5Wz9Rc3Nv7Tb1';
/** Another key the process holds (another service's). */
const OTHER = 'other-Hy4Ud6Kp0Xe8Ms2Qa5';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Ids a library may have kept: the key as is, encoded, spelt out, among other text. */
const KEPT_IDS: Record<string, string> = {
  raw: `task-${KEY}`,
  base64: `task-${ENCODINGS.base64!(KEY, 1)}`,
  hexUpper: ENCODINGS.hexUpper!(KEY, 0),
  percentEveryByte: `t-${ENCODINGS.percentEveryByte!(KEY, 0)}`,
  'spelt out (spaces)': [...KEY].join(' '),
};

/** The leaks of either key in the bytes of every file under `folder`, by file. */
async function leaksUnder(folder: string): Promise<string[]> {
  const scanners = [keyScanner(KEY), keyScanner(OTHER)];
  const leaking: string[] = [];
  for (const file of await filesUnder(folder)) {
    const bytes = await readFile(file);
    const text = `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
    const found = [
      ...scanners.flatMap((scanner) => scanner.leaks(text)),
      ...speltLeaks(bytes.toString('utf8'), KEY),
      ...speltLeaks(bytes.toString('utf8'), OTHER),
    ];
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

async function importOne(name: string, source: 'archive' | 'folder') {
  const base = await tempFolder('import-kept-id');
  cleanups.push(() => removeFolder(base));
  const { record, files } = await keptTask(base, KEPT_IDS[name]!);
  let from: string;
  if (source === 'archive') from = await yazlExport(base, files, 'kept.zip');
  else {
    from = join(base, 'folder');
    for (const file of files) {
      await mkdir(dirname(join(from, file.path)), { recursive: true });
      await writeFile(join(from, file.path), file.data);
    }
  }
  // The positive control: the source's sidecar and image say the id, so they carry the key.
  const sourceLeaks = await leaksUnder(source === 'archive' ? base : from);
  expect(sourceLeaks.length, `${name}: ${sourceLeaks}`).toBeGreaterThan(0);
  const root = join(base, 'gallery');
  await mkdir(root);
  const dataDir = join(base, 'data');
  await mkdir(dataDir);
  const history = HistoryStore.open(join(dataDir, 'history.sqlite'));
  let closed = false;
  cleanups.push(() => (closed ? undefined : history.close()));
  const summary = await importLibrary({
    intake: galleryOffline(root).intake,
    history,
    source: from,
    keyScrubber: () => Promise.resolve((text: string) => scrubKey(text, [OTHER, KEY])),
  });
  expect(summary.addedTasks, name).toBe(1);
  const imported = history.get(record.localId)!;
  history.close();
  closed = true;
  return { record, imported, root, dataDir, pixels: await sharp(files[0]!.data).raw().toBuffer() };
}

describe('an import of a task kept under a key-carrying id', () => {
  for (const source of ['archive', 'folder'] as const) {
    it.each(Object.keys(KEPT_IDS))(
      `from a${source === 'archive' ? 'n' : ''} ${source}, id %s: the key is redacted on the way in, from the history and every file`,
      async (name) => {
        const { imported, root, dataDir, pixels } = await importOne(name, source);
        expect(imported.taskId, name).toContain('[redacted]');
        expect(await leaksUnder(root), name).toEqual([]);
        expect(await leaksUnder(dataDir), name).toEqual([]);
        // The image keeps its provenance, the id redacted, and its pixels.
        const image = join(root, imported.images[0]!.file!);
        const said = await readFileProvenance(root, image, 'png', MAX_IMAGE_BYTES);
        expect(said.ok && said.provenance.taskId, name).toContain('[redacted]');
        expect(await sharp(image).raw().toBuffer()).toEqual(pixels);
        expect(imported.images[0]!.bytes).toBe((await readFile(image)).length);
      },
    );
  }

  it('keeps an id that carries no key as it came', async () => {
    const base = await tempFolder('import-kept-id');
    cleanups.push(() => removeFolder(base));
    const { record, files } = await keptTask(base, 'task-8c1e-ordinary-id');
    const root = join(base, 'gallery');
    await mkdir(root);
    const history = HistoryStore.open(join(base, 'history.sqlite'));
    cleanups.push(() => history.close());
    await importLibrary({
      intake: galleryOffline(root).intake,
      history,
      source: await yazlExport(base, files, 'plain.zip'),
      keyScrubber: () => Promise.resolve((text: string) => scrubKey(text, [KEY])),
    });
    expect(history.get(record.localId)!.taskId).toBe('task-8c1e-ordinary-id');
  });
});
