/**
 * "Cancel on the service" and "Stop watching" for the in-memory `window.pictor`
 * (fake-pictor-api.ts), as main answers them: the service's answer is what the test sets in
 * `answer` (canceled by default), a service without cancel says so, a task that is not running is
 * `not_running`. A selection reports its progress as `tasks:cancelProgress`, one task at a time.
 * Browser-safe: imports only shared/.
 */
import type { CancelOutcomeKind } from '../../shared/domain/cancel-outcome';
import type { LiveState } from '../../shared/domain/live-state';
import { PROVIDERS, providerOf } from '../../shared/domain/providers';
import { canCancel, serviceCancels } from '../../shared/domain/task-actions';
import type { TaskRecord } from '../../shared/domain/task-record';
import type {
  EventChannel,
  EventPayload,
  RequestOutput,
  TaskItem,
} from '../../shared/ipc/contract';

type Outcome = RequestOutput<'tasks:cancel'>;
type Reason = NonNullable<Outcome['reason']>;

export interface FakeCancelHost {
  task(localId: string): TaskRecord | undefined;
  updateTask(localId: string, patch: Partial<TaskRecord>, live?: LiveState | null): TaskItem;
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void;
  now(): number;
}

/** What the service answers to a cancel: how it went, and the reason of a refusal. */
export interface FakeCancelAnswer {
  readonly kind: Extract<CancelOutcomeKind, 'canceled' | 'stopping' | 'finished' | 'refused'>;
  readonly reason?: Reason;
}

const REFUSED: Reason = {
  message: 'The service rejected the task query (400): the task is running.',
  sentence: {
    key: 'error.service.rejectedQueryReason',
    params: { status: '400', reason: 'the task is running' },
  },
};

export class FakeCancels {
  /** How the service answers the next cancels. */
  answer: FakeCancelAnswer = { kind: 'canceled' };
  /** Resolves each cancel when set (a test holds the service's answer until it says). */
  gate: Promise<void> | null = null;

  constructor(private readonly host: FakeCancelHost) {}

  async cancel(localId: string): Promise<Outcome> {
    const record = this.host.task(localId);
    if (!record) return { kind: 'not_running', localId, item: null, reason: notNow() };
    if (!canCancel(record))
      return { kind: 'not_running', localId, item: item(record), reason: notNow() };
    if (!serviceCancels(record)) {
      const service = PROVIDERS[providerOf(record)].label;
      const reason: Reason = {
        message: `${service} has no way to cancel a task.`,
        sentence: { key: 'error.service.noCancel', params: { service } },
      };
      return { kind: 'unsupported', localId, item: item(record), reason };
    }
    if (this.gate) await this.gate;
    return this.answered(record);
  }

  async cancelMany(localIds: readonly string[]): Promise<{ outcomes: Outcome[] }> {
    const ids = [...new Set(localIds)];
    const outcomes: Outcome[] = [];
    for (const [index, localId] of ids.entries()) {
      outcomes.push(await this.cancel(localId));
      this.host.emit('tasks:cancelProgress', { done: index + 1, total: ids.length });
    }
    return { outcomes };
  }

  stopWatching(localIds: readonly string[]): { items: TaskItem[]; skipped: number } {
    const ids = [...new Set(localIds)];
    const items = ids
      .filter((localId) => this.host.task(localId)?.status === 'processing')
      .map((localId) =>
        this.host.updateTask(localId, { hold: 'timed_out', stoppedWatchingAt: this.host.now() }),
      );
    return { items, skipped: ids.length - items.length };
  }

  private answered(record: TaskRecord): Outcome {
    const { localId } = record;
    const { kind, reason } = this.answer;
    const at = this.host.now();
    switch (kind) {
      case 'canceled':
        return {
          kind,
          localId,
          item: this.host.updateTask(localId, {
            status: 'failed',
            canceledByUserAt: at,
            finishedAt: at,
            error: {
              kind: 'canceled',
              message: 'The task was canceled on the service.',
              sentence: { key: 'error.service.canceledWithoutReason' },
            },
            ...(record.cost ? { cost: { source: 'not_billed' as const } } : {}),
          }),
        };
      case 'stopping':
        return {
          kind,
          localId,
          item: this.host.updateTask(localId, { canceledByUserAt: at }, LIVE),
        };
      case 'finished':
        return { kind, localId, item: this.host.updateTask(localId, { status: 'completed' }) };
      case 'refused':
        return { kind, localId, item: item(record), reason: reason ?? REFUSED };
    }
  }
}

const LIVE: LiveState = { nextPollAt: null, polling: true, downloads: 0 };

function item(record: TaskRecord): TaskItem {
  return { record, live: null };
}

function notNow(): Reason {
  return {
    message: 'This task cannot be canceled now: it is no longer running.',
    sentence: { key: 'error.service.cancelNotNow' },
  };
}
