/**
 * The messages between main and the history worker (history-worker.ts, history-port.ts): a call
 * names one heavy operation of the store and its arguments; the reply carries its result, or the
 * sentence of the error it threw. Each side checks the envelope it receives (the operation's name,
 * the call's number, the reply's kind) before it acts; records inside are the history's own
 * (written by this program, read back through the store's checked path).
 */
import { z } from 'zod';
import type { ProviderId } from '../../../shared/domain/providers';
import type { ImageFilesPatch } from '../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { sentenceSchema } from '../../../shared/i18n/sentence';
import type { ImageTriage as TriageFields, TriageFlag } from '../../../shared/domain/triage';
import type { AnchorWalk } from './gallery-order';
import type { DaySum, ServiceSum, SumPiece } from './ledger-sums';
import type { ModelSlice } from './image-models';
import type { AnchorChunk } from './position-anchors';
import type { CarriedFields } from './carried-fields';
import type { TriageDropped } from './triage-limits';
import type { ImageKey, WholeImageQuery, WholeTaskQuery } from './whole-set';
import type { KeptIdMark, KeptIdSlice, KeptIdWalk } from './kept-key-ids';

/** An image of a task, by its position in the task's images. */
export interface ImageAt {
  readonly localId: string;
  readonly index: number;
}

/** The change log's entries a write made, [first, last] seq: main's feed skips them. */
export type Logged = readonly (readonly [number, number])[];

/** The triage of an image, as Undo and Redo write it back. */
export type ImageTriage = TriageFields;

/**
 * What a triage write does to each named image, its words checked by the caller (core/triage):
 * a tag's name as it is written and its folded key, a board's path as stored and its key.
 */
export type TriageEdit =
  | { readonly kind: 'rating'; readonly rating: number }
  | { readonly kind: 'flag'; readonly flag: TriageFlag }
  | { readonly kind: 'tag'; readonly name: string; readonly key: string; readonly add: boolean }
  | {
      readonly kind: 'board';
      readonly path: string;
      readonly key: string;
      readonly add: boolean;
      /** With `add`: the key of the board the images leave in the same write (a move). */
      readonly leave?: string;
    };

/**
 * How often the worker looks whether to fold the write-ahead log into the file, and the longest it
 * lets commits go on unfolded (history-worker.ts says why). Here, where a test's manual clock
 * (HistoryPortOptions.clock) reads them too.
 */
export const FOLD_LOOK_MS = 1_000;
export const FOLD_WHILE_WRITING_MS = 10_000;

/**
 * Tests only, on the clock port: main says the time is `now` (ms from the worker's start) and the
 * worker looks at once, as its timer would, then answers with the time it looked at.
 */
export interface ClockTick {
  readonly now: number;
}
export interface ClockLooked {
  readonly looked: number;
}

/** Tasks per chunk of a triage write's deltas (main takes in one chunk per turn of its loop). */
export const DELTAS_PER_CHUNK = 200;

/** One edit and the images it applies to; a write of several applies each image's in order. */
export interface TriagePartArgs {
  readonly refs: readonly ImageAt[];
  readonly edit: TriageEdit;
}

/** One image a triage write changed: what Undo and Redo write back. */
export interface TriageStepImage {
  readonly ref: ImageAt;
  readonly before: ImageTriage;
  readonly after: ImageTriage;
}

/** What a triage write did. */
export interface TriageWritten {
  readonly changed: number;
  readonly unchanged: number;
  /** Named images a tag could not go on: they had as many tags as an image may. */
  readonly refused: number;
  /** Named images the library does not have (or has deleted). */
  readonly missing: readonly ImageAt[];
  /**
   * What Undo and Redo write back: the changed images' {@link TriageStepImage}s as JSON, which
   * main keeps as it is (one string to copy, nothing to read) and hands back to `restoreTriage`.
   */
  readonly step: string;
  /**
   * What it wrote of each task, in the order written: its triage delta
   * (shared/domain/triage-delta.ts), as JSON arrays of {@link DELTAS_PER_CHUNK} that main takes
   * in one per turn of its loop and announces as they are, never reading the tasks' records.
   */
  readonly deltas: readonly string[];
  /** How many tasks it wrote. */
  readonly tasks: number;
  /** The change log's entries the write made: main's feed skips them. */
  readonly logged: Logged;
}

