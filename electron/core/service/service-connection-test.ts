/**
 * "Test connection" for the services besides today's contract: each profile's key probe
 * (providers/, `keyProbe`), a GET that creates no task, so nothing is charged: Replicate's
 * account, BFL's credits, DashScope's task list, the status of a request fal has never seen. It
 * tests the service's saved address (the provider's own unless the user gave another) with the
 * service's stored key, only when that key was entered for that address. A key not stored yet is
 * not sent: the page cannot make main ask a service about a key of its choosing. Every result
 * is a sentence: the key taken, the key refused, the service not reached, or an answer that is
 * not the service's to a key check. A probe that reads the account's balance (BFL's credits) adds
 * it, checked, with the time it was read: read only when the user tests, never polled.
 */
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import { serviceLabel } from '../credentials/key-binding';
import {
  connectionReport,
  errorDetail,
  keyRefusedReport,
  reportSaying,
  storedKeyNotTested,
  type ConnectionReport,
  type StoredKeyFor,
} from './connection-test';
import type { ServiceClient } from './service-client';
import { ServiceError } from './service-error';

/** A service with a profile of its own (today's contract has its own test: connection-test.ts). */
export type OtherService = Exclude<ProviderId, 'pictor'>;

export interface ServiceTestDeps {
  readonly keys: {
    /** `provider`'s stored key, only when it was entered for `baseUrl` (normalised). */
    storedKeyOf(provider: ProviderId, baseUrl: string): Promise<StoredKeyFor>;
  };
  readonly client: Pick<ServiceClient, 'probeKey'>;
  /** The saved address of `provider`'s service, normalised; null when it has none. */
  readonly addressOf: (provider: ProviderId) => string | null;
  /** The clock, for when a balance was read. */
  readonly now: () => number;
}

/** What a failed key check means, in a sentence for Settings. */
function failureReport(error: ServiceError, host: string, service: string): ConnectionReport {
  if (error.kind === 'auth') return keyRefusedReport(error, host);
  const detail = errorDetail(error);
  if (error.kind === 'network' || error.kind === 'timeout') {
    return reportSaying('unreachable', sentence('error.service.testUnreachable', { host }), detail);
  }
  if (error.kind === 'config') {
    return connectionReport('not_tested', error.sentence, error.message, detail);
  }
  return reportSaying(
    'failed',
    sentence('error.service.testUnexpected', { host, service }),
    detail,
  );
}

/**
 * Tests `provider`'s service at its saved address with its stored key.
 * @throws only what is not a {@link ServiceError} (a bug): every service failure is a report.
 */
export async function testServiceConnection(
  deps: ServiceTestDeps,
  provider: OtherService,
): Promise<ConnectionReport> {
  const service = PROVIDERS[provider].label;
  const baseUrl = deps.addressOf(provider);
  if (baseUrl === null) {
    return reportSaying('not_tested', sentence('error.service.serviceUrlInvalid'));
  }
  const host = serviceLabel(baseUrl);
  const stored = await deps.keys.storedKeyOf(provider, baseUrl);
  if (stored.found !== 'key') return storedKeyNotTested(stored, host);
  try {
    const check = await deps.client.probeKey(stored.credentials);
    if (check.accepted) {
      const report = reportSaying(
        'accepted',
        sentence('error.service.testAccepted', { host }),
        check.detail,
      );
      return check.balance
        ? { ...report, balance: { ...check.balance, readAt: deps.now() } }
        : report;
    }
    const said = sentence('error.service.testUnexpected', { host, service });
    return reportSaying('failed', said, `HTTP ${check.status}`);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return failureReport(error, host, service);
  }
}
