/**
 * What the task engine needs from the rest of the core, as narrow interfaces so tests can pass
 * in-memory stand-ins and the engine never depends on how history or gallery are stored.
 */
import type { ComfyWorkflow } from '../../../shared/domain/comfy-workflow';
import type { LiveState } from '../../../shared/domain/live-state';
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { AnswerCost } from '../../../shared/domain/task-cost';
import type { GenerationRequest, ServiceTask } from '../../../shared/service/wire';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import type { Clock } from '../../ports/clock';
import type { Logger } from '../../ports/logger';
import type { Event } from '../../ports/event';
import type { UserWrites } from '../../ports/user-writes';
import { UserFacingError } from '../errors';
import type { ClosingGate } from '../base';
import type { DownloadOutcome, ImageAttempt } from '../download';
import type { SentInputs, TaskHandles } from '../service';
import type { ProviderId } from '../../../shared/domain/providers';
import type { InlineImage } from '../../../shared/service/inline-token';

/** A task on the service: its id, the addresses the service gave for it, what was asked. */
export interface EngineTaskRef {
  readonly taskId: string;
  readonly handles?: TaskHandles | undefined;
  readonly request?: GenerationRequest | undefined;
}

export interface EngineServiceClient {
  submit(
    credentials: ServiceCredentials,
    request: GenerationRequest,
    signal?: AbortSignal,
    /** A request with `inputs`: its images as they travel (EngineInputs.send). */
    sent?: SentInputs,
  ): Promise<{ id: string; reportedModel?: string; handles?: TaskHandles } & AnswerCost>;
  getTask(
    credentials: ServiceCredentials,
    task: string | EngineTaskRef,
    signal?: AbortSignal,
  ): Promise<ServiceTask & AnswerCost>;
  /**
   * Waits until the task ends where its service can hold the wait (a held poll, a status
   * stream), at most about `holdMs`: `ended` (poll now), `waiting` (it still runs), `broken`
   * (no use: poll at the interval), `interrupted` (this computer's network failed it: asleep,
   * changed, gone; no sign of the service's). Throws only the signal's reason.
   */
  waitForEnd?(
    credentials: ServiceCredentials,
    task: EngineTaskRef,
    holdMs: number,
    signal?: AbortSignal,
  ): Promise<'ended' | 'waiting' | 'broken' | 'interrupted'>;
  /** Asks the service to cancel the task (the user's explicit action only). */
  cancel?(
    credentials: ServiceCredentials,
    task: EngineTaskRef,
    signal?: AbortSignal,
  ): Promise<void>;
}

export interface EngineHistory {
  put(record: TaskRecord): void;
  /** All or none: one transaction. */
  putMany(records: readonly TaskRecord[]): void;
  /**
   * Changes stored records in one transaction (HistoryStore.editMany); `absent`, when none of its
   * local id is stored, is written whole in the same transaction (a new task's first write).
   */
  editMany(
    localIds: Iterable<string>,
    change: (stored: TaskRecord) => TaskRecord | null,
    alongside?: () => void,
    absent?: TaskRecord,
  ): TaskRecord[];
  /**
   * What the write of `record` (as {@link editMany} returned it) touched: `triage` when it
   * changed triage alone (HistoryStore.touched). Without it, every write counts as the record's.
   */
  touched?(record: TaskRecord): 'triage' | 'record';
  get(localId: string): TaskRecord | undefined;
  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined;
  unfinished(): TaskRecord[];
  /** The time the newest task lists by (HistoryStore.newestListed); absent: new tasks list as made. */
  newestListed?(): number | null;
  delete(localId: string): boolean;
}

/** The distinct prompts sent (core/history/prompt-history.ts): every submit notes its prompts. */
export interface EnginePromptHistory {
  /** The prompts one submit sent (each once, in order), at `at`. */
  note(prompts: readonly string[], at: number): void;
}

/**
 * Keeps a task the user removed from the history while its service still works on it, so the
 * cost ledger learns how it ends (TaskEngine.remove): the history store implements it.
 */
