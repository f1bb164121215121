/**
 * The cost ledger as the app's window and the CLI read it: the user's prices (what Pictor
 * estimates with), spending caps, one entry per task, and totals per unit by day, month and
 * service. Schemas, because prices and caps come back from the disk and (later) the window; each
 * built on first use (lazy-schema.ts).
 */
import { z } from 'zod';
import { COST_BOUNDS } from './cost-amounts';
import { lazySchema } from './lazy-schema';
import { providerIdSchema, type ProviderId } from './providers';
import type { ServiceId } from './service-id';
import { costUnitSchema, priceBasisSchema, type CostUnit, type TaskCost } from './task-cost';

/**
 * A price the user set for a service (and model) in one unit: per image, or per megapixel asked
 * for. A service and model may have one price per unit (money and credits), so a cap in either
 * unit can count its tasks.
 */
export const costPriceSchema = lazySchema(() =>
  z.object({
    provider: providerIdSchema(),
    /** '' : every model of the provider that has no price of its own. */
    model: z.string().trim().max(COST_BOUNDS.model),
    unit: costUnitSchema(),
    basis: priceBasisSchema(),
    micros: z.number().int().min(0).max(COST_BOUNDS.priceMaxMicros),
  }),
);
export type CostPrice = z.infer<ReturnType<typeof costPriceSchema>>;

export const CAP_PERIODS = ['day', 'month'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];

/**
 * A spending cap: per the user's local day or month, in one unit, over every service or one.
 * `soft` warns before a submit that would pass it; `hard` refuses that submit.
 */
export const spendingCapSchema = lazySchema(() =>
  z.object({
    period: z.enum(CAP_PERIODS),
    unit: costUnitSchema(),
    provider: providerIdSchema().nullable(),
    kind: z.enum(['soft', 'hard']),
    micros: z.number().int().min(0).max(COST_BOUNDS.capMaxMicros),
  }),
);
export type SpendingCap = z.infer<ReturnType<typeof spendingCapSchema>>;

/**
 * One task of the ledger: when, which service, what it asked for, how it stands, and its cost.
 * The ledger keeps it after the task leaves the history (`inHistory` false).
 */
export interface LedgerEntry {
  readonly localId: string;
  readonly taskId: string | null;
  readonly provider: ProviderId;
  readonly model: string | null;
  /** The size it asked for (`1024x1024`), what a price per megapixel counts; null: none. */
  readonly size: string | null;
  /** The prompt as submitted. */
  readonly prompt: string;
  /** The task's last status the ledger saw. */
  readonly status: string;
  readonly createdAt: number;
  readonly cost: TaskCost;
  /** The history still lists the task (it can be opened). */
  readonly inHistory: boolean;
  /** A task of the built-in demo (its endpoint is one of the demo's: service-id.ts). */
  readonly demo?: true;
}

/** A sum in one unit: reported and estimated together, and the estimated part alone. */
export interface UnitTotal {
  readonly unit: CostUnit;
  readonly micros: number;
  readonly estimatedMicros: number;
  /** Tasks counted (those with an amount in this unit). */
  readonly tasks: number;
}

/** Totals per unit, for the whole selection and by local day, local month and service. */
export interface LedgerTotals {
  readonly timeZone: string;
  readonly overall: readonly UnitTotal[];
  /** `YYYY-MM-DD` in the time zone, oldest first. */
  readonly byDay: readonly (UnitTotal & { readonly day: string })[];
  /** `YYYY-MM` in the time zone, oldest first. */
  readonly byMonth: readonly (UnitTotal & { readonly month: string })[];
  readonly byService: readonly (UnitTotal & { readonly provider: ProviderId })[];
  /** Tasks in the selection whose cost nobody knows (no report, no price). */
  readonly unknownTasks: number;
}

/** Which tasks the ledger reads: created from `since` (inclusive) to `until` (exclusive). */
export interface LedgerQuery {
  readonly since?: number;
  readonly until?: number;
  /** Only this service's tasks: a provider's, or `demo` (shared/domain/service-id.ts). */
  readonly provider?: ServiceId;
}
