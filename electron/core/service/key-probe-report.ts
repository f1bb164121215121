/**
 * A key check as Settings says it: what the probe found (key-check.ts), or why no answer came,
 * each in a sentence of its own written for Settings (the address, the key, what to check), never
 * one about tasks. "Test connection" and Save both ask through {@link probeReport}.
 */
import type { MainMessageKey } from '../../../shared/i18n/main-messages';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import { serviceLabel } from './key-binding';
import {
  connectionReport,
  errorDetail,
  reportSaying,
  type ConnectionOutcome,
  type ConnectionReport,
} from './connection-report';
import type { KeyCheck, KeyNotAccepted } from './key-check';
import type { ServiceClient } from './service-client';
import { ServiceError, type TransportFailure } from './service-error';

/** Where the probe went, as the sentences name it. */
export interface ProbePlace {
  /** The address's host (and path, when it has one), as Settings shows it: `api.example.com`. */
  readonly host: string;
  /** The whole base URL, for the sentences that name the address. */
  readonly address: string;
  /** The built-in demo service: it needs no key and says so. */
  readonly demo?: boolean;
}

/** The host name alone (no port, no path): the name a resolver was asked. */
function hostName(address: string): string {
  return URL.parse(address)?.hostname ?? address;
}

/** The address's port, as written in it. */
function portOf(address: string): string {
  return URL.parse(address)?.port ?? '';
}

/** Why no answer came, in Settings' words. */
function transportSentence(failure: TransportFailure, place: ProbePlace): Sentence {
  const { host, address } = place;
  switch (failure) {
    case 'refused':
      return sentence('error.service.testPortClosed', { address });
    case 'dns':
      return sentence('error.service.testNoSuchHost', { host: hostName(address) });
    case 'tls':
      return sentence('error.service.testInsecure', { host });
    case 'blocked_port':
      return sentence('error.service.blockedPort', {
        host: hostName(address),
        port: portOf(address),
      });
    case 'other':
      return sentence('error.service.testUnreachable', { host });
  }
}

/** Why no answer came (or one Pictor could not read), in Settings' words. */
function errorReport(error: ServiceError, place: ProbePlace): ConnectionReport {
  const detail = errorDetail(error);
  if (error.kind === 'config') {
    return connectionReport('not_tested', error.sentence, error.message, detail);
  }
  if (error.kind === 'timeout') {
    const said = sentence('error.service.testTimedOut', { host: place.host });
    return reportSaying('unreachable', said, detail);
  }
  if (error.kind === 'network') {
    return reportSaying(
      'unreachable',
      transportSentence(error.transport ?? 'other', place),
      detail,
    );
  }
  // Redirected round and round, or an answer of another kind: not a service of this kind.
  const said = sentence('error.service.testNotThisService', { address: place.address });
  return reportSaying('failed', said, detail);
}

/** What each answer that is not an acceptance means, and which sentence says it. */
const NOT_ACCEPTED: Readonly<
  Record<
    KeyNotAccepted['verdict'],
    { readonly outcome: ConnectionOutcome; readonly key: MainMessageKey }
  >
> = {
  refused: { outcome: 'key_refused', key: 'error.service.testKeyRefused' },
  // The service knows whose key it is: taken, with the account's trouble said.
  no_credits: { outcome: 'accepted', key: 'error.service.testNoCredits' },
  busy: { outcome: 'failed', key: 'error.service.testBusy' },
  trouble: { outcome: 'failed', key: 'error.service.testServerTrouble' },
  web_page: { outcome: 'failed', key: 'error.service.testWebPage' },
  not_this_service: { outcome: 'failed', key: 'error.service.testNotThisService' },
  keyless: { outcome: 'failed', key: 'error.service.testNotThisService' },
};

/** What the probe found, in Settings' words; a balance read is kept with when it was read. */
function checkReport(check: KeyCheck, place: ProbePlace, now: () => number): ConnectionReport {
  const { host, address } = place;
  if (check.verdict === 'redirected') {
    const said = sentence('error.service.testRedirected', { address, target: check.to ?? 'none' });
    return reportSaying('failed', said, `HTTP ${check.status}; Location: ${check.to ?? 'hidden'}`);
  }
  if (check.verdict === 'accepted') {
    const said = place.demo
      ? sentence('error.service.testDemoNoKey')
      : sentence('error.service.testAccepted', { host });
    const report = reportSaying('accepted', said, check.detail);
    return check.balance ? { ...report, balance: { ...check.balance, readAt: now() } } : report;
  }
  const { outcome, key } = NOT_ACCEPTED[check.verdict];
  const said = sentence(key, { host, address, status: String(check.status) });
  return reportSaying(outcome, said, `HTTP ${check.status}; ${check.excerpt}`);
}

/**
 * Asks the service at `credentials`' base URL, with their key, through its profile's key probe,
 * which creates no task; every answer and every failure is a report.
 * @throws only what is not a {@link ServiceError} (a bug).
 */
export async function probeReport(
  client: Pick<ServiceClient, 'probeKey'>,
  credentials: ServiceCredentials,
  place: ProbePlace,
  now: () => number,
): Promise<ConnectionReport> {
  try {
    return checkReport(await client.probeKey(credentials), place, now);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return errorReport(error, place);
  }
}

/** {@link probeReport} at the credentials' own address: the check made when a key is saved. */
export function probeAtAddress(
  client: Pick<ServiceClient, 'probeKey'>,
  now: () => number,
): (credentials: ServiceCredentials) => Promise<ConnectionReport> {
  return (credentials) => {
    const place = { host: serviceLabel(credentials.baseUrl), address: credentials.baseUrl };
    return probeReport(client, credentials, place, now);
  };
}
