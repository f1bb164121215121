/**
 * The ledger's sums: per unit (never two units in one sum), for the whole selection and by the
 * user's local day, local month and service. Estimates count, and are also summed apart so the
 * reader sees how much of a total is Pictor's guess.
 *
 * They come from SQL aggregates (history/ledger-sums.ts), never from reading every task: the
 * query's span is cut into pieces of local days (local-day-pieces.ts), the history sums each
 * piece per service and unit, and this folds those few rows into the totals the Costs screen and
 * `pictor costs` show. The built-in demo's tasks are free (cost-book.ts): they add to no sum,
 * so a query of the demo's alone (service-id.ts) has none to read.
 */
import type { LedgerQuery, LedgerTotals, UnitTotal } from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import { DEMO_SERVICE_ID } from '../../../shared/domain/service-id';
import type { CostUnit } from '../../../shared/domain/task-cost';
import type { CostTables, DaySum, ServiceSum } from '../history';
import { dayName, dayPieces } from './local-day-pieces';

interface Sum {
  micros: number;
  estimatedMicros: number;
  tasks: number;
}

/** Sums keyed by a group (a day, a month, a service) and a unit, sorted by group then unit. */
class Sums<G extends string> {
  private readonly sums = new Map<string, { group: G; unit: CostUnit; sum: Sum }>();

  add(group: G, unit: CostUnit, sum: Readonly<Sum>): void {
    const key = `${group}\u0000${unit}`;
    let entry = this.sums.get(key);
    if (entry === undefined) {
      entry = { group, unit, sum: { micros: 0, estimatedMicros: 0, tasks: 0 } };
      this.sums.set(key, entry);
    }
    entry.sum.micros += sum.micros;
    entry.sum.estimatedMicros += sum.estimatedMicros;
    entry.sum.tasks += sum.tasks;
  }

  list(): { group: G; total: UnitTotal }[] {
    return [...this.sums.values()]
      .sort((a, b) => a.group.localeCompare(b.group) || a.unit.localeCompare(b.unit))
      .map(({ group, unit, sum }) => ({ group, total: { unit, ...sum } }));
  }
}

/** The totals of a query, and how many of the ledger's tasks it matched. */
export interface LedgerSummary {
  readonly totals: LedgerTotals;
  readonly tasks: number;
}

/**
 * Folds the history's sums per local day and unit, and per service and unit, into the ledger's
 * totals.
 */
function totalsOf(
  perDay: readonly DaySum[],
  perService: readonly ServiceSum[],
  timeZone: string,
): LedgerSummary {
  const overall = new Sums<''>();
  const days = new Sums<string>();
  const services = new Sums<ProviderId>();
  let unknownTasks = 0;
  let tasks = 0;
  for (const row of perDay) {
    tasks += row.tasks;
    unknownTasks += row.unknownTasks;
    // A block whose tasks all changed unit keeps a row of zeros: it counts nothing.
    if (row.unit === null || row.tasks === 0) continue;
    overall.add('', row.unit, row);
    days.add(dayName(row.day), row.unit, row);
  }
  for (const row of perService) {
    if (row.unit !== null && row.tasks > 0) services.add(row.provider, row.unit, row);
  }
  const byDay = days.list();
  const totals = {
    timeZone,
    overall: overall.list().map(({ total }) => total),
    byDay: byDay.map(({ group, total }) => ({ day: group, ...total })),
    byMonth: monthsOf(byDay),
    byService: services.list().map(({ group, total }) => ({ provider: group, ...total })),
    unknownTasks,
  };
  return { totals, tasks };
}

/** The totals of `query` in `timeZone`, by SQL aggregate over the query's span of time. */
export function ledgerSummary(
  tables: Pick<CostTables, 'span' | 'daySums' | 'serviceSums'>,
  query: LedgerQuery,
  timeZone: string,
): LedgerSummary {
  const span = tables.span(query);
  if (span === null || query.provider === DEMO_SERVICE_ID) return totalsOf([], [], timeZone);
  const { first, last } = span;
  const pieces = dayPieces(first, last + 1, timeZone);
  const perDay = tables.daySums(pieces, query.provider);
  return totalsOf(perDay, tables.serviceSums(first, last + 1, query.provider), timeZone);
}

/** The sums {@link ledgerSummary} reads, read elsewhere (the history worker: history-port.ts). */
export type LedgerSumsRead = (read: {
  pieces: ReturnType<typeof dayPieces>;
  from: number;
  to: number;
  provider?: ProviderId;
}) => Promise<{ days: DaySum[]; services: ServiceSum[] }>;

/** {@link ledgerSummary} with its sums read by `sums` (off main's thread); the rest as there. */
export async function ledgerSummaryOf(
  tables: Pick<CostTables, 'span'>,
  sums: LedgerSumsRead,
  query: LedgerQuery,
  timeZone: string,
): Promise<LedgerSummary> {
  const span = tables.span(query);
  if (span === null || query.provider === DEMO_SERVICE_ID) return totalsOf([], [], timeZone);
  const { first, last } = span;
  const pieces = dayPieces(first, last + 1, timeZone);
  const read = { pieces, from: first, to: last + 1 };
  const { days, services } = await sums(
    query.provider === undefined ? read : { ...read, provider: query.provider },
  );
  return totalsOf(days, services, timeZone);
}

/** The months' totals from the days' (a local month is its local days), in the days' order. */
export function monthsOf(
  byDay: readonly { group: string; total: UnitTotal }[],
): (UnitTotal & { month: string })[] {
  const months = new Map<string, UnitTotal & { month: string }>();
  for (const { group, total } of byDay) {
    const month = group.slice(0, 7);
    const key = `${month}\u0000${total.unit}`;
    const before = months.get(key);
    months.set(key, {
      month,
      unit: total.unit,
      micros: (before?.micros ?? 0) + total.micros,
      estimatedMicros: (before?.estimatedMicros ?? 0) + total.estimatedMicros,
      tasks: (before?.tasks ?? 0) + total.tasks,
    });
  }
  return [...months.values()];
}
