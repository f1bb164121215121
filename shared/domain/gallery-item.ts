/** One image of one task, as the gallery shows it: built the same way on both sides. */
import type { ImageRecord, TaskRecord } from './task-record';

export interface GalleryItem {
  localId: string;
  taskId: string | null;
  /** The image's `index` (its position in the service's output). */
  index: number;
  image: ImageRecord;
  prompt: string;
  model?: string;
  size?: string;
  quality?: string;
  createdAt: number;
}

export function galleryItemOf(record: TaskRecord, image: ImageRecord): GalleryItem {
  const { prompt, model, size, quality } = record.request;
  return {
    localId: record.localId,
    taskId: record.taskId,
    index: image.index,
    image,
    prompt,
    ...(model === undefined ? {} : { model }),
    ...(size === undefined ? {} : { size }),
    ...(quality === undefined ? {} : { quality }),
    createdAt: record.createdAt,
  };
}
