/**
 * The spending limit of one MCP connection (`pictor mcp --max-spend USD`): on top of the
 * library's caps, which every submit passes first as the CLI's do. Each submit's estimate is
 * counted from its check on (given back if the engine refuses it), so calls an agent sends at
 * once cannot pass on the same room; a submit whose cost is not known in US dollars is refused
 * while a limit is set (it could not be counted), a free or unbilled one passes. The tasks a
 * submit stored are remembered as paid: resuming one of them later (a batch's tail still waiting
 * for room) is not counted twice, while resuming a never-sent task another process stored is its
 * first submit, counted here (mcp-task-tools.ts).
 */
import type { TaskCost } from '../../../shared/domain/task-cost';
import type { TaskRecord } from '../../../shared/domain/task-record';

/** What a submit costs the connection: US dollar micros (0: free), null when not known in USD. */
export type SpendAmount = number | null;

/** A submit's outcome under the limit: what it gave, or why it was not made. */
export type Spent<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

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
 * The connection's spending. A submit's amount is held against the limit from its check until
 * its submit ends, and given back only when the submit throws: an agent's calls run side by side
 * (the SDK does not wait for one handler before the next), and a check that counted only once
 * the engine answered let every call sent meanwhile pass on the same room.
 */
export class ConnectionSpend {
  private spentMicros = 0;
  /** The tasks this connection's submits stored, their cost counted. */
  private readonly paid = new Set<string>();

  /** @param limitMicros the limit in USD micros; null: none (only the library's caps). */
  constructor(private readonly limitMicros: number | null) {}

  /**
   * Runs `submit` if `micros` fits in what is left of the limit, holding it meanwhile; a submit
   * that throws gives it back. A free submit (0) always runs; one whose cost is not known in US
   * dollars (null) is refused while a limit is set (it could not be counted). The tasks
   * `tasksOf` finds in what `submit` gave are remembered as paid.
   */
  async spend<T>(
    micros: SpendAmount,
    submit: () => Promise<T>,
    tasksOf: (value: T) => readonly TaskRecord[],
  ): Promise<Spent<T>> {
    const refused = this.refusal(micros);
    if (refused !== null) return { ok: false, reason: refused };
    const held = this.limitMicros === null ? 0 : (micros ?? 0);
    this.spentMicros += held;
    try {
      const value = await submit();
      for (const task of tasksOf(value)) this.paid.add(task.localId);
      return { ok: true, value };
    } catch (error) {
      this.spentMicros -= held;
      throw error;
    }
  }

  /** Whether a submit of this connection stored the task (its cost already counted). */
  paidFor(localId: string): boolean {
    return this.paid.has(localId);
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

  /** What the connection has spent and may still spend, for a tool's answer. */
  summary(): { spentUsd: number; limitUsd: number | null } {
    return {
      spentUsd: this.spentMicros / 1_000_000,
      limitUsd: this.limitMicros === null ? null : this.limitMicros / 1_000_000,
    };
  }
}
