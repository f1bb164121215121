/**
 * The rejects a purge moves to Pictor's trash: every saved image flagged reject, in a board (and
 * the boards below it), in the whole library, or among the images a gallery filter shows (the
 * Triage view's purge: what it moves is what the view shows), with their total size. The window
 * and the CLI ask the same question with the same count.
 */
import { distinctImages, type ImageRef, imagesByTask } from '../gallery/gallery-face';
import type { HistoryStore, WholeImageQuery } from '../history';
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
  return { images, bytes: bytesOf(history, images) };
}

/**
 * The saved rejects among the images `filter` shows: none when it shows only another flag or no
 * saved image (a filter narrows the rejects, never widens them).
 */
export function rejectsMatching(
  history: Pick<HistoryStore, 'imageKeys' | 'get'>,
  filter: WholeImageQuery,
  max: number,
): Rejects {
  const otherFlag = filter.flag !== undefined && filter.flag !== 'reject';
  const noSaved = filter.states !== undefined && !filter.states.includes('saved');
  if (otherFlag || noSaved) return { images: [], bytes: 0 };
  const images = history.imageKeys({ ...filter, flag: 'reject', states: ['saved'] }, max);
  return { images, bytes: bytesOf(history, images) };
}

/** The saved files' total size of `images`. */
function bytesOf(history: Pick<HistoryStore, 'get'>, images: readonly ImageRef[]): number {
  let bytes = 0;
  // One record read per task, not per image.
  for (const [localId, indexes] of imagesByTask(images)) {
    const saved = history.get(localId)?.images ?? [];
    for (const index of indexes) bytes += saved[index]?.bytes ?? 0;
  }
  return bytes;
}
