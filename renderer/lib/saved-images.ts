/** A task's images the viewer can show: those saved, with their file. */
import type { ImageRecord, TaskRecord } from '../../shared/domain/task-record';

/** Whether the viewer can show an image: it is saved, with its file. */
export function isViewable(image: ImageRecord): boolean {
  return image.state === 'saved' && image.file !== undefined;
}

export function savedImages(record: TaskRecord): ImageRecord[] {
  return record.images.filter(isViewable);
}
