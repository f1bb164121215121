/**
 * What a rejected `fetch` says about its request: whether any of it can have reached the service,
 * and why it failed. The transport's own word comes first: a {@link FetchRejection} says whether
 * the request was handed to a connection (the CLI's undici watches for it), so an early failure no
 * list names is still known unsent; the app's adapter says `written` once bytes of a body were
 * handed off, since Chromium words some failures of an open connection as it words them before
 * connecting (no network). Without that word (Chromium's `net` before any body byte went, a plain
 * `fetch`) the codes are read: the failures that can only happen before a connection carries a
 * byte (a bad port, a name not found, a refused connection, TLS, no network at the start) mean
 * nothing was sent; anything else may have happened after the request was written.
 *
 * Apart from why, it says whether the failure was this computer's network rather than the
 * service's: the machine went to sleep, its network changed or went away, and Chromium failed the
 * requests out with its own word for that. Such a fault passes by itself; the service did nothing.
 */
import { FetchRejection, type RequestReach } from '../../ports/http';
import type { TransportFailure } from './service-error';

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
  'ERR_INVALID_URL',
  'ERR_NAME_NOT_RESOLVED',
  'ERR_NAME_RESOLUTION_FAILED',
  'ERR_CONNECTION_REFUSED',
  'ERR_CONNECTION_TIMED_OUT',
  'ERR_INTERNET_DISCONNECTED',
  'ERR_ADDRESS_UNREACHABLE',
  'ERR_ADDRESS_INVALID',
  'ERR_PROXY_CONNECTION_FAILED',
  'ERR_TUNNEL_CONNECTION_FAILED',
  'ERR_UNSAFE_PORT',
  'ERR_DISALLOWED_URL_SCHEME',
  'ERR_UNKNOWN_URL_SCHEME',
]);

/**
 * This computer's network failed the request, not the service: Chromium's errors at a suspend
 * (`ERR_NETWORK_IO_SUSPENDED`), a change of network (another Wi-Fi, a VPN up or down:
 * `ERR_NETWORK_CHANGED`), no network at all (`ERR_INTERNET_DISCONNECTED`), and the system's own
 * "network is down" (`ENETDOWN`: no interface up, the CLI's word for it).
 */
const OFFLINE_CODES = new Set([
  'ERR_NETWORK_IO_SUSPENDED',
  'ERR_NETWORK_CHANGED',
  'ERR_INTERNET_DISCONNECTED',
  'ENETDOWN',
]);

/** A certificate that was not accepted (Node's and Chromium's names). */
const CERT_CODE =
  /^(CERT_|ERR_CERT_|ERR_TLS_CERT_)|^(DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|HOSTNAME_MISMATCH)$/;

/** A TLS handshake that failed for another reason (protocol, cipher, a plain-http port). */
const HANDSHAKE_CODE = /^(ERR_SSL_|ERR_TLS_)/;

/** Node's words for a TLS socket closed during the handshake (its code is a plain ECONNRESET). */
const HANDSHAKE_CLOSED = /before secure TLS connection was established/;

/** undici's and Chromium's words for a port `fetch` never connects to (no code on undici's). */
const BAD_PORT = /^bad port$/;

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

/** Why a request got no answer, finer than {@link TransportFailure}: TLS split in two. */
export type TransportCause = Exclude<TransportFailure, 'tls'> | 'certificate' | 'handshake';

/** What a rejected `fetch` says. */
export interface TransportReading {
  /** Nothing of the request can have reached the service. */
  readonly unsent: boolean;
  readonly cause: TransportCause;
  /** This computer's network failed it (asleep, changed, gone), not the service: see OFFLINE_CODES. */
  readonly offline: boolean;
  /** The first error code along the `cause` chain (the transport's, e.g. `ECONNREFUSED`). */
  readonly code: string | undefined;
  /** The messages along the chain, outermost first (technical detail, never shown as a sentence). */
  readonly text: string;
}

interface Found {
  readonly codes: string[];
  readonly messages: string[];
  readonly parts: string[];
  reach: RequestReach | undefined;
  connectSyscall: boolean;
  lookupSyscall: boolean;
}

interface ErrorFields {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
  name?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function visit(found: Found, value: unknown, depth: number): void {
  if (depth > 5 || value === null || typeof value !== 'object') {
    if (typeof value === 'string' && depth === 0) found.parts.push(value);
    return;
  }
  if (value instanceof FetchRejection) {
    // The transport's word, not part of what went wrong: its cause is.
    found.reach ??= value.reach;
    visit(found, value.cause, depth);
    return;
  }
  const record = value as ErrorFields;
  if (typeof record.code === 'string') found.codes.push(record.code);
  if (record.syscall === 'connect' || record.syscall === 'getaddrinfo') found.connectSyscall = true;
  if (record.syscall === 'getaddrinfo') found.lookupSyscall = true;
  if (typeof record.message === 'string') {
    const chromium = CHROMIUM_CODE.exec(record.message);
    if (chromium?.[1]) found.codes.push(chromium[1]);
    found.messages.push(record.message);
    found.parts.push(
      `${typeof record.name === 'string' ? `${record.name}: ` : ''}${record.message}`,
    );
  }
  if (Array.isArray(record.errors)) {
    record.errors.slice(0, 3).forEach((inner) => visit(found, inner, depth + 1));
  }
  visit(found, record.cause, depth + 1);
}

function causeOf(found: Found): TransportCause {
  const { codes, messages } = found;
  if (codes.some((code) => CERT_CODE.test(code))) return 'certificate';
  const handshake =
    codes.some((code) => HANDSHAKE_CODE.test(code)) ||
    messages.some((message) => HANDSHAKE_CLOSED.test(message));
  if (handshake) return 'handshake';
  if (messages.some((message) => BAD_PORT.test(message))) return 'blocked_port';
  if (codes.includes('ERR_UNSAFE_PORT')) return 'blocked_port';
  if (found.lookupSyscall || codes.some((code) => DNS_CODES.has(code))) return 'dns';
  if (codes.some((code) => REFUSED_CODES.has(code))) return 'refused';
  return 'other';
}

/** What the rejection of a `fetch` (not an abort) says about its request. */
export function readTransportFailure(error: unknown): TransportReading {
  const found: Found = {
    codes: [],
    messages: [],
    parts: [],
    reach: undefined,
    connectSyscall: false,
    lookupSyscall: false,
  };
  visit(found, error, 0);
  const cause = causeOf(found);
  const unsent =
    found.reach !== undefined
      ? found.reach === 'unsent'
      : cause !== 'other' ||
        found.connectSyscall ||
        found.codes.some((code) => CONNECT_PHASE_CODES.has(code));
  const offline = found.codes.some((code) => OFFLINE_CODES.has(code));
  return { unsent, cause, offline, code: found.codes[0], text: found.parts.join(' <- ') };
}
