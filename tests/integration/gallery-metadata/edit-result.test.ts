/**
 * An edit's result goes through the real download path over loopback: a result a service signed
 * with Content Credentials is saved byte-identical (the signature still holds) and its XMP, with
 * the lineage (parent task and image, operation, the source's digest), goes beside it; a result
 * without credentials carries the lineage in its own XMP; and the source image the edit was made
 * from is not touched, byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import type { Gallery } from '../../../electron/core/gallery/gallery';
import {
  readFileProvenance,
  readPacketProvenance,
} from '../../../electron/core/gallery/metadata/read';
import { readXmpSidecar } from '../../../electron/core/gallery/metadata/xmp-sidecar';
import { InputStore } from '../../../electron/core/inputs/input-store';
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
import { galleryOnServer } from '../../support/gallery-with-intake';
import { ENCODINGS, makeEncoded } from '../../unit/core/gallery/metadata/meta-helpers';

let server: TestServer;
let root: string;
let gallery: Gallery;
let intake: ImageIntake;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  root = await makeTempDir();
  ({ gallery, intake } = galleryOnServer(root, { imageMetadata: { appVersion: '4.5.6' } }));
  await gallery.init();
});
afterEach(() => removeDir(root));

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Downloads `record`'s image 0 and answers its saved record. */
async function download(record: TaskRecord) {
  const outcome = await intake.downloadImage(record, 0, server.baseUrl);
  if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
  return outcome;
}

it('keeps a signed edit result byte-identical, its lineage in the XMP beside it, and the source untouched', async () => {
  const tag = root.slice(-6);
  const parent = makeRecord(
    [server.route(`/parent-${tag}.png`, serve(await makeEncoded(ENCODINGS[0]!, 48, 32)))],
    {
      request: { prompt: 'a harbour' },
    },
  );
  const parentSaved = await download(parent);
  const parentFile = gallery.resolve(parentSaved.file);
  const parentBytes = await readFile(parentFile);
  // inputs:fromLibrary copies the library image into the input store by digest.
  const source = await new InputStore({ root }).put(parentBytes);
  expect(source.sha256).toBe(sha(parentBytes));

  const signed = c2paFixture('signed.png');
  const inputs = {
    operation: 'edit' as const,
    source,
    parent: { localId: parent.localId, index: 0 },
  };
  const edit = makeRecord([server.route(`/edit-${tag}.png`, serve(signed))], {
    request: { prompt: 'the harbour at night', inputs },
  });
  const saved = await download(edit);
  expect((await readFile(gallery.resolve(saved.file))).equals(signed)).toBe(true);
  expect(saved.xmpFile).toBeDefined();
  const beside = readPacketProvenance(await readXmpSidecar(root, gallery.resolve(saved.xmpFile!)));
  if (!beside.ok) throw new Error(beside.reason);
  expect(beside.provenance).toMatchObject({ localId: edit.localId, inputs });

  // The source image is as it was: the edit read it, never wrote it.
  expect((await readFile(parentFile)).equals(parentBytes)).toBe(true);
  expect(sha(await readFile(parentFile))).toBe(source.sha256);
});

it('writes the lineage into an unsigned result’s own XMP', async () => {
  const tag = root.slice(-6);
  const sourceBytes = await makeEncoded(ENCODINGS[2]!, 20, 20);
  const source = await new InputStore({ root }).put(sourceBytes);
  const inputs = { operation: 'upscale' as const, source, factor: 2 as const };
  const edit = makeRecord(
    [server.route(`/up-${tag}.png`, serve(await makeEncoded(ENCODINGS[0]!, 40, 40)))],
    {
      request: { prompt: 'larger', inputs },
    },
  );
  const saved = await download(edit);
  expect(saved.xmpFile).toBeUndefined();
  const read = await readFileProvenance(root, gallery.resolve(saved.file), 'png', 1 << 24);
  if (!read.ok) throw new Error(read.reason);
  expect(read.provenance.inputs).toEqual(inputs);
});
