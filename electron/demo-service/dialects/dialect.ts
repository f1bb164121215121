/**
 * What every dialect shares: the interface the server dispatches through, and one kit over the
 * task store that gives each dialect the same phases, prompt triggers, switches and URLs.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { IMAGE_MIME, SNIFF_BYTES, sniffImage } from '../../core/images';
import type { BodyResult, Reply } from '../http-reply';
import type { AcceptedRequest } from '../request-validation';
import type { ServiceContext } from '../service-context';
import { drawAtCompletion } from '../service-routes';
import { heldBytesOf, type StoredTask } from '../task-store';
import type { DemoRoute } from '../types';
import { inputFlagged, type InputPlan } from '../input-checks';

/** A request as a dialect sees it. */
export interface DialectCall {
  method: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: BodyResult;
}

/** Where a request belongs, and how to answer it. */
export interface DialectMatch {
  /** `schema`: a model's published input schema (fal's OpenAPI, Replicate's model). */
  route: DemoRoute | 'cancel' | 'schema' | 'other';
  /** The request may carry images (an image model's submit, an upload): a larger body is read. */
  carriesImages?: boolean;
  /** The task a poll, result or cancel is about (for faults limited to one task). */
  taskId?: string;
  answer: (call: DialectCall) => Reply | Promise<Reply>;
}

/** One real service's interface. Image URLs (`/files/`, `/r/`) are served by the server itself. */
export interface Dialect {
  /** The header this service reads the key from (lower case). */
  readonly keyHeader: string;
  /** The key the request carries in the dialect's form, if any. */
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  match(method: string, pathname: string, query: URLSearchParams): DialectMatch;
}

/** Where a dialect task is, as every dialect's status words are mapped from. */
export type DialectPhase = 'queued' | 'running' | 'succeeded' | 'failed' | 'moderated' | 'canceled';

/** The error a task ends with when a prompt names the word "moderate" (or a test fails it so). */
const MODERATED_ERROR = {
  code: 'content_moderated',
  message: 'The output was flagged by the content moderation.',
};
/**
 * The error a task with an input image ends with when its prompt names the word "flagged"
 * (input-checks.ts, INPUT_MODERATION_WORD): the input was refused by the moderation.
 */
const INPUT_MODERATED_ERROR = {
  code: 'content_moderated',
  message: 'The input image was flagged by the content moderation.',
};
/** The error a task ends with when a prompt names the word "fail". */
const TRIGGERED_FAILURE = {
  code: 'generation_failed',
  message: 'The model stopped before finishing the image.',
};
/** A canceled task is failed in the store with this error: the dialects read it as canceled. */
const CANCELED_ERROR = { code: 'canceled', message: 'The task was canceled.' };

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}

/** The prompt triggers, as whole words in any case. */
function fateOf(prompt: string): unknown {
  if (/\bmoderate\b/i.test(prompt)) return MODERATED_ERROR;
  if (/\bfail\b/i.test(prompt)) return TRIGGERED_FAILURE;
  return undefined;
}

/** The message of a failed task's error, whatever shape a test gave it. */
export function failureMessage(task: StoredTask): string {
  const error = task.error;
  if (typeof error === 'string' && error !== '') return error;
  const message =
    typeof error === 'object' && error !== null
      ? (error as { message?: unknown }).message
      : undefined;
  return typeof message === 'string' ? message : TRIGGERED_FAILURE.message;
}

/** An image of a completed task as the dialects describe it. */
export interface DialectImage {
  url: string;
  width: number;
  height: number;
  contentType: string;
}

/** Per-task facts the store does not keep. */
interface TaskExtra {
  queuedUntil: number;
  statusReads: number;
  input: unknown;
}

/** The shared machinery of the dialects: one per running service. */
export class DialectKit {
  /** By task: they go with a task the store forgets. */
  private readonly extras = new WeakMap<StoredTask, TaskExtra>();

  constructor(readonly ctx: ServiceContext) {}

  /** The origin poll, result and cancel URLs point to: the service's own, or the foreign one. */
  linkBase(): string {
    return this.ctx.options.foreignOrigin ?? this.ctx.baseUrl();
  }

  accountForKey(key: string | undefined): string | undefined {
    return key === undefined ? undefined : this.ctx.store.accountForKey(key);
  }

  /**
   * True when this submit is refused as a busy service's: the store holds its bound of tasks that
   * are still running (task-store.ts `full`), or the rate-limit switch (it uses one refusal up).
   */
  throttled(): boolean {
    if (this.ctx.store.full()) return true;
    if (this.ctx.options.rateLimit <= 0) return false;
    this.ctx.options.rateLimit -= 1;
    return true;
  }

  charge(account: string): boolean {
    return this.ctx.store.charge(account);
  }

  /** Unfinished tasks of an account (bfl's active-task limit). */
  activeTasks(account: string): number {
    return this.tasksOf(account).filter((task) => task.status === 'processing').length;
  }

  /** Every task of an account, oldest first (a task list, such as DashScope's). */
  tasksOf(account: string): StoredTask[] {
    return this.ctx.store.all().filter((task) => task.account === account);
  }

  /** The credits an account has left; undefined: unlimited (a key check reports them). */
  creditsLeft(account: string): number | undefined {
    return this.ctx.store.creditsOf(account);
  }

