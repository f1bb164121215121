/**
 * Library images for wired tests of the edit panel and its neighbours: a task of main's history
 * whose images are real PNGs in the gallery, and the input main makes of such an image (its
 * digest and size), as `edit:run` names it. One home for what edit-panel, edit-service-address
 * and service-offered-alike had each written out.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { InputImage } from '../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { InterceptedApi } from '../../support/intercepted-api';
import { makeImage, makeTask } from '../../support/task-records';

/** The input main makes of `bytes` (its digest, its size), as edit:run names it. */
export function inputOf(bytes: Buffer, width: number, height: number): InputImage {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { sha256, mime: 'image/png', width, height, bytes: bytes.length };
}

/**
 * A task of main's history whose images are `files` (real PNGs in the gallery, `<localId>/<n>.png`),
 * saved: the library images the panel takes. `fields` are the record's other fields.
 */
export function putLibraryTask(
  main: InterceptedApi,
  localId: string,
  files: readonly Buffer[],
  fields: Parameters<typeof makeTask>[0] = {},
): TaskRecord {
  const folder = join(main.runtime.galleryDir(), localId);
  mkdirSync(folder, { recursive: true });
  const images = files.map((bytes, index) => {
    writeFileSync(join(folder, `${String(index)}.png`), bytes);
    return makeImage(index, { file: `${localId}/${String(index)}.png`, thumbnail: undefined });
  });
  const record = makeTask({ ...fields, localId, images });
  main.runtime.core.history.putMany([record]);
  return record;
}

/** A saved library image (task-1's first, a 64 × 48 PNG in the gallery) and its input. */
export async function smallLibraryImage(main: InterceptedApi): Promise<InputImage> {
  const bytes = await sharp({
    create: { width: 64, height: 48, channels: 3, background: '#6688aa' },
  })
    .png()
    .toBuffer();
  putLibraryTask(main, 'task-1', [bytes]);
  return inputOf(bytes, 64, 48);
}
