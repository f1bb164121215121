/**
 * "Test connection": asks a service about a task id it cannot have, with a key. A "no such task"
 * answer proves the service is there and took the key. It tests the address the user has typed
 * (saved or not), normalised as Settings would save it, with the key being entered in Settings
 * (before it is stored, the check made when it is saved) or else with the stored key, only when
 * that key was entered for that base URL; an empty address tests the built-in demo
 * service. The result is a report for the user, with its outcome for the caller, not an error.
 */
import { keyFingerprint } from '../../../shared/domain/fingerprint';
import type { CostUnit } from '../../../shared/domain/task-cost';
import type { ServiceCredentials } from '../../ports/credentials';
import { DEMO_ENDPOINT } from '../credentials/demo-endpoint';
import { serviceLabel } from '../credentials/key-binding';
import type { ServiceClient } from './service-client';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { keyTextProblem } from '../key-vault/key-text';
import { ServiceError } from './service-error';
import { UrlPolicyError, checkBaseUrl } from './url-policy';

/** An id no service will have: asking for it tells whether the service is there and takes the key. */
export const PROBE_TASK_ID = 'pictor-connection-test';

/**
 * What the test found, for the caller: the key was taken, the service refused the key (401/403),
 * the service could not be reached (network, timeout), it answered with another failure, or
 * nothing was tested (no address, no key, a key for another origin).
 */
export type ConnectionOutcome =
  'accepted' | 'key_refused' | 'unreachable' | 'failed' | 'not_tested';

/** What the test found, in sentences for the user. */
export interface ConnectionReport {
  readonly ok: boolean;
  readonly outcome: ConnectionOutcome;
  /** In English (the CLI's and the log's words); the window shows `sentence`. */
  readonly message: string;
  /** The message as a catalogue sentence (absent only for words that came as text). */
  readonly sentence?: Sentence;
  /** Technical detail, shown on demand. Never the key. */
  readonly detail?: string;
  /** What the account had left when the test read it (a service whose probe says so: BFL). */
  readonly balance?: AccountBalance;
}

/** An account's balance as a key check read it, and when. */
export interface AccountBalance {
  readonly micros: number;
  readonly unit: CostUnit;
  /** When it was read (ms since the epoch). */
  readonly readAt: number;
}

/** The stored key as far as a base URL may have it. */
export type StoredKeyFor =
  /** The key, entered for this base URL. */
  | { readonly found: 'key'; readonly credentials: ServiceCredentials }
  /** No key is stored (or none can be read now). */
  | { readonly found: 'none' }
  /** A key is stored for another base URL (`null`: for none yet) and is never sent to this one. */
  | { readonly found: 'other'; readonly keyBaseUrl: string | null };

export interface ConnectionTestDeps {
  readonly credentials: {
    /** Credentials for `demo:` (the built-in service), or null while it is not running. */
    credentialsFor(endpoint: string): Promise<ServiceCredentials | null>;
    /** The stored key for `baseUrl` (normalised), only when it was entered for that base URL. */
    storedKeyFor(baseUrl: string): Promise<StoredKeyFor>;
  };
  readonly client: Pick<ServiceClient, 'getTask'>;
  /**
   * The saved service address: a key being entered is tested there only (where it would be
   * stored), so the page cannot aim main's requests at a host the user did not configure.
   */
  readonly savedBaseUrl: () => string;
}

type Target =
  | {
      readonly ok: true;
      readonly credentials: ServiceCredentials;
      readonly accepted: Sentence;
      /** The address's host, for the sentences (`null`: the demo service). */
      readonly host: string | null;
    }
  | { readonly ok: false; readonly report: ConnectionReport };

/** A report in a sentence (and its English text), with the detail when there is one. */
export function connectionReport(
  outcome: ConnectionOutcome,
  said: Sentence | undefined,
  message: string,
  detail?: string,
): ConnectionReport {
  return {
    ok: outcome === 'accepted',
    outcome,
    message,
    ...(said ? { sentence: said } : {}),
    ...(detail ? { detail } : {}),
  };
}

/** A report in a catalogue sentence, with its English text as the message. */
export function reportSaying(
  outcome: ConnectionOutcome,
  said: Sentence,
  detail?: string,
): ConnectionReport {
  return connectionReport(outcome, said, englishText(said), detail);
}

