/**
 * The command lines of `costs`, `caps` and `prices`, checked before the library is opened:
 * amounts as people type them within the bounds every layer shares (shared/domain/cost-amounts.ts),
 * units Pictor knows, periods `day` or `month`. A bad value is a UsageError (exit 2) whose sentence
 * names the value and what is allowed, never a schema's words.
 */
import { commandHelp } from './command-help';
import type { CapPeriod } from '../../shared/domain/cost-ledger';
import { CAP_PERIODS } from '../../shared/domain/cost-ledger';
import type { ProviderId } from '../../shared/domain/providers';
import { DEMO_SERVICE_ID, type ServiceId } from '../../shared/domain/service-id';
import {
  CREDIT_UNITS,
  CURRENCY_CODES,
  PRICE_BASES,
  readCostUnit,
  type CostUnit,
  type PriceBasis,
} from '../../shared/domain/task-cost';
import { COST_BOUNDS } from '../../shared/domain/cost-amounts';
import { UsageError } from '../core/command-line';
import { isTimeZone } from '../core/costs';
import { amountOf, quotedValue } from './cost-amount-args';

/** What a cost command reads from its options and the library it works on. */
interface CostOptions {
  readonly dataDir: string;
  readonly json: boolean;
  /** --time-zone, else the host's. */
  readonly timeZone: string | null;
}

export type CostCommand =
  | {
      readonly name: 'costs';
      readonly format: 'text' | 'json' | 'csv';
      /** `YYYY-MM-DD`, the user's local date (checked against the time zone when run). */
      readonly since: string | null;
      /** --provider: a provider's tasks, or the built-in demo's (`demo`); null: every task. */
      readonly provider: ServiceId | null;
      readonly options: CostOptions;
    }
  | { readonly name: 'caps'; readonly action: 'list'; readonly options: CostOptions }
  | {
      readonly name: 'caps';
      readonly action: 'set';
      readonly period: CapPeriod;
      readonly micros: number;
      readonly unit: CostUnit;
      readonly provider: ProviderId | null;
      readonly kind: 'soft' | 'hard';
      readonly options: CostOptions;
    }
  | {
      readonly name: 'caps';
      readonly action: 'clear';
      readonly period?: CapPeriod;
      readonly unit?: CostUnit;
      /** Absent: caps of every scope; null: the caps over all services only. */
      readonly provider?: ProviderId | null;
      readonly kind?: 'soft' | 'hard';
      readonly options: CostOptions;
    }
  | { readonly name: 'prices'; readonly action: 'list'; readonly options: CostOptions }
  | {
      readonly name: 'prices';
      readonly action: 'set';
      readonly provider: ProviderId;
      readonly model: string;
      readonly micros: number;
      readonly unit: CostUnit;
      readonly basis: PriceBasis;
      readonly options: CostOptions;
    }
  | {
      readonly name: 'prices';
      readonly action: 'clear';
      readonly provider: ProviderId;
      readonly model: string;
      /** Only the price in this unit; absent: the model's prices in every unit. */
      readonly unit?: CostUnit;
      readonly options: CostOptions;
    };

/** The raw option values a cost command reads (cli-args.ts parses them). */
export interface CostValues {
  readonly since?: string | undefined;
  readonly csv?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly period?: string | undefined;
  readonly amount?: string | undefined;
  readonly unit?: string | undefined;
  readonly model?: string | undefined;
  readonly per?: string | undefined;
  readonly soft?: boolean | undefined;
  readonly hard?: boolean | undefined;
  readonly 'time-zone'?: string | undefined;
}

export interface CostCommandLine {
  readonly name: 'costs' | 'caps' | 'prices';
  readonly rest: readonly string[];
  readonly values: CostValues;
  readonly dataDir: string;
  /** --provider, checked (`demo` for costs only: service-args.ts serviceOption). */
  readonly provider: ServiceId | null;
}

/** --provider of caps and prices: a real service's (the demo is free, and has neither). */
function realProvider(line: CostCommandLine): ProviderId | null {
  if (line.provider !== DEMO_SERVICE_ID) return line.provider;
  throw new UsageError(`${line.name} is about real services: the built-in demo is free.`);
}

const UNITS = [...CURRENCY_CODES, ...CREDIT_UNITS].join(', ');

function unitOf(raw: string | undefined): CostUnit {
  const unit = readCostUnit(raw);
  if (unit !== undefined) return unit;
  throw new UsageError(
    raw === undefined
      ? `--unit takes one of: ${UNITS}.`
      : `--unit ${quotedValue(raw)} is not a unit Pictor knows: it takes one of ${UNITS}.`,
  );
}

/** --model of a price: '' for every model; never longer than a price's model may be. */
function modelOf(raw: string | undefined): string {
  const model = raw?.trim() ?? '';
  if (model.length > COST_BOUNDS.model)
    throw new UsageError(
      `--model is ${model.length} characters long; a price's model name takes at most ${COST_BOUNDS.model}.`,
    );
  return model;
}

