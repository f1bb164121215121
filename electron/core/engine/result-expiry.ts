/**
 * A service's documented result lifetime (shared/domain/providers.ts): a link that fails after it
 * expired, and is recorded so, with the lifetime and the fault that showed it.
 */
import { PROVIDERS, providerOf } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { FailedOutcome } from '../download';

/**
 * A task that just completed, with when its results stop being served: the service's documented
 * lifetime from now (its downloads go in that order, soonest first).
 */
export function withResultLifetime(record: TaskRecord, now: number): TaskRecord {
  const lifetime = PROVIDERS[providerOf(record)].resultLifetimeMs;
  return lifetime === null ? record : { ...record, resultsExpireAt: now + lifetime };
}

/** The task's results were due to expire by `now` (the service's documented lifetime). */
export function linksExpired(record: TaskRecord, now: number): boolean {
  return record.resultsExpireAt !== undefined && now >= record.resultsExpireAt;
}

/** Why an image whose link outlived the service's lifetime was not saved: the lifetime, the fault. */
export function expiredLinks(
  record: TaskRecord,
  outcome: FailedOutcome,
): { error: string; errorSentence: Sentence } {
  const facts = PROVIDERS[providerOf(record)];
  const minutes = Math.round((facts.resultLifetimeMs ?? 0) / 60_000);
  const said = sentence('error.gallery.resultsExpired', {
    service: facts.label,
    minutes,
    reason: outcome.error.slice(0, 300),
  });
  return { error: englishText(said), errorSentence: said };
}
