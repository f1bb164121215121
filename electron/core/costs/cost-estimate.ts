/**
 * What a task will cost by the user's prices: the price of its service and model (or of the
 * service's every-model price), per image (Pictor asks each service for one image per task) or
 * per megapixel of the size asked for. No price, or a megapixel price without a size: unknown.
 */
import type { CostPrice } from '../../../shared/domain/cost-ledger';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import {
  MAX_TASK_COST_MICROS,
  UNKNOWN_COST,
  type TaskCost,
} from '../../../shared/domain/task-cost';
import type { GenerationRequest } from '../../../shared/service/wire';
import { SIZE_PATTERN } from '../../../shared/service/wire';

/** The price that applies to a request on `provider`, if the user set one. */
function priceFor(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: Pick<GenerationRequest, 'model'>,
): CostPrice | undefined {
  const model = request.model?.trim() || PROVIDERS[provider].defaultModel || '';
  const own = prices.filter((price) => price.provider === provider);
  return own.find((price) => price.model === model) ?? own.find((price) => price.model === '');
}

export function estimateCost(
  prices: readonly CostPrice[],
  provider: ProviderId,
  request: Pick<GenerationRequest, 'model' | 'size'>,
): TaskCost {
  const price = priceFor(prices, provider, request);
  if (price === undefined) return UNKNOWN_COST;
  const { unit, basis } = price;
  if (basis === 'image') return { source: 'estimated', micros: price.micros, unit, basis };
  const size = SIZE_PATTERN.exec(request.size ?? '');
  if (!size) return UNKNOWN_COST;
  const megapixels = (Number(size[1]) * Number(size[2])) / 1_000_000;
  const micros = Math.min(MAX_TASK_COST_MICROS, Math.round(price.micros * megapixels));
  return { source: 'estimated', micros, unit, basis };
}
