/**
 * Export and import carry an image's XMP sidecar (the XMP of an image with Content Credentials,
 * which is never edited): into the archive beside its image, back beside it in the new library,
 * listed in the record. A sidecar that is not Pictor's for that image, or has no image, is refused
 * by name; a verdict written in an archive is not believed: the import verifies the image itself.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { openZipSource } from '../../../../../electron/core/library/archive/zip-source';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../../../electron/core/library/archive/archive-limits';
import { readBounded } from '../../../../../electron/core/library/archive/stream-copy';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import { provenanceOf } from '../../../../../electron/core/gallery/metadata/provenance';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { C2paVerifier } from '../../../../../electron/core/content-credentials/c2pa-verifier';
import { readTrustAnchors } from '../../../../../electron/core/content-credentials/trust-anchors';
import { c2paFixture } from '../../../../support/c2pa-hostile';
import { SIGNED_VERDICT_UNTRUSTED } from '../../../../support/c2pa-hostile-cases';
import { addTask, useLibraries, type Library } from './library-fixture';
import { galleryOffline } from '../../../../support/gallery-with-intake';

const library = useLibraries();

const path = (library: Library, relative: string) => join(library.root, ...relative.split('/'));

/** A task whose one image is a signed PNG with its XMP beside it, as a download leaves it. */
async function credentialedTask(from: Library, xmpText?: string): Promise<TaskRecord> {
  const task = await addTask(from, ['png']);
  const image = task.images[0]!;
  const xmpFile = image.file!.replace(/\.png$/, '.xmp');
  const signed = c2paFixture('signed.png');
  await writeFile(path(from, image.file!), signed);
  const packet = xmpText ?? buildXmpPacket(provenanceOf(task, 0, '1.2.3'))!.toString('utf8');
  await writeFile(path(from, xmpFile), packet);
  const record: TaskRecord = {
    ...task,
    images: [
      {
        ...image,
        bytes: signed.length,
        width: 96,
        height: 64,
        xmpFile,
        contentCredentials: {
          state: 'valid',
          signer: 'Pictor Test Signer',
          trusted: true,
          aiGenerated: true,
        },
      },
    ],
  };
  await writeFile(path(from, `${task.folder}/pictor.json`), sidecarText(record));
  from.history.put(record);
  return record;
}

/** The archive's entry names and its manifest, read as an import reads them. */
async function archiveOf(file: string): Promise<{ names: string[]; manifest: unknown }> {
  const source = await openZipSource(file, (await stat(file)).size, DEFAULT_ARCHIVE_LIMITS);
  try {
    const listed = source.files.find((entry) => entry.path === 'pictor-export.json');
    const text = listed ? (await readBounded(await listed.open(), 1 << 20)).toString('utf8') : '';
    return { names: source.files.map((entry) => entry.path), manifest: JSON.parse(text) };
  } finally {
    await source.close();
  }
}

describe('an image’s XMP sidecar in the library archive', () => {
  it('goes into the archive beside its image and comes back beside it', async () => {
    const from = await library();
    const task = await credentialedTask(from);
    await addTask(from, ['webp']);
    const target = join(from.dir, 'export.zip');
    const summary = await exportLibrary({
      root: from.root,
      history: from.history,
      target,
      pictorVersion: '9.9.9',
    });
    expect(summary).toMatchObject({ tasks: 2, images: 2, skipped: [] });
    const { names, manifest } = await archiveOf(target);
    expect(names).toContain(`${task.folder}/image-1.xmp`);
    expect(manifest).toMatchObject({ version: 2 });

    const to = await library();
    // Imported into a gallery that verifies against the shipped list, as the app's does.
    const verifier = new C2paVerifier({ trustAnchors: await readTrustAnchors() });
    const { intake } = galleryOffline(to.root, { credentials: verifier });
    const result = await importLibrary({ intake, history: to.history, source: target }).finally(
      () => verifier.dispose(),
    );
    expect(result).toMatchObject({ addedTasks: 2, addedImages: 2, refused: [] });
    const image = to.history.get(task.localId)!.images[0]!;
    expect(image.xmpFile).toBe(image.file!.replace(/\.png$/, '.xmp'));
    // The archive said "trusted": Pictor's own verification says what it finds.
    expect(image.contentCredentials).toEqual(SIGNED_VERDICT_UNTRUSTED);
    const plain = to.history.list().items.find((record) => record.localId !== task.localId)!;
    expect(plain.images[0]!.contentCredentials).toEqual({ state: 'none' });
    expect((await readFile(path(to, image.file!))).equals(c2paFixture('signed.png'))).toBe(true);
    expect(await readFile(path(to, image.xmpFile!), 'utf8')).toBe(
      await readFile(path(from, task.images[0]!.xmpFile!), 'utf8'),
    );
  });

  it('an archive without sidecars keeps the format earlier versions read', async () => {
    const from = await library();
    await addTask(from, ['png']);
    const target = join(from.dir, 'plain.zip');
    await exportLibrary({ root: from.root, history: from.history, target, pictorVersion: '9' });
    expect((await archiveOf(target)).manifest).toMatchObject({ version: 1 });
  });

  it('refuses a sidecar that is not Pictor’s for its image, and one with no image', async () => {
    const from = await library();
    const task = await credentialedTask(from, '<x:xmpmeta>someone else’s</x:xmpmeta>');
    await writeFile(path(from, `${task.folder}/image-2.xmp`), 'orphan');
    const to = await library();
    const result = await importLibrary({
      intake: to.intake,
      history: to.history,
      source: from.root,
    });
    expect(result.addedImages).toBe(1);
    expect(
      result.refused.map((item) => [item.path.split('/').pop(), item.reasonSentence?.key]),
    ).toEqual(
      expect.arrayContaining([
        ['image-1.xmp', 'error.library.xmpRefused'],
        ['image-2.xmp', 'error.library.xmpWithoutImage'],
      ]),
    );
    expect(to.history.get(task.localId)!.images[0]).not.toHaveProperty('xmpFile');
  });
});
