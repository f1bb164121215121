/**
 * Which state the key is in, worked out from plain facts (is the cipher ready, what backend,
 * what record is stored, what went wrong last), so every state is testable without a vault.
 */
import type { KeyStatus } from '../../../shared/domain/key-status';
import { englishText, type Sentence } from '../../../shared/i18n/sentence';
import type { KeyRecord } from './key-record';
import { PLAINTEXT_BACKEND } from './key-record';
import { keyMessages } from './key-messages';

/** Something that went wrong with the stored record and is remembered until the key changes. */
export type KeyProblem =
  | { readonly kind: 'decrypt_failed' }
  /** The vault file or record could not be read; `copy` is where the damaged file was kept. */
  | { readonly kind: 'damaged'; readonly copy: string | null };

export interface KeyFacts {
  readonly ready: boolean;
  readonly available: boolean;
  readonly backend: string;
  readonly weak: boolean;
  readonly record: KeyRecord | null;
  readonly problem: KeyProblem | null;
}

export function computeKeyStatus(facts: KeyFacts): KeyStatus {
  const { record } = facts;
  if (!facts.ready) {
    const backend = record?.backend ?? facts.backend;
    return status('not_ready', facts, backend, keyMessages.notReady, record?.weak ?? false);
  }
  if (record === null) return emptyStatus(facts);
  const decryptFailed = facts.problem?.kind === 'decrypt_failed';
  if (record.plaintext) {
    return decryptFailed
      ? status('decrypt_failed', facts, PLAINTEXT_BACKEND, keyMessages.decryptFailed, true)
      : status('ready', facts, PLAINTEXT_BACKEND, keyMessages.weakReady(PLAINTEXT_BACKEND), true);
  }
  if (!facts.available) {
    return status('unavailable', facts, record.backend, keyMessages.unavailableStored);
  }
  if (record.backend !== facts.backend) {
    const message = keyMessages.backendChanged(record.backend, facts.backend);
    return status('backend_changed', facts, facts.backend, message, facts.weak);
  }
  if (decryptFailed) {
    return status('decrypt_failed', facts, record.backend, keyMessages.decryptFailed);
  }
  const message = record.weak ? keyMessages.weakReady(record.backend) : null;
  return status('ready', facts, record.backend, message);
}

/** No usable record: why, and whether storing one will need consent. */
function emptyStatus(facts: KeyFacts): KeyStatus {
  if (facts.problem?.kind === 'damaged') {
    const message = keyMessages.damaged(facts.problem.copy);
    return status('decrypt_failed', facts, facts.backend, message, facts.weak);
  }
  if (!facts.available) {
    return status('unavailable', facts, facts.backend, keyMessages.unavailableEmpty, true);
  }
  if (facts.weak) {
    return status(
      'needs_consent',
      facts,
      facts.backend,
      keyMessages.needsConsent(facts.backend),
      true,
    );
  }
  return status('not_set', facts, facts.backend, keyMessages.notSet, false);
}

function status(
  state: KeyStatus['state'],
  facts: KeyFacts,
  backend: string,
  said: Sentence | null,
  weak = facts.record?.weak ?? facts.weak,
): KeyStatus {
  const record = facts.record;
  return {
    state,
    fingerprint: record?.fingerprint ?? null,
    backend,
    weak,
    message: said === null ? null : englishText(said),
    ...(said === null ? {} : { messageSentence: said }),
    baseUrl: record?.baseUrl ?? null,
    check: record?.check ?? null,
  };
}

/**
 * The answer to a `setKey` that stored nothing because the storage is weak (`needs_consent`) or
 * absent (`unavailable`) and the user has not consented: the current fingerprint, if any, stays.
 */
export function consentRefusal(facts: KeyFacts): KeyStatus {
  const message = facts.available
    ? keyMessages.needsConsent(facts.backend)
    : keyMessages.unavailableEmpty;
  return status(
    facts.available ? 'needs_consent' : 'unavailable',
    facts,
    facts.backend,
    message,
    true,
  );
}
