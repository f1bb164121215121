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
import type { SubmitAnswer } from './answer-parsing';
import type { AnswerOutcome } from './answer-protocol';
import { sharedAnswerReader } from './answer-reader';
import {
  checkBody,
  readOutcome,
  statusError,
  unexpectedOutcome,
  type AnswerContext,
} from './client-answers';
import { discardBody, readBodyText } from './http-response';
import { errorForTimeout, errorForUnexpected } from './network-errors';
import { fetchAnswer, refuseUnsendable } from './send-request';
import { redactError } from './request-guard';
import type { KeyCheck } from './key-check';
import { runKeyProbe } from './key-probe';
import { sentence } from '../../../shared/i18n/sentence';
import { ServiceError } from './service-error';
import { redirectedAway, redirectTarget } from './redirects';
import type { ServiceOperation } from './status-errors';
import { checkTaskId } from './task-id';
import { heldWait, type HeldWaitOutcome } from './held-answer';
import { timeLimit } from './time-limit';
import type { ProfileRequest, ProviderProfile } from './providers/provider-profile';
import type { QueuePlace } from './providers/provider-profile';
import { atAddress, placed, waitsInQueue } from './waiting-place';
import { hostOf, keyMayGoTo } from './providers/api-origins';
import { DOWNLOAD_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import type { Call, Outgoing, ServiceClientOptions, TaskRef } from './client-call';
import {
  callBasis,
  keysToFind,
  nameOf,
  positive,
  queueReading,
  bodyInit,
  streamedOf,
  submitReading,
  taskReading,
  type AnswerReading,
  type ReadingLimits,
} from './client-parts';

/** An accepted answer read as text on the main thread (a key probe's, a cancel's: small). */
type Answer = { readonly status: number; readonly text: string };

/** Talks to the image task service. One instance serves every endpoint and key. */
export class ServiceClient {
  /** The transport for a service saved at an address: each call's end told to the reach. */
  readonly #fetchFor: (address: string) => FetchLike;
  readonly #timeoutMs: number;
  readonly #maxRedirects: number;
  readonly #maxBytes: number;
  readonly #maxInlineBytes: number;
  readonly #now: () => number;
  /**
   * How answers are read: the worker, the usual limit, the clock for `Retry-After`, and the clock
   * of a request's time limit and a held stream's hold (none: the real one, `AbortSignal.timeout`).
   */
  readonly #reading: AnswerContext;

  constructor(options: ServiceClientOptions) {
    const { fetch, reach } = options;
    this.#fetchFor = reach ? (address) => reach.watch(fetch, address) : () => fetch;
    this.#timeoutMs = positive(options.requestTimeoutMs, 30_000, 'requestTimeoutMs');
    this.#maxRedirects = Math.floor(positive(options.maxRedirects, 3, 'maxRedirects'));
    this.#maxBytes = Math.floor(
      positive(options.maxResponseBytes, 1024 * 1024, 'maxResponseBytes'),
    );
    this.#maxInlineBytes = Math.floor(
      positive(options.maxInlineImageBytes, DOWNLOAD_MAX_IMAGE_BYTES, 'maxInlineImageBytes'),
    );
    const clock = options.clock;
    this.#now = options.now ?? (clock ? () => clock.now() : Date.now);
    this.#reading = {
      answers: options.answers ?? sharedAnswerReader(),
      maxBytes: this.#maxBytes,
      now: this.#now,
      clock,
      heldKeys: options.heldKeys,
    };
  }

  #limits(): ReadingLimits {
    return { maxBytes: this.#maxBytes, maxInlineBytes: this.#maxInlineBytes };
  }

  /**
   * Submits a generation the way the credentials' provider takes it (today's contract:
   * POST {baseUrl}/v1/images/generations); one with `inputs` with `sent` (core/inputs/).
   * @returns the service's task id (checked with `checkTaskId`), and the task's addresses it gave.
   * @throws ServiceError; or the caller's `signal.reason` when it aborted.
   */
  submit(
    credentials: ServiceCredentials,
    request: GenerationRequest,
    signal?: AbortSignal,
    sent?: Parameters<ProviderProfile['submit']>[1],
  ): Promise<SubmitAnswer & AnswerCost> {
    return this.#run('submit', credentials, signal, async (call) => {
      const outgoing = streamedOf(this.#outgoing(call, call.profile.submit(request, sent)), sent);
      const read = submitReading(call.profile, call.keys, this.#limits());
      const response = await this.#respond(call, outgoing);
      const statuses = call.profile.answerStatuses.submit;
      const outcome = await this.#readOutcome(call, response, statuses, read);
      if (outcome.kind !== 'submit') throw unexpectedOutcome(call.op, outcome);
      return outcome.answer;
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
      const ref: TaskRef = typeof task === 'string' ? { taskId: task } : task;
      const taskId = checkTaskId(ref.taskId);
      const request = ref.request ?? { prompt: '' };
      const polled = this.#outgoing(call, profile.poll(taskId, ref.handles ?? {}, request));
      const fetchesResult = Boolean(profile.result && profile.readResult);
      const { keys } = call;
      const polling = { which: 'poll', fetchesResult, taskId } as const;
      const readPoll = taskReading(profile, keys, this.#limits(), polling);
      const polledAnswer = await this.#respond(call, polled);
      const answer = await this.#readOutcome(
        call,
        polledAnswer,
        profile.answerStatuses.poll,
        readPoll,
      );
      if (answer.kind === 'fetchResult' && profile.result) {
        const fetched = this.#outgoing(call, profile.result(taskId, ref.handles ?? {}, request));
        const accepted = [200, ...(profile.answerStatuses.resultEnded ?? [])];
        const which = { which: 'result', fetchesResult: false, taskId } as const;
        const readResult = taskReading(profile, keys, this.#limits(), which);
        const fetchedAnswer = await this.#respond(call, fetched);
        const result = await this.#readOutcome(call, fetchedAnswer, accepted, readResult);
        if (result.kind !== 'task') throw unexpectedOutcome(call.op, result);
        return result.task;
      }
      if (answer.kind !== 'task') throw unexpectedOutcome(call.op, answer);
      const read = atAddress(answer.task, call.credentials.baseUrl);
      return waitsInQueue(read) ? placed(read, await this.#queuePlace(call, taskId)) : read;
    });
  }

  /**
   * Waits for a task to end where its service holds the wait (ProviderProfile.held): `holdMs` on
   * the client's clock at most, within 80 % of the request timeout (which bounds it all), sent as
   * every request is (key to its origin only); it says only whether to poll now (held-answer.ts).
   * @returns `broken` as well for a service without one and for any failure of the wait but one:
   * `interrupted` when this computer's network failed it (asleep, changed, gone).
   * @throws only the caller's `signal.reason`.
   */
  waitForEnd(
    credentials: ServiceCredentials,
    task: TaskRef,
    holdMs: number,
    signal?: AbortSignal,
  ): Promise<HeldWaitOutcome> {
    const hold = Math.min(holdMs, this.#timeoutMs * 0.8);
    const run = this.#run('query', credentials, signal, (call) =>
      heldWait(call.profile, { ...task, taskId: checkTaskId(task.taskId) }, hold, {
        signal: call.signal,
        context: this.#reading,
        keys: call.keys,
        respond: (held, asked) =>
          this.#respond({ ...call, signal: held }, this.#outgoing(call, asked)),
      }),
    );
    return run.catch((error: unknown) => {
      if (signal?.aborted) throw signal.reason;
      return error instanceof ServiceError && error.offline ? 'interrupted' : 'broken';
    });
  }

  /** Where the profile's queue puts a waiting task (read in the answer worker); undefined: unsaid. */
  async #queuePlace(call: Call, taskId: string): Promise<QueuePlace | undefined> {
    const question = call.profile.queue;
    if (!question) return undefined;
    try {
      const response = await this.#respond(call, this.#outgoing(call, question.request));
      const reading = queueReading(call, this.#limits(), taskId);
      const outcome = await this.#readOutcome(call, response, [200], reading);
      return outcome.kind === 'queue' ? outcome.place : undefined;
    } catch (error) {
      if (call.signal.aborted) throw error;
      return undefined;
    }
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
      for (const asked of [profile.cancel(taskId, task.handles ?? {}, request)].flat()) {
        const outgoing = this.#outgoing(call, asked);
        await this.#readText(call, await this.#respond(call, outgoing), [200, 201, 202, 204]);
      }
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
      return runKeyProbe(call.profile, call.keys, outgoing.url, {
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
    const basis = callBasis(credentials);
    if (callerSignal?.aborted) throw callerSignal.reason;
    // Nothing is sent until its answer can be read (the answer worker is up), and the worker's
    // start is not the request's time.
    await this.#reading.answers.ready(op, callerSignal);
    const keys = await keysToFind(basis.credentials.key, this.#reading.heldKeys);
    const limit = timeLimit(this.#timeoutMs, this.#reading.clock);
    const timeout = limit.signal;
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    try {
      return await work({ ...basis, keys, op, signal, callerSignal });
    } catch (error) {
      // The engine aborts on shutdown and expects its own reason back, unchanged.
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (error instanceof ServiceError) throw redactError(error, keys);
      if (timeout.aborted) throw errorForTimeout(op, this.#timeoutMs);
      throw redactError(errorForUnexpected(op, error), keys);
    } finally {
      limit.clear();
    }
  }

  /** Sends the request, following redirects where the key may go: the answer that is not one. */
  async #respond(call: Call, outgoing: Outgoing): Promise<Response> {
    let current = outgoing;
    for (let hop = 0; ; hop += 1) {
      const response = await this.#send(call, current);
      const redirect = redirectTarget(
        { ...call, maxRedirects: this.#maxRedirects },
        current,
        response,
        hop,
      );
      if (redirect === null) return response;
      discardBody(response);
      current = { ...current, url: redirect };
    }
  }

  async #send(call: Call, outgoing: Outgoing): Promise<Response> {
    const { method, url, body, headers: extra } = outgoing;
    refuseUnsendable(url, call.credentials.baseUrl, call.regional);
    const headers: Record<string, string> = {
      // A held wait's stream asks for events (providers/fal.ts); every other answer is JSON.
      Accept: 'application/json',
      ...extra,
      ...(outgoing.keyless === true ? {} : call.profile.authHeaders(call.credentials.key)),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const sent = bodyInit(body, headers);
    const init = { method, headers, ...sent, redirect: 'manual', signal: call.signal } as const;
    return fetchAnswer(this.#fetchFor(call.credentials.baseUrl), call.op, url, init);
  }

  /**
   * An accepted answer's body as text (at most the usual limit: the answers read here, a key
   * probe's and a cancel's, are small), or the error its status or its broken body means.
   */
  async #readText(call: Call, response: Response, accepted: readonly number[]): Promise<Answer> {
    const read = await readBodyText(response, this.#maxBytes, call.signal);
    if (!accepted.includes(response.status)) {
      // The status already says what failed; a cut or broken error body still has its words
      // (and a 201's body may hold the id of a task that was created after all).
      throw await statusError(this.#reading, call, response, read.text);
    }
    checkBody(call, read, this.#maxBytes);
    return { status: response.status, text: read.text };
  }

  /** What an accepted answer was, read by the answer worker (client-answers.ts). */
  #readOutcome(
    call: Call,
    response: Response,
    accepted: readonly number[],
    reading: AnswerReading,
  ): Promise<AnswerOutcome> {
    return readOutcome(this.#reading, call, response, { accepted, reading });
  }
}
