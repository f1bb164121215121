/**
 * The `costs:` channels of the in-memory `window.pictor` (fake-pictor-api.ts): the ledger of the
 * fake's tasks (their `cost`, days in UTC) a page at a time, prices and caps kept in memory, a
 * preview a test sets, and an export that "saves" where `savedTo` says. Main's ledger says when it
 * changed (`costs:changed`); here a test says so with {@link FakeCosts.changed}. Browser-safe:
 * imports only shared/.
 */
import type { CostPrice, SpendingCap } from '../../shared/domain/cost-ledger';
import { providerOf, type ProviderId } from '../../shared/domain/providers';
import { countedCost, type CostUnit } from '../../shared/domain/task-cost';
import type { TaskRecord } from '../../shared/domain/task-record';
import type { RequestChannel, RequestInput, RequestOutput } from '../../shared/ipc/contract';
import {
  LEDGER_PAGE,
  type CostLedger,
  type CostLedgerCursor,
  type CostLedgerEntry,
  type CostLedgerPage,
  type CostPreviewAnswer,
} from '../../shared/ipc/cost-contract';

type CostChannel = Extract<RequestChannel, `costs:${string}`>;
type CostHandlers = {
  [C in CostChannel]: (input: RequestInput<C>) => RequestOutput<C>;
};

interface Sum {
  unit: CostUnit;
  micros: number;
  estimatedMicros: number;
  tasks: number;
}

/** Sums per group and unit, sorted by group then unit. */
function sums<K extends string>(
  rows: readonly { group: K; unit: CostUnit; micros: number; estimated: boolean }[],
): (Sum & { group: K })[] {
  const byKey = new Map<string, Sum & { group: K }>();
  for (const row of rows) {
    const key = `${row.group}\u0000${row.unit}`;
    const sum = byKey.get(key) ?? {
      group: row.group,
      unit: row.unit,
      micros: 0,
      estimatedMicros: 0,
      tasks: 0,
    };
    sum.micros += row.micros;
    if (row.estimated) sum.estimatedMicros += row.micros;
    sum.tasks += 1;
    byKey.set(key, sum);
  }
  return [...byKey.values()].sort(
    (a, b) => a.group.localeCompare(b.group) || a.unit.localeCompare(b.unit),
  );
}

export class FakeCosts {
  prices: CostPrice[] = [];
  caps: SpendingCap[] = [];
  /** What each cap's period has spent, by `period/unit/provider` (0 when absent). */
  spent = new Map<string, number>();
  /** What `costs:preview` answers (unknown cost, no cap speaking, unless a test sets it). */
  preview: CostPreviewAnswer = { perTask: { source: 'unknown' }, count: 1, caps: [] };
  /**
   * Tasks the ledger keeps after the history lost them (the fake's own tasks are the rest): a
   * test puts a removed task here.
   */
  removed: CostLedgerEntry[] = [];
  /** Where `costs:exportCsv` says it saved (null: the user cancelled). */
  savedTo: string | null = '/home/ada/Downloads/pictor-costs.csv';

  /** The ledger's version (`costs:changed` carries it). */
  version = 1;

  constructor(
    private readonly tasks: () => readonly TaskRecord[],
    private readonly announce: (version: number) => void,
  ) {}

  /** Main's ledger changed (a cost reported, a task removed…): `costs:changed` is sent. */
  changed(): void {
    this.version += 1;
    this.announce(this.version);
  }

  /** The query's entries, newest first, after `after`: a page of `limit` and where the next starts. */
  private page(
    entries: readonly CostLedgerEntry[],
    limit: number,
    after?: CostLedgerCursor,
  ): CostLedgerPage {
    const older = (entry: CostLedgerEntry): boolean =>
      after === undefined ||
      entry.createdAt < after.createdAt ||
      (entry.createdAt === after.createdAt && entry.localId < after.localId);
    const rest = entries.filter(older);
    const shown = rest.slice(0, limit);
    const last = shown.at(-1);
    const next =
      rest.length > limit && last ? { createdAt: last.createdAt, localId: last.localId } : null;
    return { entries: shown, next };
  }

