/**
 * `costs`, `caps` and `prices`: the cost ledger, the spending caps and the prices the app also
 * uses, read and set on the library's history alone (no gallery, no network, no key). Every line
 * leaves through terminalSafe or jsonSafe: task ids and model names come from services. Money
 * reads as everywhere else (shared/i18n/money.ts, in English: `$0.04`, `3 credits`); `--json`
 * keeps plain decimals with their unit.
 */
import type { LedgerTotals, UnitTotal } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import { DEMO_SERVICE_ID, ledgerServiceOf } from '../../shared/domain/service-id';
import { countedCost, formatMicros, type CostUnit } from '../../shared/domain/task-cost';
import { englishMoney } from '../../shared/i18n/sentence';
import { UsageError } from '../core/command-line';
import { join } from 'node:path';
import {
  type CapStanding,
  CostBook,
  type CostLedgerRead,
  csvHeader,
  csvRow,
  hostTimeZone,
  parseLocalDate,
  type PricedEntry,
} from '../core/costs';
import { ensurePrivateFolder } from '../core/fs';
import { HISTORY_FILE, HistoryStore } from '../core/history';
import type { CostCommand } from './cost-args';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { jsonSafe, terminalLines, terminalSafe } from './terminal-text';
import { costJson } from './cost-json';

/**
 * The cost book of the library in `dataDir` over its history alone (no core: no gallery, no
 * network, no key). `close` closes the history.
 */
async function openCostBook(
  dataDir: string,
  timeZone: string,
): Promise<{ readonly costs: CostBook; close(): void }> {
  await ensurePrivateFolder(dataDir);
  const history = HistoryStore.open(join(dataDir, HISTORY_FILE));
  return { costs: CostBook.overHistory(history, timeZone), close: () => history.close() };
}

export async function runCostCommand(command: CostCommand, io: CliIo): Promise<number> {
  const timeZone = command.options.timeZone ?? hostTimeZone();
  const opened = await openCostBook(command.options.dataDir, timeZone);
  const book = opened.costs;
  try {
    if (command.name === 'costs') return ledger(book, command, io);
    if (command.name === 'caps') return caps(book, command, io);
    return prices(book, command, io);
  } finally {
    opened.close();
  }
}

function ledger(book: CostBook, command: CostCommand & { name: 'costs' }, io: CliIo): number {
  const since = command.since === null ? undefined : parseLocalDate(command.since, book.timeZone);
  if (command.since !== null && since === undefined)
    throw new UsageError(`--since ${command.since} is not a date.`);
  const service = command.provider;
  // The ledger keeps the provider: the demo's tasks are any dialect's (and free), told apart below.
  const provider = service === DEMO_SERVICE_ID ? null : service;
  const query = {
    ...(since === undefined ? {} : { since }),
    ...(provider === null ? {} : { provider }),
  };
  if (command.format === 'csv' && service === null) {
    io.stdout(book.csv(query));
    return EXIT.ok;
  }
  const read = book.ledger(query);
  // One name per service (service-id.ts): a provider's tasks without the demo's, or the demo's.
  const entries = read.entries.filter(
    (entry) => service === null || ledgerServiceOf(entry) === service,
  );
  // The demo's tasks are free: they add to no total, and none waits for a price.
  const demo = service === DEMO_SERVICE_ID;
  const totals = demo ? noTotals(read.totals) : read.totals;
  const pricedToday = demo ? [] : read.pricedToday;
  if (command.format === 'csv') {
    io.stdout(csvHeader() + entries.map((entry) => csvRow(entry, book.timeZone)).join(''));
    return EXIT.ok;
  }
  const standings = book.standings();
  if (command.format === 'json') {
    const tasks = entries.map(({ atTodaysPrice, ...entry }) => ({
      ...entry,
      provider: ledgerServiceOf(entry),
      createdAt: new Date(entry.createdAt).toISOString(),
      cost: costJson(entry.cost),
      // What today's price makes a task of unknown cost: what the caps count it as.
      atTodaysPrice: atTodaysPrice ? costJson(atTodaysPrice) : null,
    }));
    const json = {
      tasks,
      totals: { ...totalsJson(totals), pricedToday: pricedToday.map(pricedJson) },
      caps: standings.map(standingJson),
    };
    io.stdout(`${jsonSafe(JSON.stringify(json))}\n`);
    return EXIT.ok;
  }
  for (const entry of entries) io.stdout(`${entryLine(entry)}\n`);
  io.stdout(terminalLines(totalsLines(totals, pricedToday)));
  if (standings.length > 0)
    io.stdout(
      terminalLines([
        'Caps (as every submit is checked):',
        ...standings.map((one) => `  ${standingLine(one)}`),
      ]),
    );
  return EXIT.ok;
}

