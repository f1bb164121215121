/**
 * Undo of an image with Content Credentials whose name was taken while it was in the trash: the
 * image comes back under a `-restored-N` name, and its XMP sidecar must come back under the same
 * stem (`image-1-restored-1.xmp`), named so in the record, or nothing pairs the two again (the
 * sidecar would sit beside whatever took the old name). Real files: a signed PNG downloaded from
 * loopback by the real gallery, the real trash over a real journal, then a rebuild of the folder
 * (no pictor.json), which finds the task only through that sidecar: the image itself, never
 * edited, carries no Pictor metadata.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { Gallery } from '../../../electron/core/gallery/gallery';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { c2paFixture } from '../../support/c2pa-hostile';
import {
  makeRecord,
  makeTempDir,
  removeDir,
  serve,
  startServer,
  type TestServer,
} from '../../support/gallery-helpers';
import { testImageEngine } from '../../support/image-engine';
import { TrashJournal } from '../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../electron/core/trash/trash-operations';
import { ManualClock } from '../../fakes/manual-clock';
import { MemoryRecords, cleanUp, onlyRecord, tempDir } from '../../unit/core/trash/trash-fixture';

let server: TestServer;
let root: string;
let gallery: Gallery;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  root = await makeTempDir();
  gallery = new Gallery({
    imageEngine: testImageEngine,
    root,
    fetch,
    imageMetadata: { appVersion: '1.0.0' },
  });
  await gallery.init();
});
afterEach(async () => {
  await removeDir(root);
  await cleanUp();
});

/** The signed PNG saved by the gallery: its record, `saved`, as the engine would keep it. */
async function savedSignedImage(): Promise<TaskRecord> {
  const record = makeRecord(
    [server.route(`/signed-${root.slice(-6)}.png`, serve(c2paFixture('signed.png')))],
    { request: { prompt: 'Signed lighthouse', model: 'm-1', size: '96x64', quality: 'low' } },
  );
  const outcome = await gallery.downloadImage(record, 0, server.baseUrl);
  if (outcome.state !== 'saved') throw new Error(`not saved: ${outcome.state}`);
  const { state, file, xmpFile, width, height, bytes, mime } = outcome;
  expect(xmpFile).toBe(`${gallery.folderFor(record)}/image-1.xmp`);
  return {
    ...record,
    folder: gallery.folderFor(record),
    images: [{ ...record.images[0]!, state, file, xmpFile, width, height, bytes, mime }],
  };
}

it('brings the sidecar back beside the image’s new name, and rebuild reads the pair', async () => {
  const saved = await savedSignedImage();
  const folder = join(root, saved.folder!);
  const records = new MemoryRecords();
  records.map.set(saved.localId, saved);
  const trash = new TrashOperations({
    journal: new TrashJournal(join(await tempDir('data'), 'trash-journal')),
    core: () => ({ engine: records, gallery }),
    clock: new ManualClock(),
    sendToSystemTrash: () => Promise.reject(new Error('Nothing goes on in this test.')),
  });
  const ref = { localId: saved.localId, index: 0 };
  await trash.deleteImages([ref]);
  expect(existsSync(join(folder, 'image-1.png'))).toBe(false);
  expect(existsSync(join(folder, 'image-1.xmp'))).toBe(false);

  // Meanwhile something else takes the image's name (a file the user put there).
  await writeFile(join(folder, 'image-1.png'), 'not the signed image');
  const restored = onlyRecord(await trash.restoreImages([ref])).images[0]!;

  expect(restored.file).toBe(`${saved.folder}/image-1-restored-1.png`);
  expect(restored.xmpFile).toBe(`${saved.folder}/image-1-restored-1.xmp`);
  expect(
    (await readFile(join(folder, 'image-1-restored-1.png'))).equals(c2paFixture('signed.png')),
  ).toBe(true);
  expect(await readFile(join(folder, 'image-1-restored-1.xmp'), 'utf8')).toContain(
    'Signed lighthouse',
  );
  // Nothing is left under the old stem to be taken for the other file's sidecar.
  expect(existsSync(join(folder, 'image-1.xmp'))).toBe(false);

  // The library is lost: the task comes back from the restored image's sidecar alone.
  const rebuilt = (await gallery.rebuild()).records;
  expect(rebuilt).toHaveLength(1);
  expect(rebuilt[0]).toMatchObject({ localId: saved.localId, request: saved.request });
  expect(rebuilt[0]!.images[0]).toMatchObject({
    state: 'saved',
    file: `${saved.folder}/image-1-restored-1.png`,
    xmpFile: `${saved.folder}/image-1-restored-1.xmp`,
  });
});
