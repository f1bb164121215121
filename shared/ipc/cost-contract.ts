/**
 * The `costs:` requests and event: the cost ledger (core/costs) as the window reads it: the
 * totals of a period and service and its entries a page at a time, its CSV saved where main's
 * own dialog says, the user's prices and spending caps (set, raised or cleared only by these
 * explicit requests), and what a submit would cost with the caps' verdict; `costs:changed` says
 * when any of it changed (the window reads again, instead of on every task update). Everything
 * the page sends is bounded here; main never writes to a path the page names.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { costPriceSchema, spendingCapSchema } from '../domain/cost-ledger';
import {
  MAX_MISSING_PRICES,
  MAX_PATH_CHARS,
  REQUEST_LIMITS,
  TASKS_PER_SUBMIT,
  dateMsSchema,
} from '../domain/limits';
import { providerIdSchema } from '../domain/providers';
import { serviceIdSchema } from '../domain/service-id';
import { submitTargetSchema } from '../domain/submit-target';
import { costUnitSchema, taskCostSchema } from '../domain/task-cost';
import { pageRequestSchema } from '../service/wire';
import { localIdSchema } from './task-item';

/** Most ledger entries one answer carries; totals count every entry of the query. */
export const MAX_LEDGER_ENTRIES = 500;
/** Entries the Costs screen asks for at a time (its first page, and each "Show more"). */
export const LEDGER_PAGE = 100;

const count = lazySchema(() => z.number().int().min(0));
const micros = lazySchema(() => z.number().int().min(0));

/** Which tasks the ledger reads: created from `since` (inclusive) to `until` (exclusive). */
const ledgerQuerySchema = lazySchema(() =>
  z
    .object({
      since: dateMsSchema().optional(),
      until: dateMsSchema().optional(),
      /** A provider's, or `demo` (shared/domain/service-id.ts). */
      provider: serviceIdSchema().optional(),
    })
    .strict(),
);

const ledgerEntrySchema = lazySchema(() =>
  z.object({
    localId: z.string(),
    taskId: z.string().nullable(),
    provider: providerIdSchema(),
    model: z.string().nullable(),
    /** The prompt as submitted (kept by the ledger after the task leaves the history). */
    prompt: z.string().max(REQUEST_LIMITS.prompt),
    status: z.string(),
    createdAt: z.number(),
    cost: taskCostSchema(),
    /** The history still lists the task, so the window can open it. */
    inHistory: z.boolean(),
    /** A task of the built-in demo (by its endpoint). */
    demo: z.literal(true).optional(),
    /** Its first saved image's thumbnail (a gallery path), when the history lists one. */
    thumbnail: z.string().max(MAX_PATH_CHARS).nullable(),
  }),
);
export type CostLedgerEntry = z.infer<ReturnType<typeof ledgerEntrySchema>>;

const unitTotal = lazySchema(() => ({
  unit: costUnitSchema(),
  micros: micros(),
  estimatedMicros: micros(),
  tasks: count(),
}));

const ledgerTotalsSchema = lazySchema(() =>
  z.object({
    timeZone: z.string(),
    overall: z.array(z.object(unitTotal())),
    byDay: z.array(z.object({ ...unitTotal(), day: z.string() })),
    byMonth: z.array(z.object({ ...unitTotal(), month: z.string() })),
    byService: z.array(z.object({ ...unitTotal(), provider: providerIdSchema() })),
    unknownTasks: count(),
  }),
);

/**
 * Where a page of entries starts: after this entry, by the time it lists at (as in the gallery)
 * and its local id (newest first: the one before is newer).
 */
const ledgerCursorSchema = lazySchema(() =>
  z.object({ listedAt: dateMsSchema(), localId: localIdSchema() }).strict(),
);
export type CostLedgerCursor = z.infer<ReturnType<typeof ledgerCursorSchema>>;

const pageLimit = lazySchema(() => z.number().int().min(1).max(MAX_LEDGER_ENTRIES));

const ledgerPageSchema = lazySchema(() =>
  z.object({
    /** Entries, newest first (at most {@link MAX_LEDGER_ENTRIES}). */
    entries: z.array(ledgerEntrySchema()).max(MAX_LEDGER_ENTRIES),
    /** Where the next page starts; null: no more. */
    next: ledgerCursorSchema().nullable(),
  }),
);

/**
 * A cap with what its period has cost so far, in its unit (core/costs/cap-spend.ts: the same
 * figure `pictor caps list`, `pictor costs` and every refusal give): of it, tasks admitted with no
 * price in the unit counted at today's price; and how many tasks it cannot count at all.
 */
const capStandingSchema = lazySchema(() =>
  z.object({
    cap: spendingCapSchema(),
    spentMicros: micros(),
    pricedTodayMicros: micros(),
    pricedTodayTasks: count(),
    uncountedTasks: count(),
  }),
);
export type CapStanding = z.infer<ReturnType<typeof capStandingSchema>>;

const ledgerSchema = lazySchema(() =>
  ledgerPageSchema().extend({
    /** Every cap with what its period has spent: the same figures as Settings and the refusals. */
    caps: z.array(capStandingSchema()).max(100),
    /** How many entries the query matched. */
    total: count(),
    totals: ledgerTotalsSchema(),
    /** How many tasks the whole ledger holds, whatever the query (0: nothing was ever priced). */
    allTime: count(),
    /** The ledger's version when read: a `costs:changed` with another one means read again. */
    version: count(),
  }),
);
export type CostLedger = z.infer<ReturnType<typeof ledgerSchema>>;