/** A service error's technical side, for the report's detail: its status (or kind) and words. */
export function errorDetail(error: ServiceError): string {
  return [error.httpStatus ? `HTTP ${error.httpStatus}` : error.kind, error.detail]
    .filter(Boolean)
    .join(' — ');
}

/**
 * Why the stored key is not tested at the address of `host`: none is stored, or it was entered
 * for another address (or before any), and is never sent to this one.
 */
export function storedKeyNotTested(
  stored: Exclude<StoredKeyFor, { found: 'key' }>,
  host: string,
): ConnectionReport {
  if (stored.found === 'none') {
    return reportSaying('not_tested', sentence('error.service.testNoKey', { host }));
  }
  return reportSaying(
    'not_tested',
    stored.keyBaseUrl === null
      ? sentence('error.service.testKeyBeforeAddress', { host })
      : sentence('error.service.testKeyForOther', {
          keyService: serviceLabel(stored.keyBaseUrl),
          host,
        }),
  );
}

/** The service at `host` refused the key (an error of kind `auth`): which one, and what to check. */
export function keyRefusedReport(error: ServiceError, host: string): ConnectionReport {
  const said = sentence('error.service.testKeyRefused', {
    host,
    status: String(error.httpStatus ?? ''),
  });
  return reportSaying('key_refused', said, errorDetail(error));
}

const refused = (said: Sentence): Target => ({
  ok: false,
  report: reportSaying('not_tested', said),
});

/** The key being entered, to test before it is stored (it goes to the typed address only). */
async function enteredTarget(baseUrl: string, key: string, host: string): Promise<Target> {
  const problem = keyTextProblem(key.trim());
  if (problem !== null) return refused(problem);
  return {
    ok: true,
    credentials: { baseUrl, key: key.trim(), keyFingerprint: await keyFingerprint(key.trim()) },
    accepted: sentence('error.service.testAccepted', { host }),
    host,
  };
}

/** Whether `baseUrl` (checked) is the saved address, as Settings saves it. */
function sameAddress(baseUrl: string, saved: string): boolean {
  try {
    return saved.trim() !== '' && checkBaseUrl(saved) === baseUrl;
  } catch {
    return false;
  }
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
  if (typed.trim() === '') {
    const demo = await deps.credentials.credentialsFor(DEMO_ENDPOINT);
    if (!demo) return refused(sentence('error.service.testDemoNotRunning'));
    return {
      ok: true,
      credentials: demo,
      accepted: sentence('error.service.testDemoAccepted'),
      host: null,
    };
  }
  let baseUrl: string;
  try {
    baseUrl = checkBaseUrl(typed);
  } catch (error) {
    if (error instanceof UrlPolicyError) return refused(error.sentence);
    throw error;
  }
  const host = serviceLabel(baseUrl);
  if (enteredKey !== undefined) {
    if (!sameAddress(baseUrl, deps.savedBaseUrl()))
      return refused(sentence('error.service.testKeySaveAddress', { host }));
    return enteredTarget(baseUrl, enteredKey, host);
  }
  const stored = await deps.credentials.storedKeyFor(baseUrl);
  if (stored.found !== 'key') return { ok: false, report: storedKeyNotTested(stored, host) };
  return {
    ok: true,
    credentials: stored.credentials,
    accepted: sentence('error.service.testAccepted', { host }),
    host,
  };
}

/**
 * Tests the service at `typedBaseUrl` (the built-in demo service when it is empty) with
 * `enteredKey` when given (the key being entered, not stored), else with its stored key.
 * @throws only what is not a {@link ServiceError} (a bug): every service failure is a report.
 */
export async function testConnection(
  deps: ConnectionTestDeps,
  typedBaseUrl: string,
  enteredKey?: string,
): Promise<ConnectionReport> {
  const target = await targetOf(deps, typedBaseUrl, enteredKey);
  if (!target.ok) return target.report;
  const { accepted } = target;
  try {
    await deps.client.getTask(target.credentials, PROBE_TASK_ID);
    return reportSaying('accepted', accepted);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.kind === 'not_found') {
      return reportSaying(
        'accepted',
        accepted,
        'It said it has no task with a test id, as expected.',
      );
    }
    // Said for Settings, where the key is: which service refused it, and what to check.
    if (error.kind === 'auth') return keyRefusedReport(error, target.host ?? 'demo');
    const outcome = error.kind === 'network' || error.kind === 'timeout' ? 'unreachable' : 'failed';
    return connectionReport(outcome, error.sentence, error.message, errorDetail(error));
  }
}
