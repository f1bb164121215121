/**
 * The HTTP client of the image task service (docs/SERVICE.md): submit a
 * generation, query a task, check a key without making one. It owns everything between a call and a typed answer: the checks
 * before the key leaves, requests and redirects only under the base URL the key is for, a total timeout, a bounded body, and the
 * mapping of every failure to a {@link ServiceError} whose text never contains the key.
 */
import type { ServiceCredentials } from '../../ports/credentials';
import type { FetchLike } from '../../ports/http';
import type { GenerationRequest, ServiceTask } from '../../../shared/service/wire';
import type { AnswerCost } from '../../../shared/domain/task-cost';
import { submitAnswerOf, taskAnswerOf } from './profile-answers';
import type { AnswerSource } from './profile-answers';
import type { Reading, SubmitAnswer } from './answer-parsing';
import { discardBody, parseJson, raceAbort, readBodyText } from './http-response';
import {
  errorForBrokenBody,
  errorForTimeout,
  errorForTransport,
  errorForUnexpected,
} from './network-errors';
import { checkCredentials, redactBody, redactError } from './request-guard';
import type { KeyCheck } from './key-check';
import { runKeyProbe } from './key-probe';
import type { CheckedCredentials } from './request-guard';
import { sentence } from '../../../shared/i18n/sentence';
import { ServiceError } from './service-error';
import { errorForStatus, errorForTooLarge } from './status-errors';
import { redirectedAway, redirectTarget } from './redirects';
import type { ServiceOperation } from './status-errors';
import { checkTaskId } from './task-id';
import type { ProfileRequest, ProviderProfile, TaskHandles } from './providers/provider-profile';
import { profileOf } from './providers/profiles';
import { hostOf, keyMayGoTo, regionalOriginsAt } from './providers/api-origins';
import { serviceLabel } from '../credentials/key-binding';
import { DOWNLOAD_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { KIND_STATUS, answerLimit, positive } from './client-parts';

/** How the client reaches the service and how patient it is. */
export interface ServiceClientOptions {
  fetch: FetchLike;
  /** Total per request, redirects and reading the body included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Redirects (under the base URL) followed per request. Default 3. */
  maxRedirects?: number;
  /** A larger 200 body is a protocol error; larger error bodies are cut here. Default 1 MiB. */
  maxResponseBytes?: number;
  /**
   * The most an image sent inline may decode to: the gallery's download cap (pictor-core.ts
   * passes it), default {@link DOWNLOAD_MAX_IMAGE_BYTES}. The answer a profile says carries its
   * images inline may be that much base64 larger than `maxResponseBytes`.
   */
  maxInlineImageBytes?: number;
  /** For HTTP-date `Retry-After`. Default `Date.now`. */
  now?: () => number;
}

/** One call in flight: what it is, whose key, and the signals that can end it. */
interface Call {
  readonly op: ServiceOperation;
  readonly credentials: CheckedCredentials;
  /** The service's profile: its key header, its words (providers/). */
  readonly profile: ProviderProfile;
  /** Regional host patterns besides the base URL where the key may go (providers/regional-hosts.ts). */
  readonly regional: readonly string[];
  /** The caller's and the timeout's, combined. */
  readonly signal: AbortSignal;
}

interface Outgoing {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent without the key (a key probe's second question: is it refused without one?). */
  readonly keyless?: boolean;
}

/** A 2xx or error answer a profile reads: its status, body text and headers (a cost may be there). */
interface Answer {
  readonly status: number;
  readonly text: string;
  readonly headers: Headers;
}

/** A task on the service as the client needs it to poll, fetch or cancel it. */
export interface TaskRef {
  readonly taskId: string;
  /** The addresses the service gave for it (kept in its record). */
  readonly handles?: TaskHandles | undefined;
  /** What was asked for: a profile may need the model to find the task's address (fal). */
  readonly request?: GenerationRequest | undefined;
}

/** The service as a sentence names it: its provider's name, or (today's contract) its address. */
function nameOf(call: Call): string {
  return call.profile.id === 'pictor'
    ? serviceLabel(call.credentials.baseUrl)
    : call.profile.facts.label;
}

function refOf(ref: string | TaskRef): TaskRef {
  return typeof ref === 'string' ? { taskId: ref } : ref;
}

/** Talks to the image task service. One instance serves every endpoint and key. */
export class ServiceClient {
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #maxRedirects: number;
  readonly #maxBytes: number;
  readonly #maxInlineBytes: number;
  readonly #now: () => number;

  constructor(options: ServiceClientOptions) {
    this.#fetch = options.fetch;
    this.#timeoutMs = positive(options.requestTimeoutMs, 30_000, 'requestTimeoutMs');
    this.#maxRedirects = Math.floor(positive(options.maxRedirects, 3, 'maxRedirects'));
    this.#maxBytes = Math.floor(
      positive(options.maxResponseBytes, 1024 * 1024, 'maxResponseBytes'),
    );
    this.#maxInlineBytes = Math.floor(
      positive(options.maxInlineImageBytes, DOWNLOAD_MAX_IMAGE_BYTES, 'maxInlineImageBytes'),
    );
    this.#now = options.now ?? Date.now;
  }

  #answerLimit(profile: ProviderProfile, answer: 'poll' | 'result'): { maxBytes: number } {
    return { maxBytes: answerLimit(profile, answer, this.#maxBytes, this.#maxInlineBytes) };
  }

  /**
   * Submits a generation the way the credentials' provider takes it (today's contract:
   * POST {baseUrl}/v1/images/generations).
   * @returns the service's task id (already checked with `checkTaskId`), and the addresses it
   *   gave for the task.
   * @throws ServiceError; or the caller's `signal.reason` when it aborted.
   */
  submit(
    credentials: ServiceCredentials,
    request: GenerationRequest,
    signal?: AbortSignal,
  ): Promise<SubmitAnswer & AnswerCost> {
    return this.#run('submit', credentials, signal, async (call) => {
      const outgoing = this.#outgoing(call, call.profile.submit(request));
      const answer = await this.#exchange(call, outgoing, call.profile.answerStatuses.submit);
      return submitAnswerOf(call.profile, answer, call.credentials.key);
    });
  }

  /**
   * Asks where a task is (today's contract: GET {baseUrl}/v1/tasks/<encoded id>), and fetches
   * its result where the provider keeps it apart (fal).
   * @returns the normalised task.
   * @throws ServiceError (kind `config` for an unusable id, or an address of the task where the
   *   key may not go); or the caller's `signal.reason`.
   */
  getTask(
    credentials: ServiceCredentials,
    task: string | TaskRef,
    signal?: AbortSignal,
  ): Promise<ServiceTask & AnswerCost> {
    return this.#run('query', credentials, signal, async (call) => {
      const { profile } = call;
      const ref = refOf(task);
      const taskId = checkTaskId(ref.taskId);
      const request = ref.request ?? { prompt: '' };
      const polled = this.#outgoing(call, profile.poll(taskId, ref.handles ?? {}, request));
      const limit = this.#answerLimit(profile, 'poll');
      const answer = await this.#exchange(call, polled, profile.answerStatuses.poll, limit);
      // An answer that may carry images inline is decoded up to the gallery's cap each.
      const secrets = { key: call.credentials.key, maxInlineBytes: this.#maxInlineBytes };
      const parse = (answered: AnswerSource, read: Reading): ServiceTask & AnswerCost =>
        taskAnswerOf(profile, answered, read, secrets);
      if (profile.result && profile.readResult && this.#wantsResult(profile, answer.text)) {
        const readResult = profile.readResult.bind(profile);
        const fetched = this.#outgoing(call, profile.result(taskId, ref.handles ?? {}, request));
        const accepted = [200, ...(profile.answerStatuses.resultEnded ?? [])];
        const limits = this.#answerLimit(profile, 'result');
        const result = await this.#exchange(call, fetched, accepted, limits);
        return parse(result, (json) => readResult(json, result.status));
      }
      return parse(answer, (json) => profile.readPoll(json));
    });
  }

  /**
   * Asks the service to cancel a task: only ever on the user's explicit request.
   * @throws ServiceError (kind `config` when the provider cannot cancel).
   */
  cancel(credentials: ServiceCredentials, task: TaskRef, signal?: AbortSignal): Promise<void> {
    return this.#run('query', credentials, signal, async (call) => {
      const { profile } = call;
      if (!profile.cancel) {
        throw new ServiceError({
          kind: 'config',
          message: sentence('error.service.noCancel', { service: nameOf(call) }),
          mayHaveReachedService: false,
        });
      }
      const taskId = checkTaskId(task.taskId);
      const request = task.request ?? { prompt: '' };
      const outgoing = this.#outgoing(call, profile.cancel(taskId, task.handles ?? {}, request));
      await this.#exchange(call, outgoing, [200, 201, 202, 204]);
    });
  }

  /**
   * Checks the key with the profile's key probe ("Test connection", and Save in Settings): a GET
   * under the base URL that creates no task, so nothing is charged; asked again without the key
   * when the profile's answer is one any server could give (key-probe.ts).
   * @returns what the answer says, whatever its status: the key taken (with what it tells about
   *   the account, cleaned, never the key), or why not (key-check.ts).
   * @throws ServiceError when no answer came (kind `network` with its `transport` failure,
   *   `timeout`) or the profile has no probe (`config`); or the caller's `signal.reason`.
   */
  probeKey(credentials: ServiceCredentials, signal?: AbortSignal): Promise<KeyCheck> {
    return this.#run('query', credentials, signal, async (call) => {
      const probe = call.profile.keyProbe;
      if (!probe) {
        throw new ServiceError({
          kind: 'config',
          message: sentence('error.service.testNotAvailable', { service: nameOf(call) }),
          mayHaveReachedService: false,
        });
      }
      const outgoing = this.#outgoing(call, probe.request);
      return runKeyProbe(call.profile, call.credentials.key, outgoing.url, {
        ...call,
        maxBytes: this.#maxBytes,
        send: (url, keyless) => this.#send(call, { ...outgoing, url, keyless }),
        follow: (url, response, hop) =>
          redirectTarget(
            { ...call, maxRedirects: this.#maxRedirects },
            { method: 'GET', url },
            response,
            hop,
          ),
        away: (url, response) => redirectedAway(call, url, response),
      });
    });
  }

  /** The profile's poll answer says the task is done and its result is elsewhere. */
  #wantsResult(profile: ProviderProfile, text: string): boolean {
    const json = parseJson(text);
    return json.ok && profile.readPoll(json.value).fetchResult === true;
  }

  /**
   * A profile's request as the client sends it: a path under the base URL, or an address the
   * service gave, which must be one the key may go to.
   * @throws ServiceError of kind `config` (nothing sent) naming the host it refused.
   */
  #outgoing(call: Call, request: ProfileRequest): Outgoing {
    const { baseUrl } = call.credentials;
    const url = request.target.startsWith('/') ? `${baseUrl}${request.target}` : request.target;
    if (!request.target.startsWith('/') && !keyMayGoTo(url, baseUrl, call.regional)) {
      throw new ServiceError({
        kind: 'config',
        message: sentence('error.service.foreignTaskAddress', {
          host: hostOf(url),
          service: nameOf(call),
        }),
        mayHaveReachedService: false,
      });
    }
    return {
      method: request.method,
      url,
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      ...(request.headers === undefined ? {} : { headers: request.headers }),
    };
  }

  /** Checks, sets up the timeout, and turns whatever went wrong into the error the caller sees. */
  async #run<T>(
    op: ServiceOperation,
    credentials: ServiceCredentials,
    callerSignal: AbortSignal | undefined,
    work: (call: Call) => Promise<T>,
  ): Promise<T> {
    const checked = checkCredentials(credentials);
    const profile = profileOf(credentials.provider);
    const regional = regionalOriginsAt(profile, checked.baseUrl);
    if (callerSignal?.aborted) throw callerSignal.reason;
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    try {
      return await work({ op, credentials: checked, profile, regional, signal });
    } catch (error) {
      // The engine aborts on shutdown and expects its own reason back, unchanged.
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (error instanceof ServiceError) throw redactError(error, checked.key);
      if (timeout.aborted) throw errorForTimeout(op, this.#timeoutMs);
      throw redactError(errorForUnexpected(op, error), checked.key);
    }
  }

  /**
   * Sends the request (following redirects where the key may go) and returns the answer when its
   * status is one of `accepted` (today's contract: 200 only).
   */
  async #exchange(
    call: Call,
    outgoing: Outgoing,
    accepted: readonly number[],
    limits: { readonly maxBytes: number } = { maxBytes: this.#maxBytes },
  ): Promise<Answer> {
    let current = outgoing;
    for (let hop = 0; ; hop += 1) {
      const response = await this.#send(call, current);
      const redirect = redirectTarget(
        { ...call, maxRedirects: this.#maxRedirects },
        current,
        response,
        hop,
      );
      if (redirect === null) return this.#readAnswer(call, response, accepted, limits.maxBytes);
      discardBody(response);
      current = { ...current, url: redirect };
    }
  }

  async #send(call: Call, outgoing: Outgoing): Promise<Response> {
    const { method, url, body, headers: extra } = outgoing;
    // The key goes under its base URL (or the profile's regional hosts) only; the paths built
    // here, the addresses a service gave and the redirects followed are checked before, so this
    // is the last line, not the first.
    if (!keyMayGoTo(url, call.credentials.baseUrl, call.regional)) {
      // Today only a task id varies in a path, and checkTaskId refuses the ids that could leave.
      throw new ServiceError({
        kind: 'config',
        message: sentence('error.service.taskIdDots'),
        mayHaveReachedService: false,
      });
    }
    const headers: Record<string, string> = {
      ...extra,
      ...(outgoing.keyless === true ? {} : call.profile.authHeaders(call.credentials.key)),
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
   * An accepted answer's body (at most `maxBytes`), or the error its status or its broken body
   * means; an error status's body is cut at the usual limit.
   */
  async #readAnswer(
    call: Call,
    response: Response,
    accepted: readonly number[],
    maxBytes: number,
  ): Promise<Answer> {
    const limit = accepted.includes(response.status) ? maxBytes : this.#maxBytes;
    const read = await readBodyText(response, limit, call.signal);
    if (!accepted.includes(response.status)) {
      // The status already says what failed; a cut or broken error body still has its words
      // (and a 201's body may hold the id of a task that was created after all).
      throw this.#statusError(call, response, read.text);
    }
    if (read.outcome === 'too_large') throw errorForTooLarge(call.op, limit);
    if (read.outcome === 'broken') {
      if (call.signal.aborted) throw read.error;
      throw errorForBrokenBody(call.op, read.error);
    }
    return { status: response.status, text: read.text, headers: response.headers };
  }

  #statusError(call: Call, response: Response, body: string): ServiceError {
    const json = call.profile.errorKind ? parseJson(body) : null;
    const kind = json?.ok ? call.profile.errorKind?.(response.status, json.value) : undefined;
    const meaning = kind === undefined ? undefined : KIND_STATUS[kind];
    return errorForStatus(
      call.op,
      {
        status: response.status,
        statusText: response.statusText,
        body: redactBody(body, call.credentials.key),
        retryAfter: response.headers.get('retry-after'),
        ...(meaning === undefined ? {} : { meaning }),
      },
      this.#now(),
    );
  }
}
