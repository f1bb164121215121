/**
 * `rebuild` makes a task again from its images' own metadata when its sidecar is gone, with
 * real files: images downloaded over loopback HTTP by the gallery, and crafted folders whose
 * images carry metadata that lies. Such records are marked imported; metadata that breaks the
 * record's rules is skipped with a reason, never trusted.
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import type { ImageProvenance } from '../../../electron/core/gallery/metadata/xmp-packet';
import { makeRecord, serve } from '../../support/gallery-helpers';
import {
  ENCODINGS,
  makeEncoded,
  sampleProvenance,
} from '../../unit/core/gallery/metadata/meta-helpers';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import { galleryPerTest } from '../../support/gallery-per-test';

const fixture = galleryPerTest({ imageMetadata: { appVersion: '4.5.6' } });

/** A two-image task (a PNG and a WebP) downloaded into the gallery; no sidecar written. */
async function downloadTask() {
  const png = await makeEncoded(ENCODINGS[0]!, 64, 48);
  const webp = await makeEncoded(ENCODINGS[3]!, 32, 24);
  const record = makeRecord(
    [
      fixture.server.route(`/a-${fixture.root.slice(-6)}.png`, serve(png)),
      fixture.server.route(`/b-${fixture.root.slice(-6)}.webp`, serve(webp)),
    ],
    {
      endpoint: `https://user:secret@images.example.com:8443/v1?key=k`,
      request: { prompt: 'Two views of a lighthouse', model: 'm-1', size: '64x48', quality: 'low' },
    },
  );
  for (const index of [0, 1]) {
    const outcome = await fixture.intake.downloadImage(record, index, fixture.server.baseUrl);
    expect(outcome.state).toBe('saved');
  }
  return record;
}

/** A folder holding one crafted image named `name`. */
async function craftedFolder(folder: string, name: string, bytes: Buffer): Promise<void> {
  await mkdir(join(fixture.root, folder), { recursive: true });
  await writeFile(join(fixture.root, folder, name), bytes);
}

describe('a task folder without its sidecar', () => {
  it('comes back from its images: prompt, settings, ids, origin, files; marked imported', async () => {
    const record = await downloadTask();
    const folder = fixture.gallery.folderFor(record);
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(skipped).toEqual([]);
    expect(records).toHaveLength(1);
    const [rebuilt] = records;
    expect(rebuilt).toMatchObject({
      localId: record.localId,
      taskId: record.taskId,
      endpoint: 'https://images.example.com:8443',
      request: record.request,
      status: 'completed',
      createdAt: record.createdAt,
      folder,
      imported: true,
    });
    expect(rebuilt!.images).toEqual([
      expect.objectContaining({
        index: 0,
        state: 'saved',
        mime: 'image/png',
        width: 64,
        height: 48,
        file: `${folder}/image-1.png`,
        thumbnail: `${folder}/.thumbs/image-1.webp`,
      }),
      expect.objectContaining({
        index: 1,
        state: 'saved',
        mime: 'image/webp',
        width: 32,
        height: 24,
      }),
    ]);
  });

  it('is not doubled when its sidecar is there, nor by a copy of the folder without one', async () => {
    const record = await downloadTask();
    await fixture.gallery.writeSidecar(record);
    const folder = fixture.gallery.folderFor(record);
    await cp(join(fixture.root, folder), join(fixture.root, 'copy'), { recursive: true });
    await rm(join(fixture.root, 'copy', 'pictor.json'));
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records.map((item) => item.localId)).toEqual([record.localId]);
    expect(skipped).toEqual([
      {
        path: 'copy',
        reason: 'Another folder in the gallery describes the same task.',
        reasonSentence: { key: 'error.library.sameTaskFolder' },
      },
    ]);
  });
});

describe('crafted images', () => {
  it('metadata breaking the record rules is skipped with a reason, never trusted', async () => {
    const png = await makeEncoded(ENCODINGS[0]!, 8, 8);
    const lies: Array<[Partial<ImageProvenance>, RegExp]> = [
      [{ service: 'https://evil.example/path?key=stolen' }, /not valid \(service\)/],
      [{ localId: 'x'.repeat(5_000) }, /not valid \(localId\)/],
      [{ size: '1024 by 1024' }, /not valid \(size\)/],
      [{ createdAt: Date.UTC(2500, 0, 1) }, /not valid \(createDate\)/],
      [{ prompt: ' ' }, /does not make a valid task/],
    ];
    for (const [index, [lie]] of lies.entries()) {
      const bytes = await embedProvenanceInBuffer(png, 'png', sampleProvenance(lie));
      await craftedFolder(`bad-${index}`, 'image-1.png', bytes);
    }
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records).toEqual([]);
    expect(skipped).toEqual(
      lies.map(([, reason], index) => ({
        path: `bad-${index}`,
        reason: expect.stringMatching(reason),
      })),
    );
    expect(JSON.stringify(skipped)).not.toContain('stolen');
  });

  it('an image whose metadata names another index than its file is left out', async () => {
    const png = await makeEncoded(ENCODINGS[0]!, 8, 8);
    await craftedFolder(
      'task',
      'image-1.png',
      await embedProvenanceInBuffer(png, 'png', sampleProvenance()),
    );
    await craftedFolder(
      'task',
      'image-2.png',
      await embedProvenanceInBuffer(png, 'png', sampleProvenance({ imageIndex: 5 })),
    );
    const { records } = await rebuildLibrary(fixture.intake);
    expect(records).toHaveLength(1);
    expect(records[0]!.images.map((image) => image.index)).toEqual([0]);
  });

  it('a folder of images without Pictor metadata is passed over quietly, a damaged image reported', async () => {
    await craftedFolder('plain', 'image-1.png', await makeEncoded(ENCODINGS[0]!, 8, 8));
    await craftedFolder(
      'junk',
      'image-1.webp',
      Buffer.from('RIFF\xff\xff\xff\x7fWEBPVP8X', 'latin1'),
    );
    const { records, skipped } = await rebuildLibrary(fixture.intake);
    expect(records).toEqual([]);
    expect(skipped).toEqual([
      {
        path: 'junk',
        reason: expect.stringMatching(/^No sidecar, and no task in the images: The WebP/),
      },
    ]);
  });
});
