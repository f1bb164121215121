/**
 * What the library says of the image `pictor info` describes: its rating, flag, tags and boards,
 * and what Pictor left out of its metadata for a held key (the window's sentence,
 * shared/i18n/key-removed.ts), read from the history at --data-dir (the default library when not given) for the task and image
 * the file's own metadata names. A folder with no library is not made into one (info needs no
 * library), and a library that cannot be read says nothing: info still describes the file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageRecord } from '../../shared/domain/task-record';
import { KEY_REMOVED_LABEL, keyRemovedSentence } from '../../shared/i18n/key-removed';
import { englishText } from '../../shared/i18n/sentence';
import { serviceIdOf, type ServiceId } from '../../shared/domain/service-id';
import { flagOf, ratingOf, type TriageFlag } from '../../shared/domain/triage';
import { HISTORY_FILE, HistoryError, HistoryStore } from '../core/history';

/** An image's triage as info prints it (`--json`: `library`). */
export interface InfoTriage {
  /** 0 unrated, else 1 to 5 stars. */
  readonly rating: number;
  readonly flag: TriageFlag;
  readonly tags: readonly string[];
  /** The boards the image is on, by path (`Trips/Alps`). */
  readonly boards: readonly string[];
  /** What Pictor left out of the image's metadata because it carried a held key, or null. */
  readonly keyRemoved: NonNullable<ImageRecord['keyRemoved']> | null;
  /** The service the image's task is on, as `list` and the window name it (service-id.ts). */
  readonly service: ServiceId;
}

/** The triage of image `imageIndex` of task `localId` in the library at `dataDir`, or null. */
export function libraryTriage(
  dataDir: string,
  image: { readonly localId: string; readonly imageIndex: number } | null,
): InfoTriage | null {
  const file = join(dataDir, HISTORY_FILE);
  if (image === null || !existsSync(file)) return null;
  let history: HistoryStore;
  try {
    history = HistoryStore.open(file);
  } catch (error) {
    if (error instanceof HistoryError) return null;
    throw error;
  }
  try {
    const record = history.get(image.localId);
    const found = record?.images.find((one) => one.index === image.imageIndex);
    return record && found ? { ...triageOf(found), service: serviceIdOf(record) } : null;
  } finally {
    history.close();
  }
}

function triageOf(image: ImageRecord): Omit<InfoTriage, 'service'> {
  return {
    rating: ratingOf(image),
    flag: flagOf(image),
    tags: image.tags ?? [],
    boards: image.boards ?? [],
    keyRemoved: image.keyRemoved ?? null,
  };
}

/** The triage's lines of info's text (none when the image is not in the library). */
export function triageLines(triage: InfoTriage | null, dataDir: string): string[] {
  if (triage === null) return [`  Library: not in the library at ${dataDir}`];
  const none = (list: readonly string[]) => (list.length === 0 ? 'none' : list.join(', '));
  return [
    `  Rating: ${triage.rating === 0 ? 'unrated' : `${triage.rating} of 5`}`,
    `  Flag: ${triage.flag}`,
    `  Tags: ${none(triage.tags)}`,
    `  Boards: ${none(triage.boards)}`,
    ...(triage.keyRemoved
      ? [
          `  ${englishText(KEY_REMOVED_LABEL)}: ${englishText(keyRemovedSentence(triage.keyRemoved))}`,
        ]
      : []),
  ];
}