export interface EngineWatchedRemovals {
  /** Removes the task from the history and keeps it watched, in one transaction. */
  detach(record: TaskRecord): boolean;
  /** A watched task's change (to the ledger only); once ended it is watched no more. */
  putWatched(record: TaskRecord): void;
  /** Puts a watched task back in the history (Undo). */
  attach(record: TaskRecord): void;
  /** The tasks still watched, oldest first (taken up again at start). */
  watched(): TaskRecord[];
}

/** Who works on a task, until when (ms since the epoch). */
export interface EngineLease {
  readonly owner: string;
  readonly expiresAt: number;
}

/** Tasks other processes wrote or deleted; `overflow` when too many to list (reload all). */
export interface EngineHistoryChanges {
  readonly localIds: readonly string[];
  readonly overflow: boolean;
}

/**
 * A history shared with other Pictor processes (the app and CLI commands on one library): the
 * history store implements it. Without it the engine is alone and every task is its own.
 */
export interface EngineSharing {
  /** `putMany`, the records leased to `lease.owner` in the same transaction. */
  putMany(records: readonly TaskRecord[], lease: { owner: string; until: number }): void;
  /** Leases each task that is free, expired at `now` or `owner`'s; returns the ids leased. */
  claimLeases(localIds: readonly string[], owner: string, now: number, until: number): string[];
  /**
   * Gives the task's lease to `owner` if it is still the lease `from` (same owner, same expiry:
   * never one renewed since it was read), expired or not.
   */
  takeOverLease(localId: string, from: EngineLease, owner: string, until: number): boolean;
  /** Ends `owner`'s leases on `localIds`, or all of them. */
  releaseLeases(owner: string, localIds?: readonly string[]): void;
  leaseOf(localId: string): EngineLease | undefined;
  /** Other processes' changes, reported on a timer until the subscription is disposed. */
  readonly onDidChangeElsewhere: Event<EngineHistoryChanges>;
}

/**
 * Admits new tasks (the cost ledger): prices each, checks the spending caps and stores them
 * (leased to `lease.owner` when given) in one transaction, so no other process can slip under a
 * cap meanwhile. Returns the records as stored.
 * `passing`: the hard caps the user agreed, in main's dialog, to send these tasks past
 * (hard-cap-consent.ts); a hard cap not among them refuses as ever.
 * @throws SpendingCapError when a hard cap refuses them (nothing stored).
 */
export interface EngineAdmission {
  admit(
    records: readonly TaskRecord[],
    lease: { owner: string; until: number } | undefined,
    passing?: readonly SpendingCap[],
  ): TaskRecord[];
}

export interface EngineGallery {
  folderFor(record: TaskRecord): string;
  downloadImage(
    record: TaskRecord,
    index: number,
    baseUrl: string,
    attempt?: ImageAttempt,
  ): Promise<DownloadOutcome>;
  writeSidecar(record: TaskRecord): Promise<void>;
  /** After a change of triage alone: what holds triage on disk (the XMP sidecars), else all. */
  writeTriage?(record: TaskRecord): Promise<void>;
  /**
   * Keeps the images a service sent inline for the task (in its folder, `record.folder` set)
   * until they are saved, synced before this resolves (download/inline-spool.ts).
   * @throws when they could not be kept.
   */
  keepInline(record: TaskRecord, images: readonly InlineImage[]): Promise<void>;
  /** Removes the spool file of an inline image that was saved or refused. Never throws. */
  dropInline(record: TaskRecord, sha256: string): Promise<void>;
}

/**
 * The workflows the user imported as models of a provider whose models are workflows (ComfyUI's;
 * core/workflows), as a submit needs them: the one a request's model names.
 */
export interface EngineWorkflows {
  /** The workflow named `model`, or undefined when none is. */
  lookup(model: string): Promise<ComfyWorkflow | undefined>;
}

/** The library's boards, as a submit into one needs them (core/triage's Boards; submit-board.ts). */
export interface EngineBoards {
  /**
   * The path as stored of the board at `path` (checked), made with its parents when the library
   * has none of that path.
   * @throws the library's refusal (too many boards), with its sentence.
   */
  ensure(path: string): string;
}

