/**
 * Where a task's triage is written on disk: each saved image's in its XMP sidecar
 * (metadata/xmp-own-triage.ts), never in `pictor.json`, so a triage edit writes a few hundred
 * bytes per image and leaves the task's sidecar alone (Gallery.writeTriage). `pictor.json` keeps
 * the triage of an image that has no file to sit beside (in the trash, not downloaded yet) or
 * whose XMP sidecar could not take it (someone else's file at its name, a link).
 *
 * The rule that keeps both current: a `pictor.json` that holds the triage of a saved image is
 * written again at each triage edit of its task ({@link sidecarHoldsTriage}), and a rebuild
 * believes the triage `pictor.json` holds of a saved image, else its XMP's (library/rebuilt-
 * triage.ts). A library written before held every image's triage in `pictor.json` (rewritten at
 * every triage edit then, so current): it is written once more, without it, at the task's first
 * triage edit; until then a rebuild reads it as it always did.
 */
import { join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { readRegularFile } from '../fs';
import { SIDECAR_NAME } from './gallery-layout';
import { hasOwnTriage, imageWithoutTriage } from './metadata/xmp-own-triage';
import { MAX_SIDECAR_BYTES } from './sidecar';

/** Whether the image's triage lives in its XMP sidecar: a saved image with its file. */
export const triageInXmp = (image: ImageRecord): boolean =>
  image.state === 'saved' && image.file !== undefined;

/**
 * The record as `pictor.json` holds it: no triage of an image whose XMP sidecar holds it (all
 * saved images but those of `unheld`, by index: syncXmpSidecars could not write theirs).
 */
export function sidecarRecord(record: TaskRecord, unheld: ReadonlySet<number>): TaskRecord {
  const inXmp = (image: ImageRecord) => triageInXmp(image) && !unheld.has(image.index);
  if (!record.images.some((image) => inXmp(image) && hasOwnTriage(image))) return record;
  const images = record.images.map((image) => (inXmp(image) ? imageWithoutTriage(image) : image));
  // The task's star follows its images' picks (favourites.ts): a rebuild finds them in the XMP.
  return { ...record, images, favourite: images.some((image) => image.favourite) };
}

/**
 * Whether a triage edit of `record` may write its images' XMP sidecars alone: every image it
 * could have changed is saved with its file (an image in the trash is never triaged).
 */
export const triageWritesXmpAlone = (record: TaskRecord): boolean =>
  record.images.every((image) => image.state === 'deleted' || triageInXmp(image));

/** One image of a sidecar as read loosely: enough to see whether it carries triage. */
interface LooseImage {
  readonly state?: unknown;
  readonly file?: unknown;
  readonly [key: string]: unknown;
}

/**
 * Whether the task's `pictor.json` in `folder` (absolute) holds the triage of a saved image (a
 * library written before), or cannot be read: then a triage edit writes it whole.
 */
export async function sidecarHoldsTriage(root: string, folder: string): Promise<boolean> {
  try {
    const bytes = await readRegularFile(root, join(folder, SIDECAR_NAME), MAX_SIDECAR_BYTES);
    const sidecar = JSON.parse(bytes.toString('utf8')) as { record?: { images?: unknown } };
    const images = sidecar.record?.images;
    if (!Array.isArray(images)) return true;
    return images.some((image: LooseImage) => {
      if (image === null || typeof image !== 'object') return false;
      const saved = image.state === 'saved' && typeof image.file === 'string';
      return saved && hasOwnTriage(image as Parameters<typeof hasOwnTriage>[0]);
    });
  } catch {
    // No sidecar, a link at its name, not JSON: written whole, as any write of the task would.
    return true;
  }
}