  /** Creates a task for an accepted, charged submit. The first third of its time it is queued. */
  create(
    account: string,
    request: AcceptedRequest,
    details: { imageCount: number; input: unknown; id?: string; plan?: InputPlan },
  ): StoredTask {
    const { plan } = details;
    const fate =
      plan && inputFlagged(request.prompt) ? INPUT_MODERATED_ERROR : fateOf(request.prompt);
    const task = this.ctx.store.create(account, request, {
      id: details.id ?? randomUUID(),
      imageCount: details.imageCount,
      fateError: fate,
      keptBytes: heldBytesOf(details.input),
    });
    if (plan?.png) this.ctx.store.setOutput(task.id, plan.png);
    const queueMs = Math.floor((task.completesAt - task.createdAt) / 3);
    this.extras.set(task, {
      queuedUntil: task.createdAt + queueMs,
      statusReads: 0,
      input: details.input,
    });
    void drawAtCompletion(this.ctx, task);
    return task;
  }

  /**
   * A task of this dialect (one created through the control API counts too). With `account`, a
   * task an earlier run made (the app or a CLI command ended) is made again for it, when the host
   * remembers it (options.recall), as today's contract's poll does (service-routes.ts).
   */
  task(id: string, account?: string): StoredTask | undefined {
    const task = this.ctx.store.get(id);
    return task ?? (account === undefined ? undefined : this.ctx.store.recall(id, account));
  }

  input(task: StoredTask): unknown {
    return this.extra(task).input;
  }

  private extra(task: StoredTask): TaskExtra {
    let extra = this.extras.get(task);
    if (!extra) {
      extra = { queuedUntil: task.createdAt, statusReads: 0, input: { prompt: task.prompt } };
      this.extras.set(task, extra);
    }
    return extra;
  }

  /** A moderated task's reason: its input image, or its output. */
  moderationOf(task: StoredTask): 'input' | 'output' {
    return task.error === INPUT_MODERATED_ERROR ? 'input' : 'output';
  }

  phase(task: StoredTask): DialectPhase {
    if (task.status === 'completed') return 'succeeded';
    if (task.status === 'failed') {
      if (task.error === CANCELED_ERROR) return 'canceled';
      return codeOf(task.error) === MODERATED_ERROR.code ? 'moderated' : 'failed';
    }
    return this.ctx.options.now() < this.extra(task).queuedUntil ? 'queued' : 'running';
  }

  /** Tasks queued before this one (fal's queue_position). */
  queuePosition(task: StoredTask): number {
    return this.ctx.store
      .all()
      .filter((other) => other.createdAt < task.createdAt && this.phase(other) === 'queued').length;
  }

  /**
   * Counts a status read; true while the task's reads are within the unknown-status switch, when
   * the dialect answers a status word outside its documented set.
   */
  statusReadIsUnknown(task: StoredTask): boolean {
    const extra = this.extra(task);
    extra.statusReads += 1;
    return extra.statusReads <= this.ctx.options.unknownStatusPolls;
  }

  /** Ends an unfinished task as canceled; false when it had already finished. */
  cancel(task: StoredTask): boolean {
    if (task.status !== 'processing') return false;
    this.ctx.store.fail(task.id, CANCELED_ERROR);
    return true;
  }

  /** Progress of an unfinished task, 0..1. */
  progress(task: StoredTask): number {
    const span = Math.max(1, task.completesAt - task.createdAt);
    return Math.min(0.99, Math.max(0, (this.ctx.options.now() - task.createdAt) / span));
  }

  images(task: StoredTask): DialectImage[] {
    const files = this.ctx.options.imageFiles;
    return task.images.map((image) => {
      const given = files[image.index % Math.max(1, files.length)];
      const kind = given ? sniffImage(given.subarray(0, SNIFF_BYTES)) : 'png';
      return {
        url: this.ctx.store.imageUrl(this.ctx.baseUrl(), image),
        width: image.width,
        height: image.height,
        contentType: kind && !this.ctx.store.output(task.id) ? IMAGE_MIME[kind] : 'image/png',
      };
    });
  }
}

/** A JSON body of a request, or undefined when it is not JSON (or too large). */
export function jsonBody(body: BodyResult): unknown {
  if (!body.ok) return undefined;
  try {
    return JSON.parse(body.bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** A plain object, or undefined. */
export function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The request's JSON body when it is an object (its fields), else undefined. */
export function jsonObject(body: BodyResult): Record<string, unknown> | undefined {
  return objectOf(jsonBody(body));
}

/** The value of a header as received (repeated ones joined), or undefined. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The key an `authorization` header carries, as the first group of `pattern` reads it. */
function authorizationKey(headers: IncomingHttpHeaders, pattern: RegExp): string | undefined {
  const value = headerValue(headers, 'authorization');
  return value ? pattern.exec(value)?.[1] : undefined;
}

/**
 * A dialect whose key comes in the `authorization` header as `<scheme> <key>`: Bearer (ComfyUI,
 * DashScope, Replicate) unless the dialect names its own `scheme` (fal's Key).
 */
export abstract class AuthorizationDialect implements Pick<Dialect, 'keyHeader' | 'keyOf'> {
  readonly keyHeader = 'authorization';
  /** Reads the key as its first group. */
  protected readonly scheme: RegExp = /^Bearer +(\S+) *$/;

  constructor(protected readonly kit: DialectKit) {}

  readonly keyOf: Dialect['keyOf'] = (headers) => authorizationKey(headers, this.scheme);
}

/** Builds the request the task store keeps from a dialect's fields. */
export function acceptedRequest(
  prompt: string,
  model: string,
  width: number,
  height: number,
): AcceptedRequest {
  return { prompt, model, size: `${width}x${height}`, quality: 'auto', width, height };
}

/** ISO 8601 with milliseconds and Z, as most JSON APIs send times. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export { isReply } from '../http-reply';