export interface TaskEngineOptions {
  /** The service's rule is 3 s; configurable for tests. */
  readonly pollIntervalMs: number;
  /** Stop watching a task after this long (the id is kept); `null` watches forever. */
  readonly watchTimeoutMs: number | null;
  /**
   * The longest a wait the service holds (Replicate's `Prefer: wait`, fal's status stream) is
   * held before the task is polled anyway; `null` never holds a wait, only polls.
   */
  readonly heldWaitMs: number | null;
  /** Submit attempts when the service answers 429 (it accepted nothing). */
  readonly maxSubmitAttempts: number;
  /** Download attempts per image in one run before it waits for the next start or a retry. */
  readonly maxDownloadAttempts: number;
  readonly maxBackoffMs: number;
  readonly maxConcurrentDownloads: number;
  /**
   * Longest a poll count may stay unwritten: polls that change nothing else are written with the
   * task's next real change, after this long, or at stop (each history write is an fsync);
   * 0 writes every change at once.
   */
  readonly bookkeepingWriteMs: number;
  /**
   * How long a task's lease lasts without renewal (renewed every third of it): how soon another
   * process takes over a task whose process was killed. Longer than a request's timeout.
   */
  readonly leaseMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: TaskEngineOptions = {
  pollIntervalMs: 3_000,
  watchTimeoutMs: null,
  heldWaitMs: 20_000,
  maxSubmitAttempts: 5,
  maxDownloadAttempts: 5,
  maxBackoffMs: 60_000,
  maxConcurrentDownloads: 16,
  bookkeepingWriteMs: 60_000,
  leaseMs: 45_000,
};

export interface TaskUpdate {
  readonly record: TaskRecord;
  readonly live: LiveState;
}

/** A request the engine refuses before doing anything (bad input, no key). */
export class EngineInputError extends UserFacingError {
  override readonly name = 'EngineInputError';
}

/** The images a service sent inline could not be kept on disk: the task is asked for them again. */
export class InlineNotKeptError extends UserFacingError {
  override readonly name = 'InlineNotKeptError';
}

/**
 * A task's input images made ready to travel (core/inputs/ InputSender): read back from the store
 * and checked, inline or uploaded. Called before the task is marked sent, so an upload is made
 * again after a crash and never counts as the submit.
 */
export interface EngineInputs {
  /**
   * The images made ready, then `submit` run with them (it marks the task sent and sends it): the
   * images are held until it settles, and only a few tasks hold theirs at once.
   * @throws ServiceError (nothing submitted), never with the key in it; what `submit` throws.
   */
  send<T>(
    task: {
      readonly provider: ProviderId;
      readonly request: GenerationRequest;
      readonly credentials: ServiceCredentials;
      readonly signal: AbortSignal;
    },
    submit: (sent: SentInputs) => Promise<T>,
  ): Promise<T>;
}

/** What the engine is built from: its ports, and the options a front may set. */
export interface TaskEngineDeps {
  readonly client: EngineServiceClient;
  readonly history: EngineHistory;
  /** The same history, shared with other processes (leases, their changes); absent: alone. */
  readonly sharing?: EngineSharing;
  /** Prices new tasks and checks the spending caps as they are stored; absent: no costs. */
  readonly admission?: EngineAdmission;
  /** Keeps watching a removed task its service still works on (the ledger); absent: forgotten. */
  readonly removals?: EngineWatchedRemovals;
  /** Where the trash's writes run (the history worker); absent: on `history` itself. */
  readonly userWrites?: UserWrites;
  readonly gallery: EngineGallery;
  /** Makes the board a submit names when the library lacks it; absent: its first write does. */
  readonly boards?: EngineBoards;
  /** The imported ComfyUI workflows a request's model may name; absent: only the built-in one. */
  readonly workflows?: EngineWorkflows;
  /** Remembers each submit's prompt for the prompt history, whichever front sent it; absent: not. */
  readonly prompts?: EnginePromptHistory;
  readonly credentials: CredentialsProvider;
  /** Sends tasks' input images; absent: a task with inputs fails its submit, nothing sent. */
  readonly inputs?: EngineInputs;
  readonly clock: Clock;
  /**
   * The core's closing gate: new tasks (a submit, a tracked id) and a resume asked once the close
   * has begun are refused with its sentence, nothing stored or sent; absent: never refused.
   */
  readonly gate?: Pick<ClosingGate, 'askNow'>;
  readonly logger?: Logger;
  readonly random?: () => number;
  readonly newId?: () => string;
  readonly options?: Partial<TaskEngineOptions>;
}