/** The operations the worker runs, each with its arguments and its result. */
export interface HistoryOps {
  /** Applies each part's edit to its images, in one transaction (the triage commit). */
  triage: {
    args: { parts: readonly TriagePartArgs[]; at: number };
    result: TriageWritten;
  };
  /** Puts each image of a step (TriageWritten.step) back to its triage `side`: Undo, Redo. */
  restoreTriage: {
    args: { step: string; side: 'before' | 'after'; at: number };
    result: TriageWritten;
  };
  putManyCounted: {
    args: { records: readonly TaskRecord[]; carried?: CarriedFields };
    result: TriageDropped;
  };
  putMany: { args: { records: readonly TaskRecord[] }; result: number };
  /**
   * The tasks' stored records, in the order named (null: not in the history), read and checked
   * in the worker: what main needs of a task it does not hold (its XMP sidecars after a triage
   * change) with no SQL or schema check on main's thread.
   */
  records: { args: { localIds: readonly string[] }; result: (TaskRecord | null)[] };
  /** Removes the tasks, returning the records removed (for Undo). */
  deleteMany: { args: { localIds: readonly string[] }; result: TaskRecord[] };
  /** The trash's writes of one task (user-writes.ts). */
  removeTask: {
    args: { localId: string; watch?: TaskRecord };
    result: { removed: boolean; logged: Logged };
  };
  reinstateTask: { args: { record: TaskRecord; watched: boolean }; result: { logged: Logged } };
  imageFiles: {
    args: { localId: string; index: number; patch: ImageFilesPatch; at: number };
    result: { record: TaskRecord | null; logged: Logged };
  };
  /**
   * Readies the worker's store for the first triage write (HistoryStore.warmTriage) over the
   * newest `tasks` tasks: the port asks it as the library opens. Writes nothing.
   */
  warm: { args: { tasks: number }; result: { tasks: number } };
  costSums: {
    args: { pieces: readonly SumPiece[]; from: number; to: number; provider?: ProviderId };
    result: { days: DaySum[]; services: ServiceSum[] };
  };
  /** How many images match (library-reads.ts: a walk of every image, off main). */
  imageCount: { args: { query: WholeImageQuery }; result: number };
  /** The models the shown images name, in all or new in a slice (library-reads.ts, image-models.ts). */
  imageModels: { args: { slice?: ModelSlice }; result: string[] };
  /** The first `limit` images that match, in the gallery's order, and how many match ("Select all", library-reads.ts). */
  /** How many tasks match (library-reads.ts: the task list's count, off main). */
  taskCount: { args: { query: WholeTaskQuery }; result: number };
  /** How many tasks a newer Pictor wrote, which this version does not show (history-store.ts). */
  newerTaskCount: { args: Record<string, never>; result: number };
  /** The first `limit` tasks that match, newest first, and how many match ("Select all"). */
  taskSelection: {
    args: { query: WholeTaskQuery; limit: number };
    result: { localIds: string[]; total: number };
  };
  imageSelection: {
    args: { query: WholeImageQuery; limit: number };
    result: { images: ImageKey[]; total: number };
  };
  /** The next anchors of an order for main's pages by position (position-prebuild.ts). */
  positionAnchors: { args: AnchorWalk; result: AnchorChunk };
  /** A slice of a walk of task ids for those that carry a key (kept-key-ids.ts). */
  keptKeyIds: {
    args: { keys: readonly string[]; walk: KeptIdWalk; after: string; limit: number };
    result: KeptIdSlice;
  };
  /** The change log's last entry, and whether a sweep's mark still names one (kept-key-ids.ts). */
  keptIdMark: {
    args: { since: KeptIdMark | null };
    result: { now: KeptIdMark | null; holds: boolean };
  };
}

export type HistoryOp = keyof HistoryOps;

const HISTORY_OPS = [
  'triage',
  'restoreTriage',
  'putManyCounted',
  'putMany',
  'records',
  'deleteMany',
  'removeTask',
  'reinstateTask',
  'imageFiles',
  'warm',
  'costSums',
  'imageCount',
  'imageModels',
  'imageSelection',
  'taskCount',
  'newerTaskCount',
  'taskSelection',
  'positionAnchors',
  'keptKeyIds',
  'keptIdMark',
] as const satisfies readonly HistoryOp[];

/**
 * A call to the history worker and its reply. Built on first use (shared/domain/lazy-schema.ts):
 * a command that opens the history in its own thread, with no worker, builds neither.
 */
export const callSchema = lazySchema(() =>
  z.object({
    type: z.literal('call'),
    id: z.number().int().positive(),
    op: z.enum(HISTORY_OPS),
    args: z.record(z.string(), z.unknown()),
  }),
);

export type HistoryCall = z.infer<ReturnType<typeof callSchema>>;

export const replySchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready') }),
    z.object({ type: z.literal('done'), id: z.number().int().positive(), result: z.unknown() }),
    z.object({
      type: z.literal('failed'),
      id: z.number().int().positive(),
      /** The HistoryError's sentence, or null when the error was not one (a bug: its detail). */
      message: z.string().nullable(),
      sentence: sentenceSchema().optional(),
      detail: z.string().optional(),
    }),
  ]),
);

export type HistoryReply = z.infer<ReturnType<typeof replySchema>>;
