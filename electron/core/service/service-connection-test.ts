/**
 * "Test connection" for the services besides today's contract: each profile's key probe
 * (providers/, `keyProbe`), a GET that creates no task, so nothing is charged: Replicate's
 * account, BFL's credits, DashScope's task list, the status of a request fal has never seen. It
 * tests the service's saved address (the provider's own unless the user gave another) with the
 * key being entered (Settings' "Connect a service": before it is stored, and only there, where Save
 * would check and store it, as `keys:set` does) or else with the service's stored key, only when
 * that key was entered for that address. The page never names the address a key goes to: a key is
 * sent to an address the user saved for that service, or nowhere. Every result is a sentence
 * written for Settings (key-probe-report.ts); what it says of the stored key is kept with it (of
 * a key being entered, nothing is kept). A probe that reads the account's balance (BFL's credits) adds it, checked, with the
 * time it was read: read only when the user tests, never polled.
 */
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import type { ProviderId } from '../../../shared/domain/providers';
import { sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import { serviceLabel } from './key-binding';
import { keyTextProblem } from '../secrets';
import {
  reportSaying,
  storedKeyNotTested,
  type ConnectionReport,
  type StoredKeyFor,
} from './connection-report';
import { recordOutcome, type KeyCheckRecorder } from './connection-test';
import { probeReport } from './key-probe-report';
import type { ServiceClient } from './service-client';

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

/** The key being entered for `provider`, as credentials for its saved address; or why not. */
async function enteredCredentials(
  provider: ProviderId,
  baseUrl: string,
  entered: string,
): Promise<ServiceCredentials | ConnectionReport> {
  const key = entered.trim();
  const problem = keyTextProblem(key);
  if (problem !== null) return reportSaying('not_tested', problem);
  return { baseUrl, key, keyFingerprint: await keyFingerprint(key), provider };
}

/**
 * Tests `provider`'s service at its saved address with `enteredKey` when given (the key being
 * entered, not stored: nothing of the answer is kept), else with its stored key.
 * @throws only what is not a ServiceError (a bug): every service failure is a report.
 */
export async function testServiceConnection(
  deps: ServiceTestDeps,
  provider: ProviderId,
  enteredKey?: string,
): Promise<ConnectionReport> {
  const baseUrl = deps.addressOf(provider);
  if (baseUrl === null) {
    return reportSaying('not_tested', sentence('error.service.serviceUrlInvalid'));
  }
  const host = serviceLabel(baseUrl);
  const place = { host, address: baseUrl };
  if (enteredKey !== undefined) {
    const credentials = await enteredCredentials(provider, baseUrl, enteredKey);
    if (!('key' in credentials)) return credentials;
    return probeReport(deps.client, credentials, place, deps.now);
  }
  const stored = await deps.keys.storedKeyOf(provider, baseUrl);
  if (stored.found !== 'key') return storedKeyNotTested(stored, host);
  const report = await probeReport(deps.client, stored.credentials, place, deps.now);
  recordOutcome(deps.recordCheck, stored.credentials, report);
  return report;
}
