/**
 * `rebuild` of a task folder whose pictor.json is gone, when an image carries Content
 * Credentials: the image was saved as it came (no Pictor XMP in it), so the task comes back from
 * its XMP sidecar, read with the same checks and the same size cap as an embedded packet. A
 * sidecar that lies, or is too big, is not believed; a verdict written in a folder is dropped,
 * and a gallery with a verifier verifies each image with a sidecar again.
 * An image Undo brought back under a new name keeps its sidecar beside it, and is read so.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_XMP_SIDECAR_BYTES } from '../../../electron/core/gallery/metadata/xmp-sidecar';
import { buildXmpPacket } from '../../../electron/core/gallery/metadata/xmp-packet';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageQuery } from '../../../electron/core/history/history-query';
import { TrashJournal } from '../../../electron/core/trash/trash-journal';
import { TrashOperations } from '../../../electron/core/trash/trash-operations';
import { ManualClock } from '../../fakes/manual-clock';
import { C2paVerifier } from '../../../electron/core/content-credentials/c2pa-verifier';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import { TEST_CA_PEM, c2paFixture } from '../../support/c2pa-hostile';
import { SIGNED_VERDICT } from '../../support/c2pa-hostile-cases';
import { makeRecord, serve, tempFiles } from '../../support/gallery-helpers';
import {
  ENCODINGS,
  makeEncoded,
  sampleProvenance,
} from '../../unit/core/gallery/metadata/meta-helpers';
import { MemoryRecords, onlyRecord } from '../../unit/core/trash/trash-fixture';
import { galleryOnServer } from '../../support/gallery-with-intake';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import type { ImageIntake } from '../../../electron/core/download/image-intake';
import { galleryPerTest } from '../../support/gallery-per-test';
import { testFolder } from '../../support/per-test';

const fixture = galleryPerTest({ imageMetadata: { appVersion: '4.5.6' } });
const verifiers: C2paVerifier[] = [];

afterEach(async () => {
  for (const verifier of verifiers.splice(0)) await verifier.dispose();
});

/** A signed PNG and a plain WebP downloaded as one task; no pictor.json written. */
async function downloadTask(): Promise<TaskRecord> {
  const tag = fixture.root.slice(-6);
  const record = makeRecord(
    [
      fixture.server.route(`/signed-${tag}.png`, serve(c2paFixture('signed.png'))),
      fixture.server.route(`/plain-${tag}.webp`, serve(await makeEncoded(ENCODINGS[3]!, 32, 24))),
    ],
    { request: { prompt: 'Signed lighthouse', model: 'm-1', size: '96x64', quality: 'low' } },
  );
  for (const index of [0, 1]) {
    const outcome = await fixture.intake.downloadImage(record, index, fixture.server.baseUrl);
    expect(outcome.state).toBe('saved');
  }
  return record;
}

/** The gallery over the same folder with a verifier (the test CA), ended after the test. */
async function verifyingGallery(): Promise<ImageIntake> {
  const verifier = new C2paVerifier({ trustAnchors: await readFile(TEST_CA_PEM, 'utf8') });
  verifiers.push(verifier);
  return galleryOnServer(fixture.root, { credentials: verifier }).intake;
}

describe('a task folder without pictor.json, one image with Content Credentials', () => {
  it('comes back from the signed image’s XMP sidecar and the other image’s own XMP', async () => {
    const record = await downloadTask();
    const folder = fixture.gallery.folderFor(record);
    expect(
      (await readFile(join(fixture.root, folder, 'image-1.png'))).equals(c2paFixture('signed.png')),
    ).toBe(true);
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(skipped).toEqual([]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      localId: record.localId,
      request: record.request,
      imported: true,
    });
    expect(records[0]!.images).toEqual([
      expect.objectContaining({
        index: 0,
        state: 'saved',
        file: `${folder}/image-1.png`,
        xmpFile: `${folder}/image-1.xmp`,
      }),
      expect.objectContaining({ index: 1, state: 'saved', file: `${folder}/image-2.webp` }),
    ]);
    expect(records[0]!.images[1]).not.toHaveProperty('xmpFile');
  });

  it('is not made from a sidecar over the size cap, nor from one naming another image', async () => {
    const record = await downloadTask();
    const folder = join(fixture.root, fixture.gallery.folderFor(record));
    // The plain image goes: only the signed one could tell the task.
    await rm(join(folder, 'image-2.webp'));
    await writeFile(join(folder, 'image-1.xmp'), Buffer.alloc(MAX_XMP_SIDECAR_BYTES + 1, 0x20));
    let result = await rebuildLibrary(fixture.intake);
    expect(result.records).toEqual([]);
    const lying = buildXmpPacket(sampleProvenance({ localId: record.localId, imageIndex: 4 }))!;
    await writeFile(join(folder, 'image-1.xmp'), lying);
    result = await rebuildLibrary(fixture.intake);
    expect(result.records).toEqual([]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/names another image/) }),
    ]);
  });
});

