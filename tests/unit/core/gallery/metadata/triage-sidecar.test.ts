/**
 * The triage's XMP sidecar as a file of its image: the trash moves it with the image and Undo
 * brings it back beside it; a rebuild does not take a sidecar of triage alone for the image's own
 * packet (`xmpFile`, Content Credentials), and does take Pictor's packet. Its packet is recognised
 * exactly, so only what Pictor wrote is ever removed.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTaskFolder } from '../../../../../electron/core/library/rebuild';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { buildXmpPacket } from '../../../../../electron/core/gallery/metadata/xmp-packet';
import {
  buildTriagePacket,
  isTriagePacket,
  xmpTriageOf,
} from '../../../../../electron/core/gallery/metadata/xmp-triage';
import { galleryWithImages, inTrash, onlyRecord } from '../../trash/trash-fixture';
import { makeRecord } from '../../../../support/gallery-helpers';
import { ENCODINGS, makeEncoded, sampleProvenance } from './meta-helpers';
import { testFolder } from '../../../../support/per-test';

describe('the triage in XMP terms', () => {
  it('rates 1-5, a reject -1, and writes nothing for an untriaged image', () => {
    expect(xmpTriageOf({ rating: 3, tags: ['a', 'A', 'b'] })).toEqual({
      rating: 3,
      subjects: ['a', 'b'],
    });
    expect(xmpTriageOf({ rating: 3, flag: 'reject' })).toEqual({ rating: -1, subjects: [] });
    expect(xmpTriageOf({ favourite: true })).toBeNull();
    expect(xmpTriageOf({ tags: ['x'] })).toEqual({ subjects: ['x'] });
  });

  it('knows its own packet and nothing else', () => {
    const packet = buildTriagePacket({ rating: 2, subjects: ['<&>', 'q"\''] }).toString('utf8');
    expect(packet).toContain('<rdf:li>&lt;&amp;&gt;</rdf:li>');
    expect(isTriagePacket(packet)).toBe(true);
    expect(isTriagePacket(packet.replace('</rdf:Bag>', '<rdf:li>x</rdf:li></rdf:Bag>'))).toBe(
      false,
    );
    expect(
      isTriagePacket(packet.replace('<xmp:Rating>', '<xmp:Label>x</xmp:Label><xmp:Rating>')),
    ).toBe(false);
    expect(isTriagePacket(buildXmpPacket(sampleProvenance())!.toString('utf8'))).toBe(false);
  });
});

describe('the trash and the triage sidecar', () => {
  it('holds it with its image and brings it back beside it', async () => {
    const g = await galleryWithImages();
    const xmp = join(g.root, 'task-0', 'image-1.xmp');
    const packet = buildTriagePacket({ rating: 5, subjects: ['kept'] });
    await writeFile(xmp, packet);
    await g.ops.deleteImages(g.refs);
    expect(existsSync(xmp)).toBe(false);
    expect(await inTrash(g.root)).toContainEqual(expect.stringMatching(/\/image-1\.xmp$/));
    const back = onlyRecord(await g.ops.restoreImages(g.refs));
    expect(back.images[0]!.state).toBe('saved');
    expect(back.images[0]!.xmpFile).toBeUndefined();
    expect((await readFile(xmp)).equals(packet)).toBe(true);
  });

  it('deletes an image that has none as before', async () => {
    const g = await galleryWithImages();
    const updated = onlyRecord(await g.ops.deleteImages(g.refs));
    expect(updated.images[0]!.state).toBe('deleted');
  });
});

describe('rebuild and the triage sidecar', () => {
  async function folderWith(sidecar: Buffer): Promise<{ root: string; folder: string }> {
    const root = await testFolder('rebuild-xmp');
    const folder = join(root, 'task');
    await mkdir(folder);
    await writeFile(join(folder, 'image-1.png'), await makeEncoded(ENCODINGS[0]!, 8, 8));
    await writeFile(join(folder, 'image-1.xmp'), sidecar);
    const base = makeRecord(['https://cdn.example/1.png']);
    const record = {
      ...base,
      folder: 'task',
      images: [{ ...base.images[0]!, state: 'saved' as const, file: 'task/image-1.png' }],
    };
    await writeFile(join(folder, 'pictor.json'), sidecarText(record));
    return { root, folder };
  }

  it('leaves a sidecar of triage alone out of the record', async () => {
    const { root, folder } = await folderWith(buildTriagePacket({ rating: 1, subjects: [] }));
    const record = await readTaskFolder(root, folder);
    expect(record?.images[0]?.state).toBe('saved');
    expect(record?.images[0]?.xmpFile).toBeUndefined();
  });

  it("names Pictor's packet beside a signed image, as before", async () => {
    const { root, folder } = await folderWith(buildXmpPacket(sampleProvenance())!);
    const record = await readTaskFolder(root, folder);
    expect(record?.images[0]?.xmpFile).toBe('task/image-1.xmp');
  });
});
