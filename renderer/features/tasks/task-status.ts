/**
 * What a task's status looks like in the list: a short badge, a sentence, its tone, whether it
 * changes every second, and which actions fit. Pure, so every status is testable on its own.
 */
import { recordServiceLabel } from '../../lib/service-label';
import { canRetry, isStopping } from '../../../shared/domain/task-actions';
import type { TaskError, TaskRecord } from '../../../shared/domain/task-record';
import { tookMs, waitStartedAt } from '../../../shared/domain/task-timing';
import type { TaskItem } from '../../../shared/ipc/contract';
import { errorText, formatDuration, t, type MessageKey } from '../../i18n';

export type StatusTone = 'neutral' | 'busy' | 'success' | 'warning' | 'danger';

export interface StatusView {
  /** The badge, e.g. "Processing". */
  readonly label: string;
  /** The sentence under the prompt (Pictor's words, in the shown language). */
  readonly sentence: string;
  /**
   * The service's own words after the sentence, when it explained a failure in them: shown
   * quoted, isolated from the sentence's direction and cut at their own end.
   */
  readonly quote?: string;
  /** Technical detail (from the error), shown on demand. */
  readonly detail?: string;
  readonly tone: StatusTone;
  /** The sentence depends on the clock (elapsed time, countdown). */
  readonly ticking: boolean;
}

/** Images that could not be saved (retry may still work for some). */
function failedImages(record: TaskRecord): number {
  return record.images.filter((image) => image.state === 'invalid' || image.state === 'expired')
    .length;
}

function pendingImages(record: TaskRecord): number {
  return record.images.filter((image) => image.state === 'pending').length;
}

function view(
  label: MessageKey,
  sentence: string,
  tone: StatusTone,
  extra: Partial<StatusView> = {},
): StatusView {
  return { label: t(label), sentence, tone, ticking: false, ...extra };
}

/**
 * How long the task has been with the service, and, said first, how far it is: its place in the
 * service's queue while it waits there, or the percent done, when the service says.
 */
function firstParts(item: TaskItem, now: number): string[] {
  const { record, live } = item;
  const elapsed = formatDuration(now - waitStartedAt(record));
  if (live?.queuePosition !== undefined) {
    return [
      t('tasks.live.queue', { ahead: live.queuePosition }),
      t('tasks.live.waiting', { elapsed }),
    ];
  }
  const parts = [t('tasks.live.elapsed', { elapsed })];
  if (live?.progress !== undefined)
    parts.unshift(t('tasks.live.progress', { progress: live.progress / 100 }));
  return parts;
}

function processing(
  item: TaskItem,
  now: number,
  typical: number | null,
  cancelling: boolean,
): StatusView {
  const { record, live } = item;
  const parts = firstParts(item, now);
  if (cancelling || isStopping(record)) {
    // The user asked the service to cancel it: said until the service's answer ends it.
    const elapsed = [t('tasks.live.cancelling'), ...parts].join(' · ');
    return view('tasks.status.cancelling', elapsed, 'busy', { ticking: true });
  }
  // Waiting in the service's queue, not yet made: the badge says so.
  const label =
    live?.queuePosition === undefined ? 'tasks.status.processing' : 'tasks.status.queued';
  if (typical !== null) parts.push(t('tasks.live.typical', { duration: formatDuration(typical) }));
  if (live?.polling) parts.push(t('tasks.live.checking'));
  else if (live?.nextPollAt != null) {
    const seconds = Math.max(0, Math.ceil((live.nextPollAt - now) / 1000));
    parts.push(seconds === 0 ? t('tasks.live.checking') : t('tasks.live.nextCheck', { seconds }));
  }
  if (!record.error) return view(label, parts.join(' · '), 'busy', { ticking: true });
  // A problem the engine is riding out (network, 5xx, 429): said in the row, the sentence on demand.
  const unreachable = record.error.kind === 'network' || record.error.kind === 'timeout';
  parts.splice(1, 0, t(unreachable ? 'tasks.live.unreachable' : 'tasks.live.serviceProblem'));
  return view(label, parts.join(' · '), 'warning', {
    ticking: true,
    detail: record.error.detail
      ? `${errorText(record.error)} ${record.error.detail}`
      : errorText(record.error),
  });
}

/**
 * What a failure says: its sentence in the shown language, or, for the service's own words (a
 * failure the service explained, which has no sentence), Pictor's lead-in and the words quoted.
 * `fallback` when there is no error at all.
 */
function failure(error: TaskError | null, fallback: MessageKey): Partial<StatusView> {
  if (!error) return { sentence: t(fallback) };
  const detail = error.detail ? { detail: error.detail } : {};
  if (error.sentence === undefined && error.kind === 'task_failed') {
    return { sentence: t('tasks.failed.serviceSaid'), quote: error.message, ...detail };
  }
  return { sentence: errorText(error), ...detail };
}

