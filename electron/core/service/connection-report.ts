/**
 * What "Test connection" (and the check made when a key is saved) tells the user: an outcome for
 * the caller, a sentence for the window, its English for the log and the CLI, the technical detail
 * apart. Never the key.
 */
import type { CostUnit } from '../../../shared/domain/task-cost';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import { serviceLabel } from './key-binding';
import type { ServiceError } from './service-error';

/**
 * What the test found, for the caller: the key was taken, the service refused the key (401/403),
 * the service could not be reached (network, timeout), it answered with something else (not
 * this service, busy, in trouble), or nothing was tested (no address, no key, a key for another
 * origin).
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