function pricedJson(sum: {
  unit: CostUnit;
  micros: number;
  tasks: number;
}): Record<string, unknown> {
  return { unit: sum.unit, amount: formatMicros(sum.micros), tasks: sum.tasks };
}

/** A cap in `--json`: its amount, what its period spent, of it at today's price, what it cannot count. */
function standingJson({
  cap,
  micros,
  pricedToday,
  unpriced,
}: CapStanding): Record<string, unknown> {
  const { micros: amount, ...rest } = cap;
  return {
    ...rest,
    amount: formatMicros(amount),
    spent: formatMicros(micros),
    pricedToday: { amount: formatMicros(pricedToday.micros), tasks: pricedToday.tasks },
    uncountedTasks: unpriced.reduce((sum, group) => sum + group.tasks, 0),
  };
}

/** A cap and what its period spent, the same words in `caps list` and `costs`. */
function standingLine({ cap, micros, pricedToday, unpriced }: CapStanding): string {
  const money = (amount: number): string => englishMoney(amount, cap.unit);
  const notes: string[] = [];
  if (pricedToday.tasks > 0)
    notes.push(
      `${money(pricedToday.micros)} of it for ${pricedToday.tasks} task(s) of unknown cost at today's price`,
    );
  const uncounted = unpriced.reduce((sum, group) => sum + group.tasks, 0);
  if (uncounted > 0)
    notes.push(
      `${uncounted} task(s) it cannot count: no price in ${cap.unit} for ${[...new Set(unpriced.map((group) => group.provider))].join(', ')}`,
    );
  const said = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return `${cap.kind} ${cap.period} cap ${money(cap.micros)} for ${scope(cap.provider)}: ${money(micros)} spent this ${cap.period}${said}`;
}

function noTotals(totals: LedgerTotals): LedgerTotals {
  return { ...totals, overall: [], byDay: [], byMonth: [], byService: [], unknownTasks: 0 };
}

function totalJson(total: UnitTotal): Record<string, string | number> {
  return {
    unit: total.unit,
    amount: formatMicros(total.micros),
    estimated: formatMicros(total.estimatedMicros),
    tasks: total.tasks,
  };
}

function totalsJson(totals: LedgerTotals): Record<string, unknown> {
  return {
    timeZone: totals.timeZone,
    overall: totals.overall.map(totalJson),
    byDay: totals.byDay.map((row) => ({ day: row.day, ...totalJson(row) })),
    byMonth: totals.byMonth.map((row) => ({ month: row.month, ...totalJson(row) })),
    byService: totals.byService.map((row) => ({ provider: row.provider, ...totalJson(row) })),
    unknownTasks: totals.unknownTasks,
  };
}

function entryLine(entry: PricedEntry): string {
  const when = new Date(entry.createdAt).toISOString().replace('T', ' ').slice(0, 19);
  const counted = countedCost(entry.cost) ?? entry.atTodaysPrice;
  const amount = counted ? englishMoney(counted.micros, counted.unit) : '-';
  const { detail } = costJson(entry.cost);
  const source = entry.atTodaysPrice
    ? `${entry.cost.source} (today's price per ${entry.atTodaysPrice.basis})`
    : `${entry.cost.source}${detail ? ` (${detail})` : ''}`;
  return terminalSafe(
    `${when}  ${ledgerServiceOf(entry).padEnd(9)} ${amount.padStart(18)}  ${source.padEnd(34)} ${entry.taskId ?? entry.localId}`,
  );
}

