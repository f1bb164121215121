/**
 * "Test connection" of today's contract: asks the service, through its profile's key probe, about
 * a task id it cannot have (providers/pictor.ts): its own "no such task", refused when asked
 * without the key, proves the service is there and took the key (key-probe.ts). It tests the
 * address the user has typed (saved or not), normalised as Settings would save it, with the key
 * being entered in Settings (before it is stored: only at the saved address, where it would be
 * stored) or else with the stored key, only when that key was entered for that base URL; an empty
 * address tests the built-in demo service, which needs no key. The result is a report for the
 * user, with its outcome for the caller, not an error; what it says of a stored key is kept with
 * that key (the tick in Settings).
 */
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import { DEMO_ENDPOINT } from './demo-endpoint';
import { serviceLabel } from './key-binding';
import { keyTextProblem } from '../secrets';
import {
  reportSaying,
  storedKeyNotTested,
  type ConnectionReport,
  type StoredKeyFor,
} from './connection-report';
import { probeReport, type ProbePlace } from './key-probe-report';
import type { ServiceClient } from './service-client';
import { UrlPolicyError, checkBaseUrl } from './url-policy';

export { PROBE_TASK_ID } from './providers/pictor';

/** What a test said of a stored key, to keep with it: accepted or refused. */
export type KeyCheckRecorder = (
  credentials: ServiceCredentials,
  outcome: 'accepted' | 'refused',
) => void;

export interface ConnectionTestDeps {
  readonly credentials: {
    /** Credentials for `demo:` (the built-in service), or null while it is not running. */
    credentialsFor(endpoint: string): Promise<ServiceCredentials | null>;
    /** The stored key for `baseUrl` (normalised), only when it was entered for that base URL. */
    storedKeyFor(baseUrl: string): Promise<StoredKeyFor>;
  };
  readonly client: Pick<ServiceClient, 'probeKey'>;
  /**
   * The saved service address: a key being entered is tested there only (where it would be
   * stored), so the page cannot aim main's requests at a host the user did not configure.
   */
  readonly savedBaseUrl: () => string;
  /** Keeps what the test said of the stored key with it (not of a key being entered). */
  readonly recordCheck?: KeyCheckRecorder;
  /** The clock, for when a balance was read. */
  readonly now?: () => number;
}

type Target =
  | {
      readonly ok: true;
      readonly credentials: ServiceCredentials;
      readonly place: ProbePlace;
      /** The stored key (what the test says of it is kept), not one being entered. */
      readonly stored: boolean;
    }
  | { readonly ok: false; readonly report: ConnectionReport };

const refused = (said: Sentence): Target => ({
  ok: false,
  report: reportSaying('not_tested', said),
});

/** Whether `baseUrl` (checked) is the saved address, as Settings saves it. */
function sameAddress(baseUrl: string, saved: string): boolean {
  try {
    return saved.trim() !== '' && checkBaseUrl(saved) === baseUrl;
  } catch {
    return false;
  }
}

/** The built-in demo service, tested with its own credentials: it needs no key of the user's. */
async function demoTarget(deps: ConnectionTestDeps): Promise<Target> {
  const demo = await deps.credentials.credentialsFor(DEMO_ENDPOINT);
  if (!demo) return refused(sentence('error.service.testDemoNotRunning'));
  const place = { host: serviceLabel(demo.baseUrl), address: demo.baseUrl, demo: true };
  return { ok: true, credentials: demo, place, stored: false };
}

/** The key being entered, to test before it is stored (it goes to the saved address only). */
async function enteredTarget(deps: ConnectionTestDeps, baseUrl: string, key: string) {
  const place = { host: serviceLabel(baseUrl), address: baseUrl };
  if (!sameAddress(baseUrl, deps.savedBaseUrl())) {
    return refused(sentence('error.service.testKeySaveAddress', { host: place.host }));
  }
  const problem = keyTextProblem(key.trim());
  if (problem !== null) return refused(problem);
  const credentials = {
    baseUrl,
    key: key.trim(),
    keyFingerprint: await keyFingerprint(key.trim()),
  };
  return { ok: true, credentials, place, stored: false } as const;
}

/** What to test for the address typed in Settings, or why there is nothing to test. */
async function targetOf(
  deps: ConnectionTestDeps,
  typed: string,
  enteredKey: string | undefined,
): Promise<Target> {
  if (typed.trim() === '' && enteredKey !== undefined) {
    return refused(sentence('error.service.testKeyNeedsAddress'));
  }
  if (typed.trim() === '') return demoTarget(deps);
  let baseUrl: string;
  try {
    baseUrl = checkBaseUrl(typed);
  } catch (error) {
    if (error instanceof UrlPolicyError) return refused(error.sentence);
    throw error;
  }
  if (enteredKey !== undefined) return enteredTarget(deps, baseUrl, enteredKey);
  const host = serviceLabel(baseUrl);
  const stored = await deps.credentials.storedKeyFor(baseUrl);
  if (stored.found !== 'key') return { ok: false, report: storedKeyNotTested(stored, host) };
  const place = { host, address: baseUrl };
  return { ok: true, credentials: stored.credentials, place, stored: true };
}

/**
 * Keeps what a test said of the stored key with it: accepted (the service's own answer) or
 * refused (401/403); any other answer says nothing of the key.
 */
export function recordOutcome(
  record: KeyCheckRecorder | undefined,
  credentials: ServiceCredentials,
  report: ConnectionReport,
): void {
  if (report.outcome === 'accepted') record?.(credentials, 'accepted');
  if (report.outcome === 'key_refused') record?.(credentials, 'refused');
}

/**
 * Tests the service at `typedBaseUrl` (the built-in demo service when it is empty) with
 * `enteredKey` when given (the key being entered, not stored), else with its stored key.
 * @throws only what is not a ServiceError (a bug): every service failure is a report.
 */
export async function testConnection(
  deps: ConnectionTestDeps,
  typedBaseUrl: string,
  enteredKey?: string,
): Promise<ConnectionReport> {
  const target = await targetOf(deps, typedBaseUrl, enteredKey);
  if (!target.ok) return target.report;
  const now = deps.now ?? Date.now;
  const report = await probeReport(deps.client, target.credentials, target.place, now);
  if (target.stored) recordOutcome(deps.recordCheck, target.credentials, report);
  return report;
}
