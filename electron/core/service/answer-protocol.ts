/**
 * What the service client (main thread, answer-reader.ts) and the answer worker
 * (answer-worker.ts, answer-jobs.ts) say to each other: what to read an answer as, its body's
 * chunks, and what the answer was. Everything here crosses threads by structured clone: plain
 * data, the keys among it (a worker thread is this process; they never leave it), and the bytes
 * of the images an answer carried inline, transferred, never copied.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import type { AnswerCost } from '../../../shared/domain/task-cost';
import type { ServiceTask } from '../../../shared/service/wire';
import type { SubmitAnswer } from './answer-parsing';
import type { QueuePlace } from './providers/provider-profile';
import { ServiceError, type ServiceErrorInit } from './service-error';
import type { ServiceOperation } from './status-errors';

/**
 * The keys an answer is searched for: the one the request sent, then every other the process
 * holds (ServiceClientOptions.heldKeys). A service may echo any key it learnt, not only its own.
 */
type AnswerKeys = readonly string[];

/** What the worker needs to read every 2xx answer: whose profile, which keys, which limits. */
interface AnswerBase {
  readonly provider: ProviderId;
  readonly keys: AnswerKeys;
  /** The usual answer limit: the most the answer may hold but its inline payloads. */
  readonly maxBytes: number;
  /** The answer's headers (a cost may be stated there). */
  readonly headers: readonly (readonly [string, string])[];
}

/** A task answer: a poll's, or a result's (fal), as the profile reads it. */
export interface TaskSpec extends AnswerBase {
  readonly kind: 'task';
  readonly which: 'poll' | 'result';
  readonly status: number;
  /** Whether the profile says this answer may carry images inline (taken out as it arrives). */
  readonly takeOut: boolean;
  /** The cap of one inline image, decoded. */
  readonly maxInlineBytes: number;
  /** A poll whose profile fetches results apart: answer only `fetchResult` when it says so. */
  readonly mayFetchResult: boolean;
  /** The task asked about (a poll's answer is read at its entry: ProviderProfile.readPoll). */
  readonly taskId: string;
}

export interface SubmitSpec extends AnswerBase {
  readonly kind: 'submit';
}

/** A queue's answer (ProviderProfile.queue, ComfyUI's `GET /queue`): where it puts `taskId`. */
export interface QueueSpec extends AnswerBase {
  readonly kind: 'queue';
  readonly taskId: string;
}

/**
 * How a held wait ended: the task `ended` (poll now to read it), the service held it to its limit
 * and it still runs (`waiting`), or the wait is of no use for this task (`broken`: poll at the
 * usual interval from now on).
 */
export type HeldOutcome = 'ended' | 'waiting' | 'broken';

/**
 * A held wait's answer (held-reading.ts): a held poll's one status answer, or a status stream's
 * events; only whether the task ended crosses back.
 */
export interface HeldSpec extends AnswerBase {
  readonly kind: 'held';
  readonly answer: 'answer' | 'events';
  /** The task waited for (its status answers are read as its poll's). */
  readonly taskId: string;
}

export type AnswerSpec = TaskSpec | SubmitSpec | QueueSpec | HeldSpec;

/** An error status's answer, its body already read (at most the usual limit). */
export interface StatusSpec {
  readonly kind: 'status';
  readonly provider: ProviderId;
  readonly keys: AnswerKeys;
  readonly op: ServiceOperation;
  readonly status: number;
  readonly statusText: string;
  readonly retryAfter: string | null;
  readonly body: string;
  /** The clock's now, for a `Retry-After` date. */
  readonly now: number;
}

/** What an answer was. */
export type AnswerOutcome =
  | { readonly kind: 'task'; readonly task: ServiceTask & AnswerCost }
  /** A poll that says the task is done and its result is behind the result request. */
  | { readonly kind: 'fetchResult' }
  | { readonly kind: 'submit'; readonly answer: SubmitAnswer & AnswerCost }
  /** Where a queue puts a task; undefined: it does not say. */
  | { readonly kind: 'queue'; readonly place: QueuePlace | undefined }
  /** What a held wait said: the task ended, it still runs, or the wait is of no use. */
  | { readonly kind: 'held'; readonly said: HeldOutcome }
  /** The answer refused, or an error status's error (thrown as a ServiceError on the main side). */
  | { readonly kind: 'error'; readonly error: ServiceErrorInit }
  /** Something the worker did not expect (a defect): its message, without the key. */
  | { readonly kind: 'bug'; readonly message: string };

export type ToWorker =
  | { readonly type: 'start'; readonly id: number; readonly spec: AnswerSpec }
  | { readonly type: 'chunk'; readonly id: number; readonly bytes: Uint8Array }
  | { readonly type: 'end'; readonly id: number }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'status'; readonly id: number; readonly spec: StatusSpec };

export type FromWorker =
  /** Loaded: it reads answers from now on. */
  | { readonly type: 'ready' }
  | { readonly type: 'done'; readonly id: number; readonly outcome: AnswerOutcome };

/** `error` as the fields it is made from, to cross to the other thread. */
function errorInit(error: ServiceError): ServiceErrorInit {
  return {
    kind: error.kind,
    message: error.sentence ?? error.message,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    ...(error.httpStatus === undefined ? {} : { httpStatus: error.httpStatus }),
    ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    mayHaveReachedService: error.mayHaveReachedService,
    refusedAnswer: error.refusedAnswer,
  };
}

/** The outcome of a thrown value: a ServiceError's fields, or a defect's message. */
export function thrownOutcome(error: unknown): AnswerOutcome {
  if (error instanceof ServiceError) return { kind: 'error', error: errorInit(error) };
  return { kind: 'bug', message: error instanceof Error ? error.message : String(error) };
}