function totalLine(label: string, total: UnitTotal): string {
  const estimated =
    total.estimatedMicros > 0 ? ` (estimated ${formatMicros(total.estimatedMicros)})` : '';
  return `  ${label.padEnd(12)} ${englishMoney(total.micros, total.unit)}${estimated}, ${total.tasks} task(s)`;
}

function totalsLines(totals: LedgerTotals, pricedToday: CostLedgerRead['pricedToday']): string[] {
  const out = [`Totals (local dates in ${totals.timeZone}):`];
  for (const total of totals.overall) out.push(totalLine('all', total));
  for (const row of totals.byMonth) out.push(totalLine(row.month, row));
  for (const row of totals.byDay) out.push(totalLine(row.day, row));
  for (const row of totals.byService) out.push(totalLine(row.provider, row));
  const priced = pricedToday.reduce((sum, one) => sum + one.tasks, 0);
  for (const sum of pricedToday)
    out.push(
      `  ${sum.tasks} task(s) of unknown cost come to ${englishMoney(sum.micros, sum.unit)} at today's price (as the caps count them).`,
    );
  if (totals.unknownTasks > priced)
    out.push(`  ${totals.unknownTasks - priced} task(s) of unknown cost (no report, no price).`);
  return out;
}

function caps(book: CostBook, command: CostCommand & { name: 'caps' }, io: CliIo): number {
  if (command.action === 'set') {
    const { period, unit, provider, kind, micros } = command;
    book.setCap({ period, unit, provider, kind, micros });
    io.stdout(
      `Set the ${kind} ${period} cap: ${englishMoney(micros, unit)} for ${scope(provider)}.\n`,
    );
    return EXIT.ok;
  }
  if (command.action === 'clear') {
    const { period, unit, provider, kind } = command;
    const match = { period, unit, provider, kind };
    io.stdout(`Cleared ${book.clearCaps(match)} cap(s).\n`);
    return EXIT.ok;
  }
  const standings = book.standings();
  if (command.options.json) {
    const json = { timeZone: book.timeZone, caps: standings.map(standingJson) };
    io.stdout(`${jsonSafe(JSON.stringify(json))}\n`);
    return EXIT.ok;
  }
  if (standings.length === 0) io.stdout('No spending caps are set.\n');
  io.stdout(terminalLines(standings.map(standingLine)));
  return EXIT.ok;
}

function scope(provider: ProviderId | null): string {
  return provider === null ? 'all services' : provider;
}

function prices(book: CostBook, command: CostCommand & { name: 'prices' }, io: CliIo): number {
  if (command.action === 'set') {
    const { provider, model, unit, basis, micros } = command;
    book.setPrice({ provider, model, unit, basis, micros });
    io.stdout(
      terminalSafe(
        `Set the price of ${provider}${model ? ` ${model}` : ''}: ${englishMoney(micros, unit)} per ${basis}.`,
      ) + '\n',
    );
    return EXIT.ok;
  }
  if (command.action === 'clear') {
    const cleared = book.clearPrice(command.provider, command.model, command.unit);
    io.stdout(cleared ? 'Cleared the price.\n' : 'There was no such price.\n');
    return EXIT.ok;
  }
  const list = book.prices();
  if (command.options.json) {
    const json = list.map(({ micros, ...price }) => ({ ...price, amount: formatMicros(micros) }));
    io.stdout(`${jsonSafe(JSON.stringify({ prices: json }))}\n`);
    return EXIT.ok;
  }
  if (list.length === 0) io.stdout('No prices are set.\n');
  for (const price of list) {
    const model = price.model || '(every model)';
    io.stdout(
      `${terminalSafe(`${price.provider} ${model}: ${englishMoney(price.micros, price.unit)} per ${price.basis}`)}\n`,
    );
  }
  return EXIT.ok;
}
