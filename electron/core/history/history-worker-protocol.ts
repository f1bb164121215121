/**
 * The messages between main and the history worker (history-worker.ts, history-port.ts): a call
 * names one heavy operation of the store and its arguments; the reply carries its result, or the
 * sentence of the error it threw. Each side checks the envelope it receives (the operation's name,
 * the call's number, the reply's kind) before it acts; records inside are the history's own
 * (written by this program, read back through the store's checked path).
 */
import { z } from 'zod';
import type { ProviderId } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { sentenceSchema } from '../../../shared/i18n/sentence';
import type { TriageFlag } from '../../../shared/domain/triage';
import type { DaySum, ServiceSum, SumPiece } from './ledger-sums';
import type { TriageDropped } from './triage-limits';

/** An image of a task, by its position in the task's images. */
export interface ImageAt {
  readonly localId: string;
  readonly index: number;
}

/** The triage of an image, as Undo and Redo write it back. */
export interface ImageTriage {
  readonly favourite?: boolean;
  readonly rating?: number;
  readonly flag?: TriageFlag;
  readonly tags?: readonly string[];
  readonly boards?: readonly string[];
  readonly triagedAt?: number;
}

/** What a triage write does to each named image. */
export type TriageEdit =
  | { readonly kind: 'rating'; readonly rating: number }
  | { readonly kind: 'flag'; readonly flag: TriageFlag };

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
  /** Named images the library does not have (or has deleted). */
  readonly missing: readonly ImageAt[];
  /**
   * What Undo and Redo write back: the changed images' {@link TriageStepImage}s as JSON, which
   * main keeps as it is (one string to copy, nothing to read) and hands back to `restoreTriage`.
   */
  readonly step: string;
  /** The tasks written. */
  readonly localIds: readonly string[];
}

/** The operations the worker runs, each with its arguments and its result. */
export interface HistoryOps {
  triage: {
    args: { refs: readonly ImageAt[]; edit: TriageEdit; at: number };
    result: TriageWritten;
  };
  /** Puts each image of a step (TriageWritten.step) back to its triage `side`: Undo, Redo. */
  restoreTriage: {
    args: { step: string; side: 'before' | 'after'; at: number };
    result: TriageWritten;
  };
  putManyCounted: { args: { records: readonly TaskRecord[] }; result: TriageDropped };
  putMany: { args: { records: readonly TaskRecord[] }; result: number };
  /** Removes the tasks, returning the records removed (for Undo). */
  deleteMany: { args: { localIds: readonly string[] }; result: TaskRecord[] };
  costSums: {
    args: { pieces: readonly SumPiece[]; from: number; to: number; provider?: ProviderId };
    result: { days: DaySum[]; services: ServiceSum[] };
  };
}

export type HistoryOp = keyof HistoryOps;

const HISTORY_OPS = [
  'triage',
  'restoreTriage',
  'putManyCounted',
  'putMany',
  'deleteMany',
  'costSums',
] as const satisfies readonly HistoryOp[];

export const callSchema = z.object({
  type: z.literal('call'),
  id: z.number().int().positive(),
  op: z.enum(HISTORY_OPS),
  args: z.record(z.string(), z.unknown()),
});

export type HistoryCall = z.infer<typeof callSchema>;

export const replySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('done'), id: z.number().int().positive(), result: z.unknown() }),
  z.object({
    type: z.literal('failed'),
    id: z.number().int().positive(),
    /** The HistoryError's sentence, or null when the error was not one (a bug: its detail). */
    message: z.string().nullable(),
    sentence: sentenceSchema.optional(),
    detail: z.string().optional(),
  }),
]);

export type HistoryReply = z.infer<typeof replySchema>;
