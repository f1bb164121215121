/**
 * The spending limit of one MCP connection (`pictor mcp --max-spend USD`): on top of the
 * library's caps, which every submit passes first as the CLI's do. Each submit's estimate is
 * counted when the engine takes it; a submit whose cost is not known in US dollars is refused
 * while a limit is set (it could not be counted), a free or unbilled one passes.
 */
import type { TaskCost } from '../../../shared/domain/task-cost';

/** What a submit would cost the connection, or why it is refused. */
export type SpendCheck =
  { readonly ok: true; readonly micros: number } | { readonly ok: false; readonly reason: string };

function usd(micros: number): string {
  return `US$${(micros / 1_000_000).toFixed(2)}`;
}

export class ConnectionSpend {
  private spentMicros = 0;

  /** @param limitMicros the limit in USD micros; null: none (only the library's caps). */
  constructor(private readonly limitMicros: number | null) {}

  /** Whether `count` tasks of `perTask` each fit in what is left of the limit. */
  check(perTask: TaskCost, count: number): SpendCheck {
    if (perTask.source === 'free' || perTask.source === 'not_billed')
      return { ok: true, micros: 0 };
    const known = perTask.source !== 'unknown' && perTask.unit === 'USD';
    return this.checkAmount(known ? perTask.micros * count : null);
  }

  /**
   * Whether a submit of `micros` US dollar micros in all fits in what is left of the limit;
   * null: its cost is not known in US dollars (refused while a limit is set).
   */
  checkAmount(micros: number | null): SpendCheck {
    const limit = this.limitMicros;
    if (limit === null) return { ok: true, micros: 0 };
    if (micros === null) {
      return {
        ok: false,
        reason: `This connection has a spending limit of ${usd(limit)}, and the cost of this submit is not known in US dollars, so it cannot be counted against it. Set a price for the model in Pictor (Costs) first.`,
      };
    }
    if (this.spentMicros + micros > limit) {
      return {
        ok: false,
        reason: `This submit would cost about ${usd(micros)}, over what is left of this connection's spending limit (${usd(limit - this.spentMicros)} of ${usd(limit)}). Nothing was sent.`,
      };
    }
    return { ok: true, micros };
  }

  /** Counts a submit the engine took. */
  add(micros: number): void {
    this.spentMicros += micros;
  }

  /** What the connection has spent and may still spend, for a tool's answer. */
  summary(): { spentUsd: number; limitUsd: number | null } {
    return {
      spentUsd: this.spentMicros / 1_000_000,
      limitUsd: this.limitMicros === null ? null : this.limitMicros / 1_000_000,
    };
  }
}
