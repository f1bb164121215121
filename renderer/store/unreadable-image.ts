/**
 * A gallery image whose task record the page cannot read (record-problem.ts). It keeps its place
 * in the gallery's list as an item naming only the image's ref; the tile says it cannot be shown
 * and the other images, built from readable records, show as ever.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { imageRecordSchema } from '../../shared/domain/task-record';
import type { ImageRef } from './image-ref';

/** Why each unreadable image cannot be shown, by its stand-in item. */
const problems = new WeakMap<GalleryItem, string>();

/** The task's creation time when it is a readable date (the list's order), else 0. */
function createdAtOf(record: unknown): number {
  const value = (record as { createdAt?: unknown } | null)?.createdAt;
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e15
    ? value
    : 0;
}

/** The stand-in for image `ref` of an unreadable `record`, with why it cannot be shown. */
export function unreadableImage(ref: ImageRef, record: unknown, problem: string): GalleryItem {
  const image = imageRecordSchema().parse({
    index: ref.index,
    url: null,
    state: 'invalid',
    attempts: 0,
  });
  const item: GalleryItem = {
    localId: ref.localId,
    taskId: null,
    index: ref.index,
    image,
    prompt: '',
    createdAt: createdAtOf(record),
  };
  problems.set(item, problem);
  return item;
}

/** Why `item` cannot be shown, or undefined when it stands for a readable image. */
export const imageProblem = (item: GalleryItem): string | undefined => problems.get(item);
