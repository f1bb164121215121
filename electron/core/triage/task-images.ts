/**
 * The images a whole task names for triage ("reject this task", from the task list): every image
 * of it the library holds (none in the trash), by position, as the history has them now. A task
 * the library does not have names no image; it is reported, never guessed.
 */
import { isVisibleImage, type TaskRecord } from '../../../shared/domain/task-record';
import type { ImageRef } from '../gallery';

/** The images of `localIds` (each once), and the ids the library does not have. */
export function imagesOfTasks(
  records: { get(localId: string): TaskRecord | undefined },
  localIds: readonly string[],
): { refs: ImageRef[]; unknown: string[] } {
  const refs: ImageRef[] = [];
  const unknown: string[] = [];
  for (const localId of new Set(localIds)) {
    const record = records.get(localId);
    if (!record) {
      unknown.push(localId);
      continue;
    }
    record.images.forEach((image, index) => {
      if (isVisibleImage(image)) refs.push({ localId, index });
    });
  }
  return { refs, unknown };
}