it('drops a Content Credentials verdict a pictor.json claims: it shows as not checked', async () => {
  const record = await downloadTask();
  const folder = fixture.gallery.folderFor(record);
  const claimed: TaskRecord = {
    ...record,
    folder,
    status: 'completed',
    images: record.images.map((image, index) => ({
      ...image,
      state: 'saved',
      file: `${folder}/image-${index + 1}.${index === 0 ? 'png' : 'webp'}`,
      contentCredentials: {
        state: 'valid',
        signer: 'Spoofed Inc',
        trusted: true,
        aiGenerated: false,
      },
    })),
  };
  await writeFile(join(fixture.root, folder, 'pictor.json'), sidecarText(claimed));
  const { records } = await rebuildLibrary(fixture.intake);
  expect(records[0]!.images.map((image) => image.contentCredentials)).toEqual([
    undefined,
    undefined,
  ]);
  expect(records[0]!.images[0]!.xmpFile).toBe(`${folder}/image-1.xmp`);
});

it('verifies again, in a gallery with a verifier, each image with a sidecar: Pictor’s verdict, not the folder’s', async () => {
  const record = await downloadTask();
  const folder = fixture.gallery.folderFor(record);
  const spoofed = { state: 'valid', signer: 'Spoofed Inc', trusted: true, aiGenerated: false };
  const claimed: TaskRecord = {
    ...record,
    folder,
    images: record.images.map((image, index) => ({
      ...image,
      state: 'saved',
      file: `${folder}/image-${index + 1}.${index === 0 ? 'png' : 'webp'}`,
      ...(index === 0 ? { xmpFile: `${folder}/image-1.xmp` } : {}),
      contentCredentials: spoofed as ContentCredentials,
    })),
  };
  await writeFile(join(fixture.root, folder, 'pictor.json'), sidecarText(claimed));
  const verifying = await verifyingGallery();
  const { records } = await rebuildLibrary(verifying);
  // The app's and the CLI's way: a batch at a time.
  const batches: TaskRecord[] = [];
  await rebuildLibrary(verifying, { onBatch: (batch) => void batches.push(...batch) });
  for (const rebuilt of [records[0]!, batches[0]!]) {
    expect(rebuilt.images.map((image) => image.contentCredentials)).toEqual([
      SIGNED_VERDICT,
      // No sidecar beside it: not read again, and the folder's word is not kept.
      undefined,
    ]);
  }
  // Verified on a copy in the temp folder, which is gone again.
  expect(await tempFiles(fixture.root)).toEqual([]);
});

it('a task rebuilt from a signed image’s sidecar alone is found by its prompt and by the filter', async () => {
  const record = await downloadTask();
  const { records } = await rebuildLibrary(await verifyingGallery());
  const history = HistoryStore.open(join(await testFolder('history'), 'history.sqlite'));
  try {
    history.putMany(records);
    const found = (query: ImageQuery) =>
      history.listImages(query).items.map((item) => [item.localId, item.index]);
    expect(found({ search: 'lighthouse signed' })).toEqual([
      [record.localId, 0],
      [record.localId, 1],
    ]);
    expect(found({ search: 'lighthouse', contentCredentials: true })).toEqual([
      [record.localId, 0],
    ]);
  } finally {
    history.close();
  }
});

/**
 * Undo of the signed image after its name was taken: it comes back as `image-1-restored-1.png`,
 * and its sidecar must come back under the same stem, named so in the record, or nothing pairs
 * the two again; the folder's rebuild (no pictor.json) then finds the task only through that
 * sidecar, the image itself carrying no Pictor metadata.
 */
describe('Undo of a signed image whose name was taken meanwhile', () => {
  /** The signed PNG saved by the gallery: its record, `saved`, as the engine would keep it. */
  async function savedSignedImage(): Promise<TaskRecord> {
    const record = makeRecord(
      [
        fixture.server.route(
          `/signed-${fixture.root.slice(-6)}.png`,
          serve(c2paFixture('signed.png')),
        ),
      ],
      { request: { prompt: 'Signed lighthouse', model: 'm-1', size: '96x64', quality: 'low' } },
    );
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(`not saved: ${outcome.state}`);
    const { state, file, xmpFile, width, height, bytes, mime } = outcome;
    expect(xmpFile).toBe(`${fixture.gallery.folderFor(record)}/image-1.xmp`);
    return {
      ...record,
      folder: fixture.gallery.folderFor(record),
      images: [{ ...record.images[0]!, state, file, xmpFile, width, height, bytes, mime }],
    };
  }

  it('brings the sidecar back beside the image’s new name, and rebuild reads the pair', async () => {
    const saved = await savedSignedImage();
    const folder = join(fixture.root, saved.folder!);
    const records = new MemoryRecords();
    records.map.set(saved.localId, saved);
    const trash = new TrashOperations({
      journal: new TrashJournal(join(await testFolder('data'), 'trash-journal')),
      core: { engine: records, gallery: fixture.gallery },
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
    const rebuilt = (await rebuildLibrary(fixture.intake)).records;
    expect(rebuilt).toHaveLength(1);
    expect(rebuilt[0]).toMatchObject({ localId: saved.localId, request: saved.request });
    expect(rebuilt[0]!.images[0]).toMatchObject({
      state: 'saved',
      file: `${saved.folder}/image-1-restored-1.png`,
      xmpFile: `${saved.folder}/image-1-restored-1.xmp`,
    });
  });
});
