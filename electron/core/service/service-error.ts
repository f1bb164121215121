/**
 * Typed failures of a request to the service. Every message is a sentence a user can act on;
 * none ever contains the key (messages are built from fixed text and server-sent text only).
 */
import type { ErrorKind, TaskError } from '../../../shared/domain/task-record';
import type { Sentence } from '../../../shared/i18n/sentence';
import { UserFacingError } from '../errors';

export type ServiceErrorKind = Extract<
  ErrorKind,
  | 'auth'
  | 'credits'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'bad_request'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'config'
>;

/**
 * Why a request got no answer at all, when the transport said: nothing listens at the port
 * (`refused`), the host name has no address (`dns`), the secure connection could not be set up
 * (`tls`), the port is one `fetch` never connects to (`blocked_port`: blocked-ports.ts), or
 * something else (`other`). "Test connection" says each in its own sentence.
 */
export type TransportFailure = 'refused' | 'dns' | 'tls' | 'blocked_port' | 'other';

export interface ServiceErrorInit {
  readonly kind: ServiceErrorKind;
  /**
   * A sentence for the user: what happened and what to do. A catalogue sentence
   * (`sentence('error.service.…', {…})`), so the window shows it in its language; text only for
   * words that come from elsewhere.
   */
  readonly message: string | Sentence;
  /** Technical detail shown on demand (status line, server text, parse issue). No secrets. */
  readonly detail?: string;
  readonly httpStatus?: number;
  /** From `Retry-After` (seconds or HTTP-date), already converted to a delay. */
  readonly retryAfterMs?: number;
  /**
   * `true` when the request may have reached the service and been acted on, but no usable
   * answer came back (connection dropped after sending, timeout, 200 with an unreadable body).
   * For a submit this means the outcome is unknown and it must not be retried automatically.
   */
  readonly mayHaveReachedService: boolean;
  /**
   * The service answered, but Pictor refused to keep what it sent (a task id carrying the API
   * key): the message says so and stands on its own, also for a submit whose outcome is unknown.
   */
  readonly refusedAnswer?: boolean;
  /** Why no answer came, for a request that got none (kind `network`). */
  readonly transport?: TransportFailure;
  /**
   * `true` when this computer's network failed the request (the machine went to sleep, its
   * network changed or went away), not the service: a fault that passes by itself, which says
   * nothing of the service (transport-reading.ts).
   */
  readonly offline?: boolean;
}

export class ServiceError extends UserFacingError {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly httpStatus: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly mayHaveReachedService: boolean;
  readonly refusedAnswer: boolean;
  readonly transport: TransportFailure | undefined;
  readonly offline: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message, { detail: init.detail });
    this.kind = init.kind;
    this.httpStatus = init.httpStatus;
    this.retryAfterMs = init.retryAfterMs;
    this.mayHaveReachedService = init.mayHaveReachedService;
    this.refusedAnswer = init.refusedAnswer ?? false;
    this.transport = init.transport;
    this.offline = init.offline ?? false;
  }

  /** Worth trying again later with the same request (the task is kept meanwhile). */
  get transient(): boolean {
    return (
      this.kind === 'rate_limited' ||
      this.kind === 'server' ||
      this.kind === 'network' ||
      this.kind === 'timeout' ||
      this.kind === 'protocol'
    );
  }

  toTaskError(): TaskError {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.sentence === undefined ? {} : { sentence: this.sentence }),
      ...(this.detail === undefined ? {} : { detail: this.detail }),
      ...(this.httpStatus === undefined ? {} : { httpStatus: this.httpStatus }),
    };
  }
}
