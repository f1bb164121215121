/**
 * An edit's result goes through the real download path over loopback: a result a service signed
 * with Content Credentials is saved byte-identical (the signature still holds) and its XMP, with
 * the lineage (parent task and image, operation, the source's digest), goes beside it; a result
 * without credentials carries the lineage in its own XMP; and the source image the edit was made
 * from is not touched, byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import {
  readFileProvenance,
  readPacketProvenance,
} from '../../../electron/core/gallery/metadata/read';
import { readXmpSidecar } from '../../../electron/core/gallery/metadata/xmp-sidecar';
import { InputStore } from '../../../electron/core/inputs/input-store';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord, serve } from '../../support/gallery-helpers';
import { ENCODINGS, makeEncoded } from '../../unit/core/gallery/metadata/meta-helpers';
import { galleryPerTest } from '../../support/gallery-per-test';

const fixture = galleryPerTest({ imageMetadata: { appVersion: '4.5.6' } });

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Downloads `record`'s image 0 and answers its saved record. */
async function download(record: TaskRecord) {
  const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
  if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
  return outcome;
}

it('keeps a signed edit result byte-identical, its lineage in the XMP beside it, and the source untouched', async () => {
  const tag = fixture.root.slice(-6);
  const parent = makeRecord(
    [fixture.server.route(`/parent-${tag}.png`, serve(await makeEncoded(ENCODINGS[0]!, 48, 32)))],
    {
      request: { prompt: 'a harbour' },
    },
  );
  const parentSaved = await download(parent);
  const parentFile = fixture.gallery.resolve(parentSaved.file);
  const parentBytes = await readFile(parentFile);
  // inputs:fromLibrary copies the library image into the input store by digest.
  const source = await new InputStore({ root: fixture.root }).put(parentBytes);
  expect(source.sha256).toBe(sha(parentBytes));

  const signed = c2paFixture('signed.png');
  const inputs = {
    operation: 'edit' as const,
    source,
    parent: { localId: parent.localId, index: 0 },
  };
  const edit = makeRecord([fixture.server.route(`/edit-${tag}.png`, serve(signed))], {
    request: { prompt: 'the harbour at night', inputs },
  });
  const saved = await download(edit);
  expect((await readFile(fixture.gallery.resolve(saved.file))).equals(signed)).toBe(true);
  expect(saved.xmpFile).toBeDefined();
  const beside = readPacketProvenance(
    await readXmpSidecar(fixture.root, fixture.gallery.resolve(saved.xmpFile!)),
  );
  if (!beside.ok) throw new Error(beside.reason);
  expect(beside.provenance).toMatchObject({ localId: edit.localId, inputs });

  // The source image is as it was: the edit read it, never wrote it.
  expect((await readFile(parentFile)).equals(parentBytes)).toBe(true);
  expect(sha(await readFile(parentFile))).toBe(source.sha256);
});

it('writes the lineage into an unsigned result’s own XMP', async () => {
  const tag = fixture.root.slice(-6);
  const sourceBytes = await makeEncoded(ENCODINGS[2]!, 20, 20);
  const source = await new InputStore({ root: fixture.root }).put(sourceBytes);
  const inputs = { operation: 'upscale' as const, source, factor: 2 as const };
  const edit = makeRecord(
    [fixture.server.route(`/up-${tag}.png`, serve(await makeEncoded(ENCODINGS[0]!, 40, 40)))],
    {
      request: { prompt: 'larger', inputs },
    },
  );
  const saved = await download(edit);
  expect(saved.xmpFile).toBeUndefined();
  const read = await readFileProvenance(
    fixture.root,
    fixture.gallery.resolve(saved.file),
    'png',
    1 << 24,
  );
  if (!read.ok) throw new Error(read.reason);
  expect(read.provenance.inputs).toEqual(inputs);
});
