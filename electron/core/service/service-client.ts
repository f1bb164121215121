/**
 * The HTTP client of the image task service (docs/SERVICE.md): submit a
 * generation, query a task. It owns everything between a call and a typed answer: the checks
 * before the key leaves, requests and redirects only under the base URL the key is for, a total timeout, a bounded body, and the
 * mapping of every failure to a {@link ServiceError} whose text never contains the key.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import type { FetchLike } from '../../ports/http';
import type { GenerationRequest, ServiceTask } from '../../../shared/service/wire';
import { parseSubmitAnswer, parseTaskAnswer } from './answer-parsing';
import { discardBody, raceAbort, readBodyText } from './http-response';
import {
  errorForBrokenBody,
  errorForTimeout,
  errorForTransport,
  errorForUnexpected,
} from './network-errors';
import { checkCredentials, redactBody, redactError, redactText } from './request-guard';
import type { CheckedCredentials } from './request-guard';
import { sentence } from '../../../shared/i18n/sentence';
import { ServiceError } from './service-error';
import { errorForRedirect, errorForStatus, errorForTooLarge } from './status-errors';
import type { ServiceOperation } from './status-errors';
import { taskPath } from './task-id';
import { isUnderBase } from './base-url-path';

/** How the client reaches the service and how patient it is. */
export interface ServiceClientOptions {
  fetch: FetchLike;
  /** Total per request, redirects and reading the body included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Redirects (under the base URL) followed per request. Default 3. */
  maxRedirects?: number;
  /** A larger 200 body is a protocol error; larger error bodies are cut here. Default 1 MiB. */
  maxResponseBytes?: number;
  /** For HTTP-date `Retry-After`. Default `Date.now`. */
  now?: () => number;
}

/** One call in flight: what it is, whose key, and the signals that can end it. */
interface Call {
  readonly op: ServiceOperation;
  readonly credentials: CheckedCredentials;
  /** The caller's and the timeout's, combined. */
  readonly signal: AbortSignal;
}

