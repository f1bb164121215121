/**
 * Transport failures: no answer at all, a broken answer, or no answer in time. What matters
 * most is whether the request may have reached the service: a submit that might have been
 * acted on must never be sent again automatically; one that never left says so, and why, in
 * words (transport-reading.ts tells them apart).
 */
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { cleanText } from '../../../shared/service/wire';
import { ServiceError, type ServiceErrorKind, type TransportFailure } from './service-error';
import { sentenceFor, type ServiceOperation } from './status-errors';
import { readTransportFailure, type TransportCause } from './transport-reading';

interface Failure {
  /** Error codes found along the `cause` chain, outermost first. */
  readonly codes: readonly string[];
  readonly text: string;
}

function describeFailure(error: unknown): Failure {
  const { code, text } = readTransportFailure(error);
  return { codes: code === undefined ? [] : [code], text };
}

function detailOf(failure: Failure): string {
  const code = failure.codes[0] ?? 'no error code';
  return cleanText(`${code}; ${failure.text || 'no message'}`);
}

/** The cause as "Test connection" tells it apart (key-probe-report.ts). */
function transportOf(cause: TransportCause): TransportFailure {
  return cause === 'certificate' || cause === 'handshake' ? 'tls' : cause;
}

/** Why a submit was not sent, naming the cause and the host it was for. */
function unsentSubmit(cause: TransportCause, host: string): Sentence {
  switch (cause) {
    case 'refused':
      return sentence('error.service.refusedSubmit', { host });
    case 'dns':
      return sentence('error.service.noSuchHostSubmit', { host: hostName(host) });
    case 'certificate':
      return sentence('error.service.insecureSubmit');
    case 'handshake':
      return sentence('error.service.handshakeSubmit', { host });
    case 'blocked_port':
      return sentence('error.service.blockedPort', { host: hostName(host), port: portOf(host) });
    case 'other':
      return sentence('error.service.unreachableSubmit');
  }
}

/** Why a query got no answer and nothing of it was sent. */
function unsentQuery(cause: TransportCause): Sentence {
  return cause === 'certificate' || cause === 'handshake'
    ? sentence('error.service.insecureQuery')
    : sentence('error.service.unreachableQuery');
}

/** `host[:port][/path]` → the name a resolver was asked. */
function hostName(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return host;
  }
}

function portOf(host: string): string {
  try {
    return new URL(`http://${host}`).port;
  } catch {
    return '';
  }
}

/**
 * The error for a `fetch` that rejected without an answer (and not because of an abort).
 * A request that never left (transport-reading.ts) says why, in words, and that nothing was sent;
 * its detail is the transport's code alone (no library text). One that may have been written
 * says the outcome is unknown, with the transport's words as detail.
 * @param host the service as its sentences name it (`api.example.com:8443`, key-binding.ts).
 */
export function errorForTransport(
  op: ServiceOperation,
  error: unknown,
  host: string,
): ServiceError {
  const reading = readTransportFailure(error);
  const transport = transportOf(reading.cause);
  if (reading.unsent) {
    return new ServiceError({
      kind: 'network',
      message: op === 'submit' ? unsentSubmit(reading.cause, host) : unsentQuery(reading.cause),
      ...(reading.code === undefined ? {} : { detail: cleanText(reading.code) }),
      mayHaveReachedService: false,
      transport,
      offline: reading.offline,
    });
  }
  return new ServiceError({
    kind: 'network',
    message: sentenceFor(op, 'error.service.brokeAfterSending', 'error.service.unreachableQuery'),
    detail: detailOf(describeFailure(error)),
    mayHaveReachedService: true,
    transport,
    offline: reading.offline,
  });
}

/**
 * A request to a port `fetch` never connects to (blocked-ports.ts): refused before the transport
 * is asked, so nothing was sent, with a sentence that names the port.
 * @param host the host name alone (`127.0.0.1`, `[::1]`, `gateway.example`).
 */
export function errorForBlockedPort(host: string, port: number): ServiceError {
  return new ServiceError({
    kind: 'config',
    message: sentence('error.service.blockedPort', { host, port: String(port) }),
    mayHaveReachedService: false,
  });
}

/** A failure once the request may have reached the service: its outcome is unknown. */
function outcomeUnknown(kind: ServiceErrorKind, message: Sentence, error: unknown): ServiceError {
  return new ServiceError({
    kind,
    message,
    detail: detailOf(describeFailure(error)),
    mayHaveReachedService: true,
    ...(readTransportFailure(error).offline ? { offline: true } : {}),
  });
}

/** The answer started (status and headers arrived) but its body did not finish. */
export function errorForBrokenBody(op: ServiceOperation, error: unknown): ServiceError {
  const message = sentenceFor(
    op,
    'error.service.brokeReadingSubmit',
    'error.service.brokeReadingQuery',
  );
  return outcomeUnknown('network', message, error);
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
    message: sentenceFor(
      op,
      'error.service.noAnswerInTimeSubmit',
      'error.service.noAnswerInTimeQuery',
      durationParams(timeoutMs),
    ),
    detail: `No complete answer within ${timeoutMs} ms.`,
    mayHaveReachedService: true,
  });
}

/** Something unforeseen went wrong; treated as an unknown outcome rather than a crash. */
export function errorForUnexpected(op: ServiceOperation, error: unknown): ServiceError {
  const message = sentenceFor(
    op,
    'error.service.unexpectedSubmit',
    'error.service.unexpectedQuery',
  );
  return outcomeUnknown('protocol', message, error);
}
