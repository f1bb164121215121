/**
 * A rebuilt task's triage (gallery/sidecar-triage.ts): the triage its `pictor.json` holds of a
 * saved image is believed (such a sidecar is written again at every triage edit of the task, so
 * it is current: a library written before, or an image whose XMP sidecar could not take it);
 * else the image's triage is the one its XMP sidecar holds, where a triage edit writes it.
 */
import { basename, join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import {
  hasOwnTriage,
  readOwnTriage,
  readSidecarIfAny,
  triageInXmp,
  withOwnTriage,
  xmpSidecarOf,
} from '../gallery';
import type { RebuiltFolder } from './rebuilt-image';

/** The image with the triage its XMP sidecar in the folder holds, when it holds any. */
async function imageWithXmpTriage(image: ImageRecord, files: RebuiltFolder): Promise<ImageRecord> {
  const sidecar = xmpSidecarOf(image);
  const name = sidecar === undefined ? undefined : basename(sidecar);
  if (name === undefined || !files.images.has(name)) return image;
  const text = await readSidecarIfAny(files.root, join(files.folder, name)).catch(() => null);
  const own = text === null ? null : readOwnTriage(text);
  return own ? withOwnTriage(image, own) : image;
}

/**
 * `record` (as its `pictor.json` says, before its images are matched with their files) with the
 * triage of each saved image whose triage `pictor.json` does not hold read from its XMP sidecar
 * in `files`.
 */
export async function withXmpTriage(record: TaskRecord, files: RebuiltFolder): Promise<TaskRecord> {
  const images = await Promise.all(
    record.images.map((image) =>
      triageInXmp(image) && !hasOwnTriage(image) ? imageWithXmpTriage(image, files) : image,
    ),
  );
  return images.every((image, n) => image === record.images[n]) ? record : { ...record, images };
}
