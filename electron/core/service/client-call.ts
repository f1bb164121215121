/**
 * The shapes the service client (service-client.ts) works with: its options, one call in
 * flight, a request as it goes out, and a task as the client finds it.
 */
import type { GenerationRequest } from '../../../shared/service/wire';
import type { Clock } from '../../ports/clock';
import type { FetchLike, StreamedBody } from '../../ports/http';
import type { AnswerReader } from './answer-reader';
import type { ProviderProfile, TaskHandles } from './providers/provider-profile';
import type { CheckedCredentials } from './request-guard';
import type { ServiceReach } from './service-reach';
import type { ServiceOperation } from './status-errors';

/** How the client reaches the service and how patient it is. */
export interface ServiceClientOptions {
  fetch: FetchLike;
  /**
   * Told how each request ended, for the origin of the address the user saved for its service
   * (whatever host it went to: a region's polling address, a redirect followed): service-reach.ts.
   */
  reach?: Pick<ServiceReach, 'watch'> | undefined;
  /** Total per request, redirects and reading the body included. Default 30 s. */
  requestTimeoutMs?: number | undefined;
  /** Redirects (under the base URL) followed per request. Default 3. */
  maxRedirects?: number;
  /** A larger 200 body is a protocol error; larger error bodies are cut here. Default 1 MiB. */
  maxResponseBytes?: number;
  /**
   * The most an image sent inline may decode to: the gallery's download cap (pictor-core.ts
   * passes it), default DOWNLOAD_MAX_IMAGE_BYTES. The answer a profile says carries its
   * images inline may be that much base64 larger than `maxResponseBytes`.
   */
  maxInlineImageBytes?: number;
  /** For HTTP-date `Retry-After`. Default the clock's, or `Date.now`. */
  now?: () => number;
  /**
   * The clock of each request's time limit and of `now` (the core passes its own, so a test on
   * a manual clock moves a request to its limit). Default the real one.
   */
  clock?: Clock;
  /**
   * Every key the process holds now (CredentialsProvider.heldKeys: the app's vaults, the command
   * line's variables), read at the start of each call and dropped at its end; default none. An
   * answer, an error and a redirect are searched for each of them besides the key the call
   * sends: a hostile service may echo a key it learnt elsewhere (a replaced one, another
   * service's) into a task id or an image URL, which would be kept as data.
   */
  heldKeys?: (() => Promise<readonly string[]>) | undefined;
  /**
   * Reads every answer off the main thread (answer-reader.ts); default the process's shared one.
   * Tests pass their own (a worker that hangs or crashes).
   */
  answers?: AnswerReader | undefined;
}

/** One call in flight: what it is, whose key, and the signals that can end it. */
export interface Call {
  readonly op: ServiceOperation;
  readonly credentials: CheckedCredentials;
  /**
   * What answers and errors are searched for: the key sent, then every other the process holds
   * (ServiceClientOptions.heldKeys), for this call only.
   */
  readonly keys: readonly string[];
  /** The service's profile: its key header, its words (providers/). */
  readonly profile: ProviderProfile;
  /** Regional host patterns besides the base URL where the key may go (providers/regional-hosts.ts). */
  readonly regional: readonly string[];
  /** The caller's and the timeout's, combined. */
  readonly signal: AbortSignal;
  /**
   * The caller's alone: an answer that all arrived is read to its end whatever the request's
   * timeout (the worker has its own time), as it was when the main thread read it at once.
   */
  readonly callerSignal: AbortSignal | undefined;
}

export interface Outgoing {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly url: string;
  /** JSON text, or a body streamed as it is sent (a submit's inline images). */
  readonly body?: string | StreamedBody;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent without the key (a key probe's second question: is it refused without one?). */
  readonly keyless?: boolean;
}

/** A task on the service as the client needs it to poll, fetch or cancel it. */
export interface TaskRef {
  readonly taskId: string;
  /** The addresses the service gave for it (kept in its record). */
  readonly handles?: TaskHandles | undefined;
  /** What was asked for: a profile may need the model to find the task's address (fal). */
  readonly request?: GenerationRequest | undefined;
}
