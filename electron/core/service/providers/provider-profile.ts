/**
 * A provider profile: how one async image service says what today's contract says (submit, an
 * id, poll, results or an error), as data where data can say it and small functions where it
 * cannot. The service client (../service-client.ts) owns every request, check and redaction;
 * a profile only builds paths and bodies and reads parsed JSON, so a profile cannot send the key
 * anywhere or skip a check.
 */
import type { ProviderFacts, ProviderId } from '../../../../shared/domain/providers';
import type { GenerationRequest } from '../../../../shared/service/wire';
import type { CanonicalState } from '../../../../shared/service/wire';
import type { RawCost } from '../../../../shared/domain/task-cost';
import type { StreamedBody } from '../../../ports/http';
import type { ServiceErrorKind } from '../service-error';

/** Absolute addresses a service gave for one task, kept in its record to poll, fetch, cancel. */
export interface TaskHandles {
  readonly poll?: string;
  readonly result?: string;
  readonly cancel?: string;
}

/** A request a profile asks for: a path under the base URL, or one of the task's handles. */
export interface ProfileRequest {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** `/…` under the base URL, or an absolute URL the service gave (checked by the client). */
  readonly target: string;
  /** JSON to send. */
  readonly body?: unknown;
  /** Headers beyond the key's and Accept/Content-Type (e.g. DashScope's async switch). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A task's input images as its transport carries them (core/inputs/): each a link (an uploaded
 * file's, `oss://` included), or a placeholder for an image sent inline (bare base64 or a `data:`
 * URI), in the request's order. A profile puts each where its body names the image, as it is.
 */
export interface SentInputs {
  readonly source: string;
  readonly mask?: string;
  readonly references: readonly string[];
  /**
   * With images sent inline: the body of the request's JSON text, the placeholders replaced by the
   * images read from their files as they are sent (core/inputs/inline-body.ts).
   */
  readonly body?: (json: string) => StreamedBody;
}

/** What a submit answer says, before the client checks it. */
export interface SubmitReading {
  readonly id: unknown;
  readonly handles: {
    readonly poll?: unknown;
    readonly result?: unknown;
    readonly cancel?: unknown;
  };
  readonly model?: unknown;
}

/**
 * A task answer read into the canonical shape (shared/service/wire.ts `canonicalTaskSchema`):
 * the state, the service's word, images as `output.data[].url`, the error, model, progress,
 * queue position and seed. `fetchResult`: the answer says the task is done but its results are
 * behind the result request (fal).
 */
export interface TaskReading {
  /** Absent when the answer has no status word at all: not an answer Pictor can use. */
  readonly status?: CanonicalState;
  readonly word?: string;
  readonly output?: { readonly data: readonly { readonly url?: string }[] };
  readonly error?: unknown;
  readonly model?: unknown;
  readonly progress?: unknown;
  readonly queuePosition?: unknown;
  /** The seed the images were made with, where the service documents one (service-seed.ts). */
  readonly seed?: unknown;
  readonly fetchResult?: boolean;
}

/** The answer statuses whose body is a task answer (anything else is an error status). */
export interface AnswerStatuses {
  readonly submit: readonly number[];
  readonly poll: readonly number[];
  /** Statuses of the result request whose body says how the task ended (fal's 4xx errors). */
  readonly resultEnded?: readonly number[];
}

/**
 * Whether a service bills a task it ended without results: `billed` (it keeps its cost),
 * `not_billed` (it costs nothing), or `as_reported` (billed when the service reported a cost for
 * it, else nothing). A refused submit (nothing created) is never billed, for every service.
 */
export type BillingRule = 'billed' | 'not_billed' | 'as_reported';

/** Where a service says what a task cost, and which ended tasks it bills. */
export interface CostReporting {
  /** The answers that may carry a cost, as the service documents it (none: Pictor estimates). */
  readonly reportedIn: readonly ('submit answer' | 'task answer' | 'header')[];
  /**
   * The cost an answer states (its body as answer-parsing.ts parsed it, and its headers),
   * unchecked: shared/domain/task-cost.ts checks it. Undefined: it states none.
   */
  readonly read?: (json: unknown, header: (name: string) => string | null) => RawCost | undefined;
  readonly failed: BillingRule;
  readonly moderated: BillingRule;
  readonly canceled: BillingRule;
}

/** What the answer to a key check says. */
export interface KeyProbeReading {
  /** The service took the key; false: an answer that is not this service's to a key check. */
  readonly accepted: boolean;
  /** What the answer tells about the account (BFL's credits), shown beside the result. */
  readonly detail?: string;
  /** What the account has left (BFL's credits), checked as a reported cost is. */
  readonly balance?: RawCost;
}

/**
 * A request that checks the key without creating a task, so nothing is charged: a GET under the
 * base URL (the key goes nowhere else), and how to read its answer.
 */
export interface KeyProbe {
  readonly request: ProfileRequest & { readonly method: 'GET' };
  /**
   * The statuses whose body is `read`; any other is classified by its status alone
   * (core/service/key-check.ts): refused, busy, in trouble, or not this service.
   */
  readonly statuses: readonly number[];
  read(json: unknown, status: number): KeyProbeReading;
  /**
   * The answer read is a "no such task" (a 404 to an id no one has), which a server that checks
   * no key can give as well: the key counts as taken only when the same request without it is
   * refused (401 or 403). Proof that the service looked at the key, not only at the path.
   */
  readonly refusedWithoutKey?: boolean;
}

/** Where a waiting task is in its service's queue (see ProviderProfile.queue). */
export type QueuePlace = { readonly running: true } | { readonly ahead: number };

export interface QueueQuestion {
  readonly request: ProfileRequest & { readonly method: 'GET' };
  read(json: unknown, taskId: string): QueuePlace | undefined;
}

/**
 * A wait the service holds until a task ends: a poll it answers when the task ends or its limit
 * passes (`answer`: Replicate's `Prefer: wait=<seconds>`), or a stream of status events it closes
 * after the last (`events`: fal's `status/stream`). Its answers are read with `readPoll`.
 */
interface HeldWait {
  readonly answer: 'answer' | 'events';
  request(
    taskId: string,
    handles: TaskHandles,
    request: GenerationRequest,
    seconds: number,
  ): ProfileRequest & { readonly method: 'GET' };
}

export interface ProviderProfile {
  readonly id: ProviderId;
  readonly facts: ProviderFacts;
  /** The headers that carry the key. */
  authHeaders(key: string): Record<string, string>;
  /**
   * Its image links are its own routes and take the key as any other (a proxied ComfyUI's
   * `/view`): the download sends `authHeaders` to the service's own origin, never elsewhere.
   */
  readonly imagesTakeKey?: true;
  /**
   * Regional API hosts besides the base URL's where the key may go when the address is the
   * profile's own, as patterns (`https://api.*.bfl.ai`: `*` is one DNS label; regional-hosts.ts).
   * Dropped when the user names another address: that becomes the one origin.
   */
  readonly regionalHosts: readonly string[];
  /** Hosts images come from at the profile's own address (`.x` matches x and every name under it). */
  readonly mediaHosts: readonly string[];
  /** The service's status words; a word not here is `unknown` (the task keeps being polled). */
  readonly statusWords: Readonly<Record<string, CanonicalState>>;
  readonly answerStatuses: AnswerStatuses;
  /**
   * Which answer may carry the images inline (a `data:` URL or `b64_json`, up to the download's
   * cap each): that answer may be as large as one such image in base64 beyond the usual limit.
   * Absent: the usual limit holds (an inline image small enough still fits).
   */
  readonly inlineResults?: 'poll' | 'result';
  /** Tasks the service runs at once per key, when it documents a limit. */
  readonly maxInFlight: number | null;
  /**
   * The submit; throws a ServiceError of kind `config` when the request cannot be sent. A request
   * with `inputs` is sent with `sent`, its images as their transport carries them; a profile
   * whose model takes no image refuses it (kind `config`).
   */
  submit(request: GenerationRequest, sent?: SentInputs): ProfileRequest;
  readSubmit(json: unknown): SubmitReading;
  /** The poll of a task: its handle, or the documented path from its id (a pasted id). */
  poll(taskId: string, handles: TaskHandles, request: GenerationRequest): ProfileRequest;
  /**
   * A poll's answer read; `taskId` is the task asked about: an answer that lists several tasks
   * (ComfyUI's history) is read only at that one's entry, never another's.
   */
  readPoll(json: unknown, taskId: string): TaskReading;
  /**
   * The part of a poll's answer about `taskId`, where a failed task's reason is looked for beyond
   * the fields `readPoll` reads (failure-reason.ts): ComfyUI's history entry under its prompt id,
   * never what stands beside it. Absent: the whole answer is about the task.
   */
  ownAnswer?(json: unknown, taskId: string): unknown;
  /**
   * The most entries one list of a task answer may have, where the service lists more than the
   * usual bound in earnest (answer-limits.ts: ComfyUI's history, a node's whole batch). Absent:
   * `MAX_ANSWER_ENTRIES`.
   */
  readonly listEntries?: number;
  /** How the service holds a wait for the end, where it can (the engine still polls). */
  readonly held?: HeldWait;
  /** The result request, for a profile whose poll only says "done" (fal). */
  result?(taskId: string, handles: TaskHandles, request: GenerationRequest): ProfileRequest;
  readResult?(json: unknown, status: number): TaskReading;
  /** The cancel request, for a service that can cancel; several are sent in order (ComfyUI's). */
  cancel?(
    taskId: string,
    handles: TaskHandles,
    request: GenerationRequest,
  ): ProfileRequest | readonly ProfileRequest[];
  /**
   * Asked after a poll that says only that the task waits, for a service whose poll cannot tell
   * queued from running (ComfyUI's history): its queue, read as the task running now, or the
   * tasks ahead of it. An answer that cannot be read, or a failed request, changes nothing.
   */
  readonly queue?: QueueQuestion;
  /** Where the service reports a task's cost and which ended tasks it bills. */
  readonly cost: CostReporting;
  /**
   * How to check the key without creating a task (Settings' "Test connection" and the check made
   * when a key is saved); a profile without one cannot have its keys checked.
   */
  readonly keyProbe?: KeyProbe;
  /** An error status the service uses in its own way (DashScope's 400 Arrearage: credits). */
  errorKind?(status: number, json: unknown): ServiceErrorKind | undefined;
}

/** `value` as a plain object, or an empty one. */
export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The reading of a status word: its canonical state (`unknown` for a word the profile does not
 * list), the word itself; nothing when there is no word (the answer is not one Pictor can use).
 */
export function readWord(
  words: Readonly<Record<string, CanonicalState>>,
  word: unknown,
): { status?: CanonicalState; word?: string } {
  if (typeof word !== 'string') return {};
  return { status: Object.hasOwn(words, word) ? (words[word] ?? 'unknown') : 'unknown', word };
}

/** The model to ask for: the request's, or the profile's default. */
export function modelOf(request: GenerationRequest, facts: ProviderFacts): string | undefined {
  return request.model?.trim() || facts.defaultModel || undefined;
}

/** `size` (`<w>x<h>`) as numbers, or undefined. */
export function sizeOf(size: string | undefined): { width: number; height: number } | undefined {
  const match = /^(\d+)x(\d+)$/.exec(size ?? '');
  if (!match) return undefined;
  return { width: Number(match[1]), height: Number(match[2]) };
}