const priceKey = lazySchema(() =>
  z
    .object({
      provider: providerIdSchema(),
      model: z.string().trim().max(REQUEST_LIMITS.model).optional(),
      /** Only the price in this unit; absent: the model's prices in every unit. */
      unit: costUnitSchema().optional(),
    })
    .strict(),
);

const capKey = lazySchema(() => spendingCapSchema().omit({ micros: true }).strict());

/**
 * What one cap says of the submit, as data the window words in time and in its language (a
 * forecast, not main's refusal sentence, which comes only with a refused submit): the cap, what
 * its period has spent and what the submit adds, in the cap's unit (core/costs/cap-check.ts).
 */
export const capForecastSchema = lazySchema(() =>
  z.object({
    cap: spendingCapSchema(),
    /** over: it would pass the cap; unpriced: no price to count it in the cap's unit; unpricedSpent: the cap cannot count tasks of its period. */
    verdict: z.enum(['over', 'unpriced', 'unpricedSpent']),
    spentMicros: micros(),
    addingMicros: micros(),
    /** unpriced: the submit's service; unpricedSpent: the first service the cap cannot count. */
    service: providerIdSchema(),
    /** unpriced: the model without a price ('' : none named). */
    model: z.string().max(REQUEST_LIMITS.model),
    /** unpricedSpent: how many tasks of the period the cap cannot count. */
    tasks: count(),
    /**
     * A hard cap: every price it lacks to count this submit (`of: submit`) or its period's tasks
     * (`of: period`), whatever its verdict: the refusal says the cap first, then these.
     */
    missing: z
      .array(
        z.object({
          service: providerIdSchema(),
          model: z.string().max(REQUEST_LIMITS.model),
          tasks: count(),
          of: z.enum(['submit', 'period']),
        }),
      )
      .max(MAX_MISSING_PRICES),
  }),
);
export type CapForecast = z.infer<ReturnType<typeof capForecastSchema>>;
/** A price a hard cap lacks (see {@link capForecastSchema}'s `missing`). */
export type MissingPrice = Readonly<CapForecast['missing'][number]>;
/** A cap's word as main's core keeps it: {@link CapForecast}, read-only. */
export type CapWord = Readonly<Omit<CapForecast, 'missing'>> & {
  readonly missing: readonly MissingPrice[];
};

const previewSchema = lazySchema(() =>
  z.object({
    perTask: taskCostSchema(),
    count: count(),
    /** Every cap with a word to say, hard ones first (a hard one: the submit will be refused). */
    caps: z.array(capForecastSchema()).max(100),
  }),
);
export type CostPreviewAnswer = z.infer<ReturnType<typeof previewSchema>>;

export const costRequests = {
  /** The query's totals and its newest `limit` entries (default {@link LEDGER_PAGE}). */
  'costs:ledger': channel(() => ({
    input: ledgerQuerySchema().extend({ limit: pageLimit().optional() }).strict(),
    output: ledgerSchema(),
  })),
  /** The query's `limit` entries after `after`, newest first: the Costs screen's "Show more". */
  'costs:entries': channel(() => ({
    input: ledgerQuerySchema().extend({ after: ledgerCursorSchema(), limit: pageLimit() }).strict(),
    output: ledgerPageSchema(),
  })),
  /**
   * The ledger of the query as CSV, written to the file main's own save dialog returns
   * (`savedTo` null: the user cancelled). The page never names a path.
   */
  'costs:exportCsv': channel(() => ({
    input: ledgerQuerySchema(),
    output: z.object({ savedTo: z.string().nullable() }),
  })),
  'costs:prices': channel(() => ({ input: z.undefined(), output: z.array(costPriceSchema()) })),
  /** Sets (or replaces) the price of a service and model; answers every price. */
  'costs:setPrice': channel(() => ({
    input: costPriceSchema().strict(),
    output: z.array(costPriceSchema()),
  })),
  'costs:clearPrice': channel(() => ({ input: priceKey(), output: z.array(costPriceSchema()) })),
  'costs:caps': channel(() => ({ input: z.undefined(), output: z.array(capStandingSchema()) })),
  /** Sets, raises or lowers a cap: only ever the user's own action in Settings. */
  'costs:setCap': channel(() => ({
    input: spendingCapSchema().strict(),
    output: z.array(capStandingSchema()),
  })),
  'costs:clearCap': channel(() => ({ input: capKey(), output: z.array(capStandingSchema()) })),
  /**
   * What `count` tasks of `request` on the service `target` names would cost, and the caps'
   * verdict (no write): the same target the submit would carry (the compose form's service).
   */
  'costs:preview': channel(() => ({
    input: z
      .object({
        target: submitTargetSchema(),
        request: pageRequestSchema(),
        count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max),
      })
      .strict(),
    output: previewSchema(),
  })),
} as const;

/** The cost events' schemas, each built when first read (contract.ts's `events`). */
export const costEvents = {
  /**
   * Something the window shows of costs changed (a cost, an estimate, a task joining the ledger
   * or leaving the history, a thumbnail, a price, a cap), here or in another Pictor process: at
   * most four a second. Only the ledger's version travels; the window reads what it shows.
   */
  'costs:changed': () => z.object({ version: count() }),
} as const;
