/**
 * The triage an import keeps of its source's images, and what it says of the rest. Each image's
 * tags and boards are checked by the rules every record is stored by (shared/domain/triage.ts:
 * at most 64 tags and 256 boards an image, each name valid), before the task's sidecar and the
 * history are written, so both keep the same lists; an entry of the source the library's image
 * does not carry afterwards is counted as dropped (a repeat of one it carries is not). The
 * library's own limits (history/triage-limits.ts) are counted where the history writes.
 */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import {
  boardKey,
  checkBoardPath,
  checkTag,
  foldName,
  MAX_BOARDS_PER_IMAGE,
  MAX_TAGS_PER_IMAGE,
} from '../../../../shared/domain/triage';
import { recordWithCleanTriage } from '../../../../shared/domain/triage-edits';
import type { Sentence } from '../../../../shared/i18n/sentence';
import {
  addDropped,
  droppedSentences,
  limitSentences,
  NOTHING_DROPPED,
  type TriageDropped,
} from '../../history';

/** How many of `list`'s entries have no key among `kept`'s (one not valid has none). */
function lost(
  list: readonly string[] | undefined,
  kept: readonly string[] | undefined,
  keyOf: (entry: string) => string | null,
  keyOfKept: (entry: string) => string,
): number {
  if (list === undefined) return 0;
  const keys = new Set((kept ?? []).map(keyOfKept));
  return list.filter((entry) => {
    const key = keyOf(entry);
    return key === null || !keys.has(key);
  }).length;
}

const tagKey = (entry: string): string | null => {
  const checked = checkTag(entry, false);
  return checked.ok ? checked.key : null;
};

const pathKey = (entry: string): string | null => {
  const checked = checkBoardPath(entry, false);
  return checked.ok ? checked.key : null;
};

/** The tags and boards of `incoming` (a source's image) that `kept` (the library's) lacks. */
export function droppedOf(incoming: ImageRecord, kept: ImageRecord): TriageDropped {
  return {
    tags: lost(incoming.tags, kept.tags, tagKey, foldName),
    boards: lost(incoming.boards, kept.boards, pathKey, boardKey),
  };
}

/** `record` (as its source said) with clean triage, and what that dropped of its images'. */
export function cleanedRecord(record: TaskRecord): { record: TaskRecord; dropped: TriageDropped } {
  const clean = recordWithCleanTriage(record);
  const dropped = record.images.reduce(
    (sum, image, n) => addDropped(sum, droppedOf(image, clean.images[n] ?? image)),
    NOTHING_DROPPED,
  );
  return { record: clean, dropped };
}

/**
 * The sentences of an import's summary about triage: what the images' own limits dropped
 * (`perImage`), then what the library's limits left out (`library`).
 */
export function importTriageNotes(perImage: TriageDropped, library: TriageDropped): Sentence[] {
  const said = droppedSentences(perImage, {
    tags: { max: MAX_TAGS_PER_IMAGE, key: 'error.triage.importTagsDropped' },
    boards: { max: MAX_BOARDS_PER_IMAGE, key: 'error.triage.importBoardsDropped' },
  });
  return [...said, ...limitSentences(library)];
}
