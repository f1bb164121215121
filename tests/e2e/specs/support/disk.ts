/**
 * What the disk holds after a journey: the history read back, the gallery's files and sidecars.
 * The harness's own disk helpers are re-exported so a spec finds all of them here.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseSidecar } from '../../../../electron/core/gallery/sidecar';
import { SIDECAR_NAME, xmpSidecarName } from '../../../../electron/core/gallery/gallery-layout';
import {
  hasOwnTriage,
  readOwnTriage,
  withOwnTriage,
} from '../../../../electron/core/gallery/metadata/xmp-own-triage';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { filesUnder } from '../../../support/files';
import { listFiles } from '../../harness/disk';

export { listFiles, readHistory, type AppFolders } from '../../harness/disk';

/** Every image file (png/jpeg/webp outside .thumbs) anywhere under the gallery folder. */
export async function imageFiles(galleryDir: string): Promise<string[]> {
  return (await filesUnder(galleryDir, { missing: 'empty' }))
    .filter((file) => /^image-\d+\.(png|jpe?g|webp)$/.test(basename(file)))
    .filter((file) => !dirname(file).includes('.thumbs'));
}

/**
 * Every sidecar's record in the gallery, by prompt (read from disk, parsed as the app does), each
 * saved image's triage taken from its XMP sidecar where `pictor.json` holds none: a triage edit
 * writes the XMP, not `pictor.json`, and a rebuild reads it back the same way (library/rebuild.ts).
 */
export async function readSidecars(galleryDir: string): Promise<Map<string, TaskRecord>> {
  const records = new Map<string, TaskRecord>();
  for (const file of await listFiles(galleryDir)) {
    if (file !== SIDECAR_NAME && !file.endsWith(`/${SIDECAR_NAME}`)) continue;
    const parsed = parseSidecar(await readFile(join(galleryDir, file), 'utf8'));
    if (!parsed.ok) throw new Error(`${file}: ${parsed.reason}`);
    const images = await Promise.all(
      parsed.record.images.map(async (image) => {
        if (image.file === undefined || hasOwnTriage(image)) return image;
        const xmp = join(galleryDir, dirname(image.file), xmpSidecarName(basename(image.file)));
        const packet = await readFile(xmp, 'utf8').catch(() => '');
        const own = readOwnTriage(packet);
        return own === null ? image : withOwnTriage(image, own);
      }),
    );
    records.set(parsed.record.request.prompt, { ...parsed.record, images });
  }
  return records;
}
