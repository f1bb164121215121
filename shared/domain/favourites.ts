/**
 * One favourite, and it is the pick flag: a star belongs to an image, and a starred image is a
 * picked one (shared/domain/triage.ts). A pick is stored as the star (`favourite`), which earlier
 * versions read too; a reject as `flag: 'reject'` (never starred); no flag as neither. A task is a
 * favourite when any of its images is, and starring a task picks every image it has (unstarring
 * it unpicks them all). A task with no image yet (still running,
 * or one that failed) keeps its own star, which its images take when they arrive. So the task
 * list's and the gallery's Favourites filters agree: a task is listed when one of its images is,
 * and a starred task's images are listed.
 *
 * Every change to a star goes through {@link withTaskFavourite} (a task with no image) or a flag
 * set by core/triage (an image); {@link withFavourites} brings any record to this rule (records
 * written before it, images that arrived after the task was starred, favourites of versions
 * before flags) and is applied where records are stored.
 */
import { isVisibleImage, type ImageRecord, type TaskRecord } from './task-record';

/** The task's images a flag applies to: those not in the trash. */
export function flaggableImages(record: Pick<TaskRecord, 'images'>): ImageRecord[] {
  return record.images.filter(isVisibleImage);
}

/** Whether the task counts as a favourite: any image starred, or a star of its own without images. */
export function isFavouriteTask(record: Pick<TaskRecord, 'favourite' | 'images'>): boolean {
  return record.images.length === 0
    ? record.favourite
    : record.images.some((image) => image.favourite);
}

/** The image picked (starred) or not: a pick clears a reject; an unstarred reject stays one. */
function withImagePick(image: ImageRecord, favourite: boolean): ImageRecord {
  if (!favourite) return image.favourite ? { ...image, favourite } : image;
  if (image.favourite && image.flag === undefined) return image;
  const { flag: _flag, ...rest } = image;
  return { ...rest, favourite };
}

/** The task starred or not: its own star and every image's. */
export function withTaskFavourite(record: TaskRecord, favourite: boolean): TaskRecord {
  return {
    ...record,
    favourite,
    images: record.images.map((image) => withImagePick(image, favourite)),
  };
}

/**
 * The image's pick as stored: a star (`favourite`), never a `flag` of `pick`, which a crafted or
 * foreign record may carry and which becomes the star; a reject is never starred.
 */
function imageUnderRule(image: ImageRecord): ImageRecord {
  if (image.flag === 'pick') {
    const { flag: _flag, ...rest } = image;
    return { ...rest, favourite: true };
  }
  return image.flag === 'reject' && image.favourite ? { ...image, favourite: false } : image;
}

/**
 * The record under the one-favourite rule, the same object when it already is: a task starred
 * while it had no images (or by an earlier Pictor, whose task and image stars were apart) stars
 * its images; a task with a starred image is starred; each image's star is its pick flag.
 */
export function withFavourites(record: TaskRecord): TaskRecord {
  if (record.images.length === 0) return record;
  const ruled = record.images.map(imageUnderRule);
  const images = ruled.some((image, n) => image !== record.images[n]) ? ruled : record.images;
  const anyImage = images.some((image) => image.favourite);
  if (anyImage) {
    return record.favourite && images === record.images
      ? record
      : { ...record, images, favourite: true };
  }
  if (record.favourite) return withTaskFavourite({ ...record, images }, true);
  return images === record.images ? record : { ...record, images };
}
