/**
 * "Test connection" for the services besides today's contract: each profile's key probe
 * (providers/, `keyProbe`), a GET that creates no task, so nothing is charged: Replicate's
 * account, BFL's credits, DashScope's task list, the status of a request fal has never seen. It
 * tests the service's saved address (the provider's own unless the user gave another) with the
 * service's stored key, only when that key was entered for that address. A key not stored yet is
 * not sent: the page cannot make main ask a service about a key of its choosing. Every result
 * is a sentence written for Settings (key-probe-report.ts), and what it says of the key is kept
 * with it. A probe that reads the account's balance (BFL's credits) adds it, checked, with the
 * time it was read: read only when the user tests, never polled.
 */
import type { ProviderId } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import { serviceLabel } from '../credentials/key-binding';
import {
  reportSaying,
  storedKeyNotTested,
  type ConnectionReport,
  type StoredKeyFor,
} from './connection-report';
import { recordOutcome, type KeyCheckRecorder } from './connection-test';
import { probeReport } from './key-probe-report';
import type { ServiceClient } from './service-client';

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
  /** Keeps what the test said of the stored key with it. */
  readonly recordCheck?: KeyCheckRecorder;
}

/**
 * Tests `provider`'s service at its saved address with its stored key.
 * @throws only what is not a ServiceError (a bug): every service failure is a report.
 */
export async function testServiceConnection(
  deps: ServiceTestDeps,
  provider: OtherService,
): Promise<ConnectionReport> {
  const baseUrl = deps.addressOf(provider);
  if (baseUrl === null) {
    return reportSaying('not_tested', sentence('error.service.serviceUrlInvalid'));
  }
  const host = serviceLabel(baseUrl);
  const stored = await deps.keys.storedKeyOf(provider, baseUrl);
  if (stored.found !== 'key') return storedKeyNotTested(stored, host);
  const place = { host, address: baseUrl };
  const report = await probeReport(deps.client, stored.credentials, place, deps.now);
  recordOutcome(deps.recordCheck, stored.credentials, report);
  return report;
}
