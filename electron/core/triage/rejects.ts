/**
 * The rejects a purge moves to Pictor's trash: every saved image flagged reject, in a board (and
 * the boards below it) or in the whole library, with their total size. The window and the CLI
 * ask the same question with the same count.
 */
import type { ImageRef } from '../gallery/gallery-images';
import { imagesByTask } from '../gallery/gallery-images';
import type { HistoryStore } from '../history/history-store';

export interface Rejects {
  readonly images: readonly ImageRef[];
  /** The saved files' total size in bytes. */
  readonly bytes: number;
}

/** The saved rejects in `board` (a path; null: the whole library), newest first. */
export function rejectsIn(
  history: Pick<HistoryStore, 'imageKeys' | 'get'>,
  board: string | null,
  max: number,
): Rejects {
  const images = history.imageKeys(
    { flag: 'reject', states: ['saved'], ...(board === null ? {} : { board }) },
    max,
  );
  let bytes = 0;
  // One record read per task, not per image.
  for (const [localId, indexes] of imagesByTask(images)) {
    const saved = history.get(localId)?.images ?? [];
    for (const index of indexes) bytes += saved[index]?.bytes ?? 0;
  }
  return { images, bytes };
}
