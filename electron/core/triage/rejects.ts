/**
 * The rejects a purge moves to Pictor's trash: every saved image flagged reject, in a board (and
 * the boards below it) or in the whole library, with their total size. The window and the CLI
 * ask the same question with the same count.
 */
import type { ImageRef } from '../gallery/gallery-images';
import { distinctImages, imagesByTask } from '../gallery/gallery-images';
import type { HistoryStore } from '../history/history-store';
import { boardKey } from '../../../shared/domain/triage';

export interface Rejects {
  readonly images: readonly ImageRef[];
  /** The saved files' total size in bytes. */
  readonly bytes: number;
}

/**
 * The saved rejects in `board` and the boards inside it (a path; null: the whole library), each
 * once, newest first within each board.
 */
export function rejectsIn(
  history: Pick<HistoryStore, 'imageKeys' | 'get' | 'triage'>,
  board: string | null,
  max: number,
): Rejects {
  const query = { flag: 'reject', states: ['saved'] } as const;
  const boards = board === null ? null : history.triage.treeKeys(boardKey(board));
  const images =
    boards === null
      ? history.imageKeys(query, max)
      : distinctImages(
          boards.flatMap((key) => history.imageKeys({ ...query, board: key }, max)),
        ).slice(0, max);
  let bytes = 0;
  // One record read per task, not per image.
  for (const [localId, indexes] of imagesByTask(images)) {
    const saved = history.get(localId)?.images ?? [];
    for (const index of indexes) bytes += saved[index]?.bytes ?? 0;
  }
  return { images, bytes };
}
