/**
 * What a task will cost by the user's prices. A service (and model) may be priced in several
 * units (money and credits): a task has one estimate per priced unit, from its model's own price
 * in that unit or else the service's every-model price in it, per image or per
 * megapixel, times the images one task asks for (one, unless the model's number-of-images option
 * says more). A megapixel is of the size asked for, else of the model's size option or resolution
 * tier (shared/domain/param-pricing.ts). A unit with no price, or a megapixel price without a
 * size, gives no estimate in that unit.
 */
import type { CostPrice } from '../../../shared/domain/cost-ledger';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import {
  MAX_TASK_COST_MICROS,
  UNKNOWN_COST,
  costUnitSchema,
  type CostUnit,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import type { GenerationRequest } from '../../../shared/service/wire';
import { imagesPerTask, megapixelsOf } from '../../../shared/domain/param-pricing';

/** What an estimate reads of a request. */
export type PricedRequest = Pick<GenerationRequest, 'model' | 'size' | 'params'>;

/** Units in the order a task's own estimate is chosen from: money first, then credits. */
const UNIT_ORDER: readonly CostUnit[] = costUnitSchema().options;

/** The model a request is priced as: what it names, else its service's default. */
function modelOf(provider: ProviderId, request: Pick<PricedRequest, 'model'>): string {
  return request.model?.trim() || PROVIDERS[provider].defaultModel || '';
}

/** The price that applies to a request on `provider` in `unit`, if the user set one. */
function priceFor(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: Pick<PricedRequest, 'model'>,
  unit: CostUnit,
): CostPrice | undefined {
  const model = modelOf(provider, request);
  const own = prices.filter((price) => price.provider === provider && price.unit === unit);
  return own.find((price) => price.model === model) ?? own.find((price) => price.model === '');
}

/** The estimate of a request on `provider` in `unit`, or undefined when it has none there. */
export function estimateIn(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: PricedRequest,
  unit: CostUnit,
): Extract<TaskCost, { source: 'estimated' }> | undefined {
  const price = priceFor(prices, provider, request, unit);
  if (price === undefined) return undefined;
  const { basis } = price;
  const images = imagesPerTask(provider, request);
  const megapixels = basis === 'image' ? 1 : megapixelsOf(provider, request);
  if (megapixels === undefined) return undefined;
  const micros = Math.min(MAX_TASK_COST_MICROS, Math.round(price.micros * megapixels * images));
  return { source: 'estimated', micros, unit, basis };
}

/** Every estimate of a request on `provider`, one per priced unit, money first. */
export function estimatesOf(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: PricedRequest,
): TaskCost[] {
  const units = new Set(prices.filter((price) => price.provider === provider).map((p) => p.unit));
  return UNIT_ORDER.filter((unit) => units.has(unit)).flatMap(
    (unit) => estimateIn(prices, provider, request, unit) ?? [],
  );
}

/** A task's own estimate (the first of {@link estimatesOf}), or unknown. */
export function estimateCost(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: PricedRequest,
): TaskCost {
  return estimatesOf(prices, provider, request)[0] ?? UNKNOWN_COST;
}
