/**
 * Submits refused for the account rather than for the request: the service
 * refused the key (401/403), the account has no credits (402), no key could be sent, or the
 * service could not be reached at all. Nothing was created and no task id came back (such a
 * submit ends `submit_failed`; one the service may have received ends `submit_unknown` and is
 * never one of these), so there is nothing to follow: the app says so once, in a banner, and
 * keeps no history row per attempt. The request itself goes back to the page, so nothing typed
 * is lost; nothing is ever sent again on its own.
 *
 * Only the submits the app itself made in this run are followed (the CLI sharing the history
 * reports its own refusals from their records, which stay).
 */
import type { ErrorKind, TaskRecord } from '../../../shared/domain/task-record';
import type { Sentence } from '../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { Disposable } from '../../ports/disposable';
import type { TaskUpdate } from './engine-types';

/** The kinds of account-level refusal. */
const ACCOUNT_REFUSAL_KINDS = ['auth', 'credits', 'network', 'config'] as const;
export type AccountRefusalKind = (typeof ACCOUNT_REFUSAL_KINDS)[number] & ErrorKind;

/** A refused submit that was not kept: what the page needs to tell the user and give back. */
export interface SubmitRefusal {
  readonly localId: string;
  readonly request: GenerationRequest;
  readonly kind: AccountRefusalKind;
  /** The record's error sentence (already free of the key, as every stored error is). */
  readonly message: string;
  /** The same as a catalogue sentence, when it has one (the window shows it in its language). */
  readonly sentence?: Sentence;
}

const KINDS = new Set<string>(ACCOUNT_REFUSAL_KINDS);

/** The refusal a finished submit's record stands for, or `null` when it is not one. */
function accountRefusalOf(record: TaskRecord): SubmitRefusal | null {
  const { error } = record;
  if (record.status !== 'submit_failed' || record.taskId !== null || error === null) return null;
  if (!KINDS.has(error.kind)) return null;
  return {
    localId: record.localId,
    request: record.request,
    kind: error.kind as AccountRefusalKind,
    message: error.message,
    ...(error.sentence === undefined ? {} : { sentence: error.sentence }),
  };
}

/** What {@link followSubmits} uses of the engine. */
export interface RefusalEngine {
  onDidUpdate(listener: (update: TaskUpdate) => void): Disposable;
  get(localId: string): TaskRecord | undefined;
  /** Removes the task at once (TaskEngine.removeNow). */
  removeNow(localId: string): boolean;
}

/**
 * Follows the just-submitted `records` until each has its answer; one refused for the account
 * is removed from the history and handed to `report`, once per batch: the others of a batch the
 * refusal stopped (engine's `sendBatch`) are removed too and handed to `dropped`, so the page
 * hears what happened once. Returns the records still kept (a submit refused before this call,
 * such as one with no key, is already gone).
 */
export function followSubmits(
  engine: RefusalEngine,
  records: readonly TaskRecord[],
  report: (refusal: SubmitRefusal) => void,
  dropped: (localId: string) => void = () => undefined,
): TaskRecord[] {
  const waiting = new Set(records.map((record) => record.localId));
  const reported = new Set<string>();
  const settle = (record: TaskRecord): SubmitRefusal | null => {
    if (!waiting.has(record.localId) || record.status === 'submitting') return null;
    waiting.delete(record.localId);
    if (waiting.size === 0) subscription.dispose();
    return accountRefusalOf(record);
  };
  const drop = (refusal: SubmitRefusal, batchId: string | undefined): void => {
    if (!engine.removeNow(refusal.localId)) return;
    if (batchId !== undefined && reported.has(batchId)) return dropped(refusal.localId);
    if (batchId !== undefined) reported.add(batchId);
    report(refusal);
  };
  const subscription = engine.onDidUpdate(({ record }) => {
    const refusal = settle(record);
    // Not inside the engine's own commit: removed once it has returned.
    if (refusal) queueMicrotask(() => drop(refusal, record.batchId));
  });
  for (const record of records) {
    const current = engine.get(record.localId);
    const refusal = current ? settle(current) : null;
    if (refusal) drop(refusal, current?.batchId);
  }
  if (waiting.size === 0) subscription.dispose();
  return records.filter((record) => engine.get(record.localId) !== undefined);
}