interface Outgoing {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative number.`);
  return value;
}

/** The submit body: only the spec's fields, absent or empty optional ones left out. */
function requestBody(request: GenerationRequest): string {
  const body: Record<string, string> = {};
  for (const field of ['model', 'prompt', 'size', 'quality'] as const) {
    const value = request[field];
    if (typeof value === 'string' && value.trim() !== '') body[field] = value;
  }
  return JSON.stringify(body);
}

/** Talks to the image task service. One instance serves every endpoint and key. */
export class ServiceClient {
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxRedirects: number;
  readonly #maxBytes: number;
  readonly #now: () => number;

  constructor(options: ServiceClientOptions) {
    this.#fetch = options.fetch;
    this.#timeoutMs = positive(options.requestTimeoutMs, 30_000, 'requestTimeoutMs');
    this.#maxRedirects = Math.floor(positive(options.maxRedirects, 3, 'maxRedirects'));
    this.#maxBytes = Math.floor(
      positive(options.maxResponseBytes, 1024 * 1024, 'maxResponseBytes'),
    );
    this.#now = options.now ?? Date.now;
  }

  /**
   * POST {baseUrl}/v1/images/generations.
   * @returns the service's task id (already checked with `checkTaskId`).
   * @throws ServiceError; or the caller's `signal.reason` when it aborted.
   */
  submit(
    credentials: ServiceCredentials,
    request: GenerationRequest,
    signal?: AbortSignal,
  ): Promise<{ id: string; reportedModel?: string }> {
    return this.#run('submit', credentials, signal, async (call) => {
      const body = requestBody(request);
      const url = `${call.credentials.baseUrl}/v1/images/generations`;
      const text = await this.#exchange(call, { method: 'POST', url, body });
      return parseSubmitAnswer(text, call.credentials.key);
    });
  }

  /**
   * GET {baseUrl}/v1/tasks/<encoded id>.
   * @returns the normalised task.
   * @throws ServiceError (kind `config` for an unusable id); or the caller's `signal.reason`.
   */
  getTask(
    credentials: ServiceCredentials,
    taskId: string,
    signal?: AbortSignal,
  ): Promise<ServiceTask> {
    return this.#run('query', credentials, signal, async (call) => {
      const url = `${call.credentials.baseUrl}${taskPath(taskId)}`;
      const text = await this.#exchange(call, { method: 'GET', url });
      return parseTaskAnswer(text, call.credentials.key);
    });
  }

  /** Checks, sets up the timeout, and turns whatever went wrong into the error the caller sees. */
  async #run<T>(
    op: ServiceOperation,
    credentials: ServiceCredentials,
    callerSignal: AbortSignal | undefined,
    work: (call: Call) => Promise<T>,
  ): Promise<T> {
    const checked = checkCredentials(credentials);
    if (callerSignal?.aborted) throw callerSignal.reason;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    try {
      return await work({ op, credentials: checked, signal });
    } catch (error) {
      // The engine aborts on shutdown and expects its own reason back, unchanged.
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (error instanceof ServiceError) throw redactError(error, checked.key);
      if (timeout.aborted) throw errorForTimeout(op, this.#timeoutMs);
      throw redactError(errorForUnexpected(op, error), checked.key);
    }
  }

  /** Sends the request (following same-origin redirects) and returns a 200's body text. */
  async #exchange(call: Call, outgoing: Outgoing): Promise<string> {
    let current = outgoing;
    for (let hop = 0; ; hop += 1) {
      const response = await this.#send(call, current);
      const redirect = this.#redirectTarget(call, current, response, hop);
      if (redirect === null) return this.#readAnswer(call, response);
      discardBody(response);
      current = { ...current, url: redirect };
    }
  }

  async #send(call: Call, { method, url, body }: Outgoing): Promise<Response> {
    // The key goes under its base URL only; the paths built here and the redirects followed
    // are checked before, so this is the last line, not the first.
    if (!isUnderBase(url, call.credentials.baseUrl)) {
      // Today only a task id varies in a path, and checkTaskId refuses the ids that could leave.
      throw new ServiceError({
        kind: 'config',
        message: sentence('error.service.taskIdDots'),
        mayHaveReachedService: false,
      });
    }
    const headers: Record<string, string> = {
      Authorization: `Bearer ${call.credentials.key}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const pending = Promise.resolve().then(() =>
      this.#fetch(url, { method, headers, body, redirect: 'manual', signal: call.signal }),
    );
    try {
      return await raceAbort(pending, call.signal);
    } catch (error) {
      if (call.signal.aborted) {
        pending.then(discardBody, () => undefined);
        throw error;
      }
      throw errorForTransport(call.op, error);
    }
  }

  /**
   * The next URL when `response` is a redirect Pictor follows, `null` when it is not a redirect.
   * @throws ServiceError when it is a redirect Pictor refuses (the target gets no request).
   */
  #redirectTarget(call: Call, outgoing: Outgoing, response: Response, hop: number): string | null {
    const location = response.headers.get('location');
    const opaque = response.type === 'opaqueredirect';
    if (!opaque && (!REDIRECT_STATUSES.has(response.status) || location === null)) return null;
    const refuse = (refusal: Parameters<typeof errorForRedirect>[1], detail: string): never => {
      discardBody(response);
      throw errorForRedirect(
        call.op,
        refusal,
        response.status,
        redactText(detail, call.credentials.key),
      );
    };
    if (opaque || location === null)
      return refuse('elsewhere', 'redirect to an address the transport did not show');
    let target: URL;
    try {
      target = new URL(location, outgoing.url);
    } catch {
      return refuse('elsewhere', `Location is not a valid URL: ${location}`);
    }
    const shown = `Location: ${target.protocol === 'http:' || target.protocol === 'https:' ? target.origin : target.protocol}`;
    const web = target.protocol === 'http:' || target.protocol === 'https:';
    if (!web || !isUnderBase(target, call.credentials.baseUrl)) {
      return refuse('elsewhere', shown);
    }
    if (outgoing.method === 'POST' && response.status !== 307 && response.status !== 308) {
      return refuse('changes_method', shown);
    }
    if (hop >= this.#maxRedirects)
      return refuse('too_many', `more than ${this.#maxRedirects} redirects`);
    return target.href;
  }

  /** A 200's body, or the error its status or its broken body means. */
  async #readAnswer(call: Call, response: Response): Promise<string> {
    const read = await readBodyText(response, this.#maxBytes, call.signal);
    if (response.status !== 200) {
      // The status already says what failed; a cut or broken error body still has its words
      // (and a 201's body may hold the id of a task that was created after all).
      throw this.#statusError(call, response, read.text);
    }
    if (read.outcome === 'too_large') throw errorForTooLarge(call.op, this.#maxBytes);
    if (read.outcome === 'broken') {
      if (call.signal.aborted) throw read.error;
      throw errorForBrokenBody(call.op, read.error);
    }
    return read.text;
  }

  #statusError(call: Call, response: Response, body: string): ServiceError {
    return errorForStatus(
      call.op,
      {
        status: response.status,
        statusText: response.statusText,
        body: redactBody(body, call.credentials.key),
        retryAfter: response.headers.get('retry-after'),
      },
      this.#now(),
    );
  }
}