  private matching(query: RequestInput<'costs:ledger'>): CostLedgerEntry[] {
    return this.all()
      .filter((entry) => query.provider === undefined || entry.provider === query.provider)
      .filter((entry) => query.since === undefined || entry.createdAt >= query.since)
      .filter((entry) => query.until === undefined || entry.createdAt < query.until)
      .sort((a, b) => b.createdAt - a.createdAt || (a.localId < b.localId ? 1 : -1));
  }

  /** Every task of the ledger: the fake's tasks with a cost, and the removed ones. */
  private all(): CostLedgerEntry[] {
    const listed = this.tasks()
      .filter((record) => record.cost !== undefined)
      .map((record) => ({
        localId: record.localId,
        taskId: record.taskId,
        provider: providerOf(record),
        model: record.request.model ?? null,
        prompt: record.request.prompt,
        status: record.status,
        createdAt: record.createdAt,
        cost: record.cost ?? { source: 'unknown' as const },
        inHistory: true,
        thumbnail: record.images.find((image) => image.thumbnail)?.thumbnail ?? null,
      }));
    return [...listed, ...this.removed];
  }

  ledger(query: RequestInput<'costs:ledger'>): CostLedger {
    const entries = this.matching(query);
    const counted = entries.flatMap((entry) => {
      const cost = countedCost(entry.cost);
      if (!cost) return [];
      const day = new Date(entry.createdAt).toISOString().slice(0, 10);
      const estimated = cost.source === 'estimated';
      return [{ entry, day, unit: cost.unit, micros: cost.micros, estimated }];
    });
    const byDay = sums(counted.map((row) => ({ ...row, group: row.day })));
    return {
      ...this.page(entries, query.limit ?? LEDGER_PAGE),
      total: entries.length,
      allTime: this.all().length,
      version: this.version,
      caps: this.standings(),
      totals: {
        timeZone: 'UTC',
        overall: sums(counted.map((row) => ({ ...row, group: '' }))).map(
          ({ group: _g, ...s }) => s,
        ),
        byDay: byDay.map(({ group, ...sum }) => ({ ...sum, day: group })),
        byMonth: sums(counted.map((row) => ({ ...row, group: row.day.slice(0, 7) }))).map(
          ({ group, ...sum }) => ({ ...sum, month: group }),
        ),
        byService: sums(
          counted.map((row) => ({ ...row, group: row.entry.provider as ProviderId })),
        ).map(({ group, ...sum }) => ({ ...sum, provider: group })),
        unknownTasks: entries.filter((entry) => entry.cost.source === 'unknown').length,
      },
    };
  }

  private standings(): RequestOutput<'costs:caps'> {
    return this.caps.map((cap) => ({
      cap,
      spentMicros: this.spent.get(`${cap.period}/${cap.unit}/${cap.provider ?? ''}`) ?? 0,
      pricedTodayMicros: 0,
      pricedTodayTasks: 0,
      uncountedTasks: 0,
    }));
  }

  readonly handlers: CostHandlers = {
    'costs:ledger': (query) => this.ledger(query),
    'costs:entries': ({ after, limit, ...query }) => this.page(this.matching(query), limit, after),
    'costs:exportCsv': () => ({ savedTo: this.savedTo }),
    'costs:prices': () => this.prices,
    'costs:setPrice': (price) => {
      const same = (p: CostPrice) =>
        p.provider === price.provider && p.model === price.model && p.unit === price.unit;
      this.prices = [...this.prices.filter((p) => !same(p)), price];
      return this.prices;
    },
    'costs:clearPrice': ({ provider, model, unit }) => {
      const gone = (p: CostPrice) =>
        p.provider === provider && p.model === (model ?? '') && (!unit || p.unit === unit);
      this.prices = this.prices.filter((p) => !gone(p));
      return this.prices;
    },
    'costs:caps': () => this.standings(),
    'costs:setCap': (cap) => {
      this.caps = [...this.caps.filter((c) => !sameCap(c, cap)), cap];
      return this.standings();
    },
    'costs:clearCap': (key) => {
      this.caps = this.caps.filter((c) => !sameCap(c, key));
      return this.standings();
    },
    'costs:preview': ({ count }) => ({ ...this.preview, count }),
  };
}

function sameCap(a: Omit<SpendingCap, 'micros'>, b: Omit<SpendingCap, 'micros'>): boolean {
  return (
    a.period === b.period && a.unit === b.unit && a.provider === b.provider && a.kind === b.kind
  );
}
