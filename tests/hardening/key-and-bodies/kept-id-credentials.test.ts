/**
 * A task kept under a service id that carries a key (a library from before typed ids were
 * checked) whose image carries Content Credentials: the image is never edited, and Pictor's
 * packet for it is the XMP sidecar beside it (`xmpFile`), written from the record with the
 * key-carrying id. When the id is redacted (the app's sweep and `pictor track` edit the record,
 * whose write makes the task's sidecars again: Gallery.writeSidecar; a rebuild or "open the
 * library there" takes the folder in: library/archive/import-kept-id.ts), that packet is made
 * again from the redacted record, so it no longer keeps the key; before, it was left as it was
 * unless the image's rating or tags changed. The signed image stays byte for byte; a packet whose
 * id is the record's is left as it is.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/adapters/system-clock';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { taskFolderName } from '../../../electron/core/gallery/gallery-layout';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { buildXmpPacket, parseXmpPacket } from '../../../electron/core/gallery/metadata/xmp-packet';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { c2paFixture } from '../../support/c2pa-hostile';
import { makeRecord } from '../../support/gallery-helpers';
import { offlineCore, offlineDir } from '../../support/offline-core';
import { ENCODINGS, keyScanner } from './key-encodings';

const KEY = QUIRKY_KEYS.alice;
const IDS: Record<string, string> = {
  raw: `task-${KEY}`,
  base64: `task-${ENCODINGS.base64!(KEY, 1)}`,
  hexUpper: `task-${ENCODINGS.hexUpper!(KEY, 0)}`,
};

/** A gallery holding one task under `taskId`: a signed PNG, its packet beside it, pictor.json. */
async function signedTask(taskId: string) {
  const base = await offlineDir();
  const gallery = join(base, 'gallery');
  const png = c2paFixture('signed.png');
  const { width, height } = await sharp(png).metadata();
  const draft = makeRecord([null], { taskId, status: 'completed' });
  const folder = taskFolderName(draft);
  const record: TaskRecord = {
    ...draft,
    folder,
    images: [
      {
        ...draft.images[0]!,
        state: 'saved',
        file: `${folder}/image-1.png`,
        xmpFile: `${folder}/image-1.xmp`,
        mime: 'image/png',
        bytes: png.length,
        width: width!,
        height: height!,
      },
    ],
  };
  await mkdir(join(gallery, folder), { recursive: true });
  await writeFile(join(gallery, folder, 'image-1.png'), png);
  await writeFile(
    join(gallery, folder, 'image-1.xmp'),
    buildXmpPacket(provenanceOf(record, 0, 'old'))!,
  );
  await writeFile(join(gallery, folder, 'pictor.json'), sidecarText(record));
  return { base, gallery, record, png, xmp: join(gallery, folder, 'image-1.xmp') };
}

const leaks = (bytes: Buffer) =>
  keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${bytes.toString('utf8')}`);

describe('the XMP sidecar of a signed image of a task kept under a key-carrying id', () => {
  it.each(Object.keys(IDS))(
    'id %s: made again from the redacted record when its record is written',
    async (name) => {
      const task = await signedTask(IDS[name]!);
      // The positive control: the packet says the id, so it carries the key.
      expect(leaks(await readFile(task.xmp)).length, name).toBeGreaterThan(0);
      const redacted = { ...task.record, taskId: 'task-[redacted]' };
      // The sweep's edit writes the record's sidecars so (no rating or tags changed).
      await new Gallery({ root: task.gallery, appVersion: '9.9.9' }).writeSidecar(redacted);
      const packet = await readFile(task.xmp);
      expect(leaks(packet), name).toEqual([]);
      expect(parseXmpPacket(packet.toString('utf8'))).toMatchObject({
        taskId: 'task-[redacted]',
        localId: task.record.localId,
        // The version that wrote the packet it replaces.
        appVersion: 'old',
      });
      expect(await readFile(join(task.gallery, task.record.images[0]!.file!))).toEqual(task.png);
    },
  );

  it('is left as it is when it names the record’s own id', async () => {
    const task = await signedTask('task-9d3f-ordinary');
    const before = await readFile(task.xmp);
    await new Gallery({ root: task.gallery, appVersion: '9.9.9' }).writeSidecar(task.record);
    expect(await readFile(task.xmp)).toEqual(before);
  });

  it.each(Object.keys(IDS))(
    'id %s: "open the library there" takes the task in with its packet made again',
    async (name) => {
      const task = await signedTask(IDS[name]!);
      const core = await offlineCore({
        dir: task.base,
        galleryDir: join(task.base, 'first-gallery'),
        key: KEY,
        clock: systemClock,
      });
      expect(await core.library.openAt(task.gallery)).toEqual({ imported: 1, skipped: [] });
      expect(core.history.get(task.record.localId)?.taskId, name).toContain('[redacted]');
      const packet = await readFile(task.xmp);
      expect(leaks(packet), name).toEqual([]);
      expect(parseXmpPacket(packet.toString('utf8'))?.taskId, name).toContain('[redacted]');
      expect(
        leaks(await readFile(join(task.gallery, task.record.folder!, 'pictor.json'))),
        name,
      ).toEqual([]);
      expect(await readFile(join(task.gallery, task.record.images[0]!.file!))).toEqual(task.png);
    },
  );
});