function failedView(label: MessageKey, tone: StatusTone, said: Partial<StatusView>): StatusView {
  return view(label, said.sentence ?? '', tone, said);
}

function held(record: TaskRecord): StatusView {
  switch (record.hold) {
    case 'timed_out':
      return view(
        'tasks.hold.timedOut',
        t(stoppedByUser(record) ? 'tasks.hold.stopped.sentence' : 'tasks.hold.timedOut.sentence'),
        'warning',
      );
    case 'awaiting_key':
      return view('tasks.hold.awaitingKey', t('tasks.hold.awaitingKey.sentence'), 'warning');
    default:
      return failedView(
        'tasks.hold.keyRejected',
        'warning',
        failure(record.error, 'tasks.hold.keyRejected.sentence'),
      );
  }
}

/** The user chose "Stop watching" for this hold (not a watch timeout, nor an older stop). */
function stoppedByUser(record: TaskRecord): boolean {
  const { stoppedWatchingAt, watchStartedAt } = record;
  return stoppedWatchingAt !== undefined && stoppedWatchingAt >= (watchStartedAt ?? 0);
}

function detailOf(record: TaskRecord): Partial<StatusView> {
  return record.error?.detail ? { detail: record.error.detail } : {};
}

function completed(record: TaskRecord): StatusView {
  const pending = pendingImages(record);
  if (pending > 0) {
    return view('tasks.status.saving', t('tasks.completed.saving', { count: pending }), 'busy');
  }
  const failed = failedImages(record);
  const count = record.images.length;
  // Every link expired before its image was saved: the badge says that, not "Completed" (the
  // task gave nothing to keep), and the sentence says it alone.
  if (count > 0 && record.images.every((image) => image.state === 'expired')) {
    return view('tasks.image.state.expired', t('tasks.completed.expired', { count }), 'warning');
  }
  if (failed > 0) {
    return view(
      'tasks.status.completed',
      t('tasks.completed.someFailed', { failed, count }),
      'warning',
    );
  }
  const took = tookMs(record);
  const tookText =
    took === null ? '' : t('tasks.completed.took', { duration: formatDuration(took) });
  const images = t('tasks.completed.images', { count });
  return view('tasks.status.completed', tookText ? `${images} · ${tookText}` : images, 'success');
}

/**
 * What a task not yet sent is doing: being sent, or waiting for room at a service that runs only
 * so many of a key's tasks at once.
 */
function submittingSentence({ record, live }: TaskItem): string {
  if (live?.runningAtLimit === undefined) return t('tasks.submitting.sentence');
  const service = recordServiceLabel(record);
  return t('tasks.submitting.waitingForRoom', { running: live.runningAtLimit, service });
}

/**
 * The status display of a task at time `now`; `typical` is how long similar tasks usually took
 * (ms), said beside a running task's elapsed time when known; `cancelling`: its cancel is being
 * asked now.
 */
export function describeStatus(
  item: TaskItem,
  now: number,
  typical: number | null = null,
  cancelling = false,
): StatusView {
  const { record } = item;
  switch (record.status) {
    case 'submitting':
      return view('tasks.status.submitting', submittingSentence(item), 'busy');
    case 'processing':
      return record.hold && !cancelling ? held(record) : processing(item, now, typical, cancelling);
    case 'completed':
      return completed(record);
    case 'failed':
      // Cancelled on the service (the user's cancel, or the service's own): not a failure.
      return record.error?.kind === 'canceled'
        ? failedView(
            'tasks.status.canceled',
            'neutral',
            failure(record.error, 'tasks.failed.noReason'),
          )
        : failedView(
            'tasks.status.failed',
            'danger',
            failure(record.error, 'tasks.failed.noReason'),
          );
    case 'submit_failed':
      return failedView(
        'tasks.status.submit_failed',
        'danger',
        failure(record.error, 'tasks.submitFailed.noReason'),
      );
    case 'submit_unknown':
      return view(
        'tasks.status.submit_unknown',
        t('tasks.submitUnknown.sentence'),
        'warning',
        detailOf(record),
      );
    case 'not_found':
      return failedView(
        'tasks.status.not_found',
        'danger',
        failure(record.error, 'tasks.notFound.sentence'),
      );
  }
}

/** The actions a task offers besides copy, favourite, details and remove. */
export interface TaskActions {
  readonly resume: boolean;
  readonly retryImages: boolean;
  readonly submitAgain: boolean;
}

export function availableActions(record: TaskRecord): TaskActions {
  return {
    // A held task's Resume, by the rule main's batch Retry follows too.
    resume: record.status === 'processing' && canRetry(record),
    // A completed task's Retry (a held one's is Resume, above).
    retryImages: record.status === 'completed' && canRetry(record),
    submitAgain:
      record.status === 'submit_failed' ||
      record.status === 'submit_unknown' ||
      record.status === 'failed',
  };
}
