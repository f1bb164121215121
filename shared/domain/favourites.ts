/**
 * One favourite: a star belongs to an image. A task is a favourite when any of its images is,
 * and starring a task stars every image it has (unstarring it clears them all). A task with no
 * image yet (still running, or one that failed) keeps its own star, which its images take when
 * they arrive. So the task list's and the gallery's Favourites filters agree: a task is listed
 * when one of its images is, and a starred task's images are listed.
 *
 * Every change to a star goes through {@link withTaskFavourite} or {@link withImageFavourite};
 * {@link withFavourites} brings any record to this rule (records written before it, images that
 * arrived after the task was starred) and is applied where records are stored.
 */
import type { TaskRecord } from './task-record';

/** Whether the task counts as a favourite: any image starred, or a star of its own without images. */
export function isFavouriteTask(record: Pick<TaskRecord, 'favourite' | 'images'>): boolean {
  return record.images.length === 0
    ? record.favourite
    : record.images.some((image) => image.favourite);
}

/** The task starred or not: its own star and every image's. */
export function withTaskFavourite(record: TaskRecord, favourite: boolean): TaskRecord {
  return {
    ...record,
    favourite,
    images: record.images.map((image) =>
      image.favourite === favourite ? image : { ...image, favourite },
    ),
  };
}

/** One image starred or not (by its `index`); the task's star follows its images. */
export function withImageFavourite(
  record: TaskRecord,
  index: number,
  favourite: boolean,
): TaskRecord {
  const images = record.images.map((image) =>
    image.index === index && image.favourite !== favourite ? { ...image, favourite } : image,
  );
  return { ...record, images, favourite: images.some((image) => image.favourite) };
}

/**
 * The record under the one-favourite rule, the same object when it already is: a task starred
 * while it had no images (or by an earlier Pictor, whose task and image stars were apart) stars
 * its images; a task with a starred image is starred.
 */
export function withFavourites(record: TaskRecord): TaskRecord {
  if (record.images.length === 0) return record;
  const anyImage = record.images.some((image) => image.favourite);
  if (anyImage) return record.favourite ? record : { ...record, favourite: true };
  return record.favourite ? withTaskFavourite(record, true) : record;
}