function periodOf(raw: string | undefined): CapPeriod {
  const period = CAP_PERIODS.find((name) => name === raw?.trim());
  if (period === undefined)
    throw new UsageError(
      raw === undefined
        ? '--period takes day or month.'
        : `--period ${quotedValue(raw)} is not day or month.`,
    );
  return period;
}

function optionsOf(line: CostCommandLine): CostOptions {
  const zone = line.values['time-zone']?.trim() || null;
  if (zone !== null && !isTimeZone(zone))
    throw new UsageError('--time-zone takes a time zone name, such as Europe/Berlin or UTC.');
  return { dataDir: line.dataDir, json: line.values.json ?? false, timeZone: zone };
}

function actionOf(line: CostCommandLine): 'list' | 'set' | 'clear' {
  const [action, ...extra] = line.rest;
  if (extra.length > 0 || (action !== 'list' && action !== 'set' && action !== 'clear'))
    throw new UsageError(`${line.name} takes list, set or clear.`);
  return action;
}

function parseCaps(line: CostCommandLine, options: CostOptions): CostCommand {
  const { values } = line;
  const action = actionOf(line);
  if (values.soft && values.hard) throw new UsageError('A cap is --soft or --hard, not both.');
  if (action === 'list') return { name: 'caps', action, options };
  if (action === 'set') {
    const kind = values.soft ? 'soft' : 'hard';
    const period = periodOf(values.period);
    const unit = unitOf(values.unit);
    const micros = amountOf(values.amount, unit, 'cap');
    return {
      name: 'caps',
      action,
      period,
      micros,
      unit,
      provider: realProvider(line),
      kind,
      options,
    };
  }
  return {
    name: 'caps',
    action,
    options,
    ...(values.period === undefined ? {} : { period: periodOf(values.period) }),
    ...(values.unit === undefined ? {} : { unit: unitOf(values.unit) }),
    ...(line.provider === null ? {} : { provider: realProvider(line) }),
    ...(values.soft ? { kind: 'soft' as const } : values.hard ? { kind: 'hard' as const } : {}),
  };
}

function parsePrices(line: CostCommandLine, options: CostOptions): CostCommand {
  const { values } = line;
  const action = actionOf(line);
  if (action === 'list') return { name: 'prices', action, options };
  const provider = realProvider(line);
  if (provider === null) throw new UsageError(`prices ${action} needs --provider ID.`);
  const model = modelOf(values.model);
  if (action === 'clear') {
    const unit = values.unit === undefined ? {} : { unit: unitOf(values.unit) };
    return { name: 'prices', action, provider, model, ...unit, options };
  }
  const basis = PRICE_BASES.find((name) => name === (values.per?.trim() ?? 'image'));
  if (basis === undefined)
    throw new UsageError(`--per ${quotedValue(values.per ?? '')} is not image or megapixel.`);
  const unit = unitOf(values.unit);
  const micros = amountOf(values.amount, unit, 'price');
  return { name: 'prices', action, provider, model, micros, unit, basis, options };
}

export function parseCostCommand(line: CostCommandLine): CostCommand {
  const options = optionsOf(line);
  if (line.name === 'caps') return parseCaps(line, options);
  if (line.name === 'prices') return parsePrices(line, options);
  if (line.rest.length > 0) throw new UsageError('costs takes no argument besides its options.');
  const since = line.values.since?.trim() || null;
  if (since !== null && !/^\d{4}-\d{2}-\d{2}$/.test(since))
    throw new UsageError('--since takes a date as YYYY-MM-DD.');
  const format = line.values.csv ? 'csv' : options.json ? 'json' : 'text';
  return { name: 'costs', format, since, provider: line.provider, options };
}

/** How the help shows the cost commands. */
export const COST_HELP = {
  costs: commandHelp(
    'costs [--since YYYY-MM-DD] [--provider ID] [--json | --csv] [--time-zone TZ]\n                                  what tasks cost: each task with its source, totals per unit by\n                                  local day, month and service; --csv writes the ledger as CSV',
    ['library'],
  ),
  caps: commandHelp(
    'caps list [--json] | set --period day|month --amount N --unit UNIT [--provider ID] [--soft]\n                                  | clear [--period P] [--unit U] [--provider ID] [--soft|--hard]\n                                  spending caps the app and every command keep (hard: a submit\n                                  over it is refused, exit 6; soft: a warning)',
    ['library'],
  ),
  prices: commandHelp(
    'prices list [--json] | set --provider ID [--model M] --amount N --unit UNIT [--per image|megapixel]\n                                  | clear --provider ID [--model M] [--unit U]   what Pictor\n                                  estimates a task with when its service does not say what it\n                                  cost; one price per service, model and unit (money and\n                                  credits), so a cap in either unit can count its tasks',
    ['library'],
  ),
} as const;
