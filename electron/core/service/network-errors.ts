/**
 * Transport failures: no answer at all, a broken answer, or no answer in time. What matters
 * most is whether the request may have reached the service: a submit that might have been
 * acted on must never be sent again automatically.
 */
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { cleanText } from '../../../shared/service/wire';
import { ServiceError, type TransportFailure } from './service-error';
import type { ServiceOperation } from './status-errors';

/** Failures that happen before a byte of the request is written (Node/undici and Chromium names). */
const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_NAME_NOT_RESOLVED',
  'ERR_NAME_RESOLUTION_FAILED',
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_TIMED_OUT',
  'ERR_INTERNET_DISCONNECTED',
  'ERR_ADDRESS_UNREACHABLE',
  'ERR_ADDRESS_INVALID',
  'ERR_PROXY_CONNECTION_FAILED',
  'ERR_TUNNEL_CONNECTION_FAILED',
]);

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|ERR_CERT_)|^(DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?)$/;

/** A host name with no address (Node's resolver, Chromium's). */
const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ERR_NAME_NOT_RESOLVED',
  'ERR_NAME_RESOLUTION_FAILED',
]);

/** Nothing listens at the address's port. */
const REFUSED_CODES = new Set(['ECONNREFUSED', 'ERR_CONNECTION_REFUSED']);

/** Chromium (`net.fetch`) reports errors as text like "net::ERR_CONNECTION_REFUSED". */
const CHROMIUM_CODE = /net::(ERR_[A-Z0-9_]+)/;

interface Failure {
  /** Error codes found along the `cause` chain, outermost first. */
  readonly codes: readonly string[];
  /** `connect` or `getaddrinfo` when the failing syscall says so. */
  readonly connectSyscall: boolean;
  /** The failing syscall was the name lookup. */
  readonly lookupSyscall: boolean;
  readonly text: string;
}

function describeFailure(error: unknown): Failure {
  const codes: string[] = [];
  const parts: string[] = [];
  let connectSyscall = false;
  let lookupSyscall = false;
  const visit = (value: unknown, depth: number): void => {
    if (depth > 5 || value === null || typeof value !== 'object') {
      if (typeof value === 'string' && depth === 0) parts.push(value);
      return;
    }
    const record = value as {
      code?: unknown;
      syscall?: unknown;
      message?: unknown;
      name?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof record.code === 'string') codes.push(record.code);
    if (record.syscall === 'connect' || record.syscall === 'getaddrinfo') connectSyscall = true;
    if (record.syscall === 'getaddrinfo') lookupSyscall = true;
    if (typeof record.message === 'string') {
      const chromium = CHROMIUM_CODE.exec(record.message);
      if (chromium?.[1]) codes.push(chromium[1]);
      parts.push(`${typeof record.name === 'string' ? `${record.name}: ` : ''}${record.message}`);
    }
    if (Array.isArray(record.errors))
      record.errors.slice(0, 3).forEach((inner) => visit(inner, depth + 1));
    visit(record.cause, depth + 1);
  };
  visit(error, 0);
  return { codes, connectSyscall, lookupSyscall, text: parts.join(' <- ') };
}

/** Why the transport got no answer, as far as its codes say. */
function transportFailure(failure: Failure, tls: boolean): TransportFailure {
  if (tls) return 'tls';
  if (failure.lookupSyscall || failure.codes.some((code) => DNS_CODES.has(code))) return 'dns';
  if (failure.codes.some((code) => REFUSED_CODES.has(code))) return 'refused';
  return 'other';
}

function detailOf(failure: Failure): string {
  const code = failure.codes[0] ?? 'no error code';
  return cleanText(`${code}; ${failure.text || 'no message'}`);
}

function connectMessage(op: ServiceOperation, tls: boolean): Sentence {
  const submit = op === 'submit';
  if (tls) return sentence(submit ? 'error.service.insecureSubmit' : 'error.service.insecureQuery');
  return sentence(submit ? 'error.service.unreachableSubmit' : 'error.service.unreachableQuery');
}

/**
 * The error for a `fetch` that rejected without an answer (and not because of an abort).
 * Connect-phase failures (refused, DNS, unreachable, TLS) mean nothing was sent; anything else
 * (reset, socket closed, unknown) may have happened after the request was written.
 */
export function errorForTransport(op: ServiceOperation, error: unknown): ServiceError {
  const failure = describeFailure(error);
  const tls = failure.codes.some((code) => TLS_CODE.test(code));
  const notSent =
    tls || failure.connectSyscall || failure.codes.some((code) => CONNECT_PHASE_CODES.has(code));
  const message = notSent
    ? connectMessage(op, tls)
    : op === 'submit'
      ? sentence('error.service.brokeAfterSending')
      : sentence('error.service.unreachableQuery');
  return new ServiceError({
    kind: 'network',
    message,
    detail: detailOf(failure),
    mayHaveReachedService: !notSent,
    transport: transportFailure(failure, tls),
  });
}

/** The answer started (status and headers arrived) but its body did not finish. */
export function errorForBrokenBody(op: ServiceOperation, error: unknown): ServiceError {
  return new ServiceError({
    kind: 'network',
    message: sentence(
      op === 'submit' ? 'error.service.brokeReadingSubmit' : 'error.service.brokeReadingQuery',
    ),
    detail: detailOf(describeFailure(error)),
    mayHaveReachedService: true,
  });
}

/** A timeout as a sentence's values: milliseconds under a second, else seconds to a tenth. */
function durationParams(ms: number): { unit: 'ms' | 'seconds'; amount: number } {
  if (ms < 1000) return { unit: 'ms', amount: ms };
  return { unit: 'seconds', amount: Math.round(ms / 100) / 10 };
}

/** No complete answer within the request timeout (connecting, waiting or reading). */
export function errorForTimeout(op: ServiceOperation, timeoutMs: number): ServiceError {
  return new ServiceError({
    kind: 'timeout',
    message: sentence(
      op === 'submit' ? 'error.service.noAnswerInTimeSubmit' : 'error.service.noAnswerInTimeQuery',
      durationParams(timeoutMs),
    ),
    detail: `No complete answer within ${timeoutMs} ms.`,
    mayHaveReachedService: true,
  });
}

/** Something unforeseen went wrong; treated as an unknown outcome rather than a crash. */
export function errorForUnexpected(op: ServiceOperation, error: unknown): ServiceError {
  return new ServiceError({
    kind: 'protocol',
    message: sentence(
      op === 'submit' ? 'error.service.unexpectedSubmit' : 'error.service.unexpectedQuery',
    ),
    detail: detailOf(describeFailure(error)),
    mayHaveReachedService: true,
  });
}
