/**
 * The library's limits on triage (shared/domain/triage.ts: at most {@link MAX_BOARDS} boards and
 * {@link MAX_TAGS_PER_LIBRARY} different tags), kept where every record is written. A record names
 * its boards and tags, and its write creates what it names (triage-rows.ts); a record read from a
 * crafted gallery folder or archive can name any number of them. So each write first drops, from
 * the record it stores, every membership that would make a board or a tag past the limit, and
 * counts it: rebuild and import then say how many in a sentence. A board or tag the library has
 * already is always kept; so is one the record's previous version carried.
 *
 * One {@link LibraryLimits} lives for one write transaction: the counts are read once, when a
 * record first names something new, and followed as the transaction adds to them.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import {
  type ImageTriage,
  boardKey,
  foldName,
  MAX_BOARDS,
  MAX_TAGS_PER_LIBRARY,
  parentPath,
} from '../../../shared/domain/triage';
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { SqliteConnection } from './sqlite-connection';
import { BOARD_COUNT, BOARD_EXISTS, FIRST_TAG, TAG_AFTER, TAG_EXISTS } from './history-statements';

/** Memberships a write left out of its records: they would have passed the library's limits. */
export interface TriageDropped {
  /** An image's tag that would have been the library's tag past {@link MAX_TAGS_PER_LIBRARY}. */
  readonly tags: number;
  /** An image's board that would have made the library's boards more than {@link MAX_BOARDS}. */
  readonly boards: number;
}

export const NOTHING_DROPPED: TriageDropped = { tags: 0, boards: 0 };

/** The sum of two counts of drops. */
export function addDropped(a: TriageDropped, b: TriageDropped): TriageDropped {
  return { tags: a.tags + b.tags, boards: a.boards + b.boards };
}

/** A limit that drops tags or boards, and the sentence that says how many it dropped. */
export interface DropLimit {
  readonly max: number;
  readonly key: MainMessageKey;
}

/**
 * What the user reads of `dropped` under `limits`: one sentence for the tags, then one for the
 * boards, when any was dropped.
 */
export function droppedSentences(
  dropped: TriageDropped,
  limits: Readonly<Record<keyof TriageDropped, DropLimit>>,
): Sentence[] {
  return (['tags', 'boards'] as const)
    .filter((kind) => dropped[kind] > 0)
    .map((kind) => sentence(limits[kind].key, { max: limits[kind].max, count: dropped[kind] }));
}

/** What the user reads of what the library's limits left out (see {@link droppedSentences}). */
export function limitSentences(dropped: TriageDropped): Sentence[] {
  return droppedSentences(dropped, {
    tags: { max: MAX_TAGS_PER_LIBRARY, key: 'error.triage.libraryTagsLeftOut' },
    boards: { max: MAX_BOARDS, key: 'error.triage.libraryBoardsLeftOut' },
  });
}

/** Keys of one list of an image (tags or boards) the record's previous version had. */
type Known = ReadonlySet<string>;

export class LibraryLimits {
  private tagCount: number | null = null;
  private boardCount: number | null = null;
  /** Keys this transaction added (the rows may not be written yet). */
  private readonly newTags = new Set<string>();
  private readonly newBoards = new Set<string>();
  private droppedTags = 0;
  private droppedBoards = 0;

  constructor(private readonly connection: SqliteConnection) {}

  /** What this transaction's records lost so far. */
  get dropped(): TriageDropped {
    return { tags: this.droppedTags, boards: this.droppedBoards };
  }

  /**
   * `record` with every tag and board past the library's limits left out (see the file's
   * comment); `before`, the record as stored, names what it keeps whatever the counts say. The
   * same object when nothing is dropped.
   */
  admit(record: TaskRecord, before?: TaskRecord): TaskRecord {
    const images = record.images.map((image, position) =>
      this.admitTriage(image, before?.images[position]),
    );
    return images.every((image, n) => image === record.images[n]) ? record : { ...record, images };
  }

  /**
   * An image's triage with every tag and board past the library's limits left out; `before`, its
   * triage as stored, names what it keeps. The same object when nothing is dropped.
   */
  admitTriage<T extends ImageTriage>(image: T, before: ImageTriage | undefined): T {
    const tags = image.tags && this.kept(image.tags, keysOf(before?.tags, foldName), 'tags');
    const boards =
      image.boards && this.kept(image.boards, keysOf(before?.boards, boardKey), 'boards');
    if (tags === image.tags && boards === image.boards) return image;
    const { tags: _tags, boards: _boards, ...rest } = image;
    return {
      ...rest,
      ...(tags && tags.length > 0 ? { tags } : {}),
      ...(boards && boards.length > 0 ? { boards } : {}),
    } as T;
  }

  /** The entries of `list` within the limit; the same array when all are. */
  private kept(list: readonly string[], known: Known, field: 'tags' | 'boards'): readonly string[] {
    const admit = field === 'tags' ? this.admitTag : this.admitBoard;
    const kept = list.filter((entry) => admit(entry, known));
    const lost = list.length - kept.length;
    if (lost === 0) return list;
    if (field === 'tags') this.droppedTags += lost;
    else this.droppedBoards += lost;
    return kept;
  }

  private readonly admitTag = (tag: string, known: Known): boolean => {
    const key = foldName(tag);
    if (known.has(key) || this.newTags.has(key)) return true;
    if (this.connection.get(TAG_EXISTS, [key]) !== null) return true;
    this.tagCount ??= tagCount(this.connection);
    if (this.tagCount >= MAX_TAGS_PER_LIBRARY) return false;
    this.tagCount += 1;
    this.newTags.add(key);
    return true;
  };

  private readonly admitBoard = (path: string, known: Known): boolean => {
    if (known.has(boardKey(path))) return true;
    // The board and each parent it lacks: what its write would add to the boards table.
    const missing: string[] = [];
    for (let at: string | null = path; at !== null; at = parentPath(at)) {
      const key = boardKey(at);
      if (this.newBoards.has(key) || this.connection.get(BOARD_EXISTS, [key]) !== null) break;
      missing.push(key);
    }
    if (missing.length === 0) return true;
    this.boardCount ??= countOf(this.connection, BOARD_COUNT);
    if (this.boardCount + missing.length > MAX_BOARDS) return false;
    this.boardCount += missing.length;
    for (const key of missing) this.newBoards.add(key);
    return true;
  };
}

function keysOf(list: readonly string[] | undefined, key: (entry: string) => string): Known {
  return new Set((list ?? []).map(key));
}

/**
 * How many different tags the library's images carry: from the first key to each next one, an
 * index seek each (history-statements.ts, FIRST_TAG), so no ephemeral table. It runs for a tag
 * new to the library, once a write, and before the user adds one.
 */
export function tagCount(connection: SqliteConnection): number {
  let count = 0;
  for (
    let key = connection.get(FIRST_TAG, [])?.['k'];
    typeof key === 'string';
    key = connection.get(TAG_AFTER, [key])?.['k']
  ) {
    count += 1;
  }
  return count;
}

function countOf(connection: SqliteConnection, sql: string): number {
  return Number(connection.get(sql, [])?.['n'] ?? 0);
}
