/**
 * The limits of one MCP connection (one server run: stdio serves one client): the spending limit
 * (`pictor mcp --max-spend USD`) and the task limit (`--max-tasks N`, 200 unless set), on top of
 * the library's caps, which every submit passes first as the CLI's do. The task limit bounds an
 * agent that loops on a free service, or one with no price and no cap, where no amount would
 * ever stop it; a human at the CLI needs none. Each submit's estimate is
 * counted from its check on (given back if the engine refuses it), so calls an agent sends at
 * once cannot pass on the same room; a submit whose cost is not known in US dollars is refused
 * while a limit is set (it could not be counted), a free or unbilled one passes. The tasks a
 * submit stored are remembered as paid: resuming one of them later (a batch's tail still waiting
 * for room) is not counted twice, while resuming a never-sent task another process stored is its
 * first submit, counted here (mcp-task-tools.ts).
 *
 * A submit whose call the agent cancelled is not made: the SDK answers no cancelled call, so the
 * agent would never learn of tasks sent after its cancel (a client cancels a call it timed out
 * on), and its retry would send them again.
 */
import type { TaskCost } from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_TASKS_ENV } from '../mcp-args';

/** What a submit costs the connection: US dollar micros (0: free), null when not known in USD. */
export type SpendAmount = number | null;

/** What a submit takes from the connection's limits: its amount and how many tasks it sends. */
export interface SpendCharge {
  readonly micros: SpendAmount;
  readonly tasks: number;
}

/** The connection's limits as the user configured them (mcp-args.ts). */
export interface ConnectionLimits {
  /** The most it may spend, in USD micros; null: none (only the library's caps). */
  readonly maxSpendMicros: number | null;
  /** The most tasks it may send. */
  readonly maxTasks: number;
}

/** A submit's outcome under the limit: what it gave, or why it was not made. */
export type Spent<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** Why a cancelled call's submit was not made (the SDK sends no cancelled call's answer). */
const CANCELLED = 'The call was cancelled, so nothing was sent.';

function tasksText(count: number): string {
  return count === 1 ? '1 task' : `${String(count)} tasks`;
}

function usd(micros: number): string {
  return `US$${(micros / 1_000_000).toFixed(2)}`;
}

/** What `count` tasks of `perTask` each cost the connection. */
export function amountOf(perTask: TaskCost, count: number): SpendAmount {
  if (perTask.source === 'free' || perTask.source === 'not_billed') return 0;
  const known = perTask.source !== 'unknown' && perTask.unit === 'USD';
  return known ? perTask.micros * count : null;
}

/**
 * The connection's spending and tasks sent. A submit's amount and tasks are held against the limit from its check until
 * its submit ends, and given back only when the submit throws: an agent's calls run side by side
 * (the SDK does not wait for one handler before the next), and a check that counted only once
 * the engine answered let every call sent meanwhile pass on the same room.
 */
export class ConnectionSpend {
  private spentMicros = 0;
  private sentTasks = 0;
  /** The tasks this connection's submits stored, their cost counted. */
  private readonly paid = new Set<string>();
  private readonly limitMicros: number | null;
  private readonly maxTasks: number;

  constructor(limits: ConnectionLimits) {
    this.limitMicros = limits.maxSpendMicros;
    this.maxTasks = limits.maxTasks;
  }

  /**
   * Runs `submit` if its charge fits in what is left of the limits, holding it meanwhile; a
   * submit that throws gives it back. Every submit counts its tasks; a free one (0) spends
   * nothing; one whose cost is not known in US dollars (null) is refused while a spending limit
   * is set (it could not be counted). The tasks `tasksOf` finds in what `submit` gave are
   * remembered as paid. Nothing is submitted once `call`, the tool call's signal, was cancelled.
   */
  async spend<T>(
    charge: SpendCharge,
    submit: () => Promise<T>,
    tasksOf: (value: T) => readonly TaskRecord[],
    call: AbortSignal,
  ): Promise<Spent<T>> {
    if (call.aborted) return { ok: false, reason: CANCELLED };
    const refused = this.taskRefusal(charge.tasks) ?? this.refusal(charge.micros);
    if (refused !== null) return { ok: false, reason: refused };
    const held = this.limitMicros === null ? 0 : (charge.micros ?? 0);
    this.spentMicros += held;
    this.sentTasks += charge.tasks;
    try {
      const value = await submit();
      for (const task of tasksOf(value)) this.paid.add(task.localId);
      return { ok: true, value };
    } catch (error) {
      this.spentMicros -= held;
      this.sentTasks -= charge.tasks;
      throw error;
    }
  }

  /** Whether a submit of this connection stored the task (its cost already counted). */
  paidFor(localId: string): boolean {
    return this.paid.has(localId);
  }

  /** Why a submit of `tasks` more tasks cannot be made now, or null when it can. */
  private taskRefusal(tasks: number): string | null {
    if (this.sentTasks + tasks <= this.maxTasks) return null;
    const left = Math.max(0, this.maxTasks - this.sentTasks);
    return `This submit would send ${tasksText(tasks)}, over what is left of this connection's task limit (${tasksText(left)} of ${tasksText(this.maxTasks)}). Nothing was sent. The user can raise the limit with --max-tasks N (or ${MAX_TASKS_ENV}) in this server's configuration and start it again.`;
  }

  /** Why a submit of `micros` cannot be made now, or null when it can. */
  private refusal(micros: SpendAmount): string | null {
    const limit = this.limitMicros;
    if (limit === null || micros === 0) return null;
    if (micros === null) {
      return `This connection has a spending limit of ${usd(limit)}, and the cost of this submit is not known in US dollars, so it cannot be counted against it. Set a price for the model in Pictor (Costs) first.`;
    }
    if (this.spentMicros + micros > limit) {
      return `This submit would cost about ${usd(micros)}, over what is left of this connection's spending limit (${usd(limit - this.spentMicros)} of ${usd(limit)}). Nothing was sent.`;
    }
    return null;
  }

  /** What the connection has spent and sent, and its limits, for a tool's answer. */
  summary(): { spentUsd: number; limitUsd: number | null; tasksSent: number; taskLimit: number } {
    return {
      spentUsd: this.spentMicros / 1_000_000,
      limitUsd: this.limitMicros === null ? null : this.limitMicros / 1_000_000,
      tasksSent: this.sentTasks,
      taskLimit: this.maxTasks,
    };
  }
}
