/**
 * What a request's own options change in its price (docs/COSTS.md): how many images one task asks
 * for (the model's "number of images" option, else one) and how many megapixels each has (the
 * size asked for, else the model's size option, else its resolution tier: `2K` as 2048 × 2048, a
 * megapixel choice as itself). Read from the model's schema, by the `common` hints
 * (model-params.ts), never by a service's own option names; the core's estimate is the one caller.
 */
import type { ProviderId } from './providers';
import { shippedParamSchema } from './model-param-schemas';
import { commonParam, type CommonParam, type ParamValues } from './model-params';
import { SIZE_PATTERN } from '../service/wire';

/** What the pricing reads of a request. */
interface PricedOptions {
  readonly model?: string | undefined;
  readonly size?: string | undefined;
  readonly params?: ParamValues | undefined;
}

const TIER = /^([1-8])K$/;
const MEGAPIXELS = /^\d{1,2}(\.\d{1,3})?$/;

/** The value of the option with the `common` hint: as the request sets it, else its default. */
function optionValue(
  provider: ProviderId,
  request: PricedOptions,
  common: CommonParam,
): string | number | boolean | undefined {
  const schema = shippedParamSchema(provider, request.model?.trim());
  const name = commonParam(schema, common);
  if (schema === undefined || name === undefined) return undefined;
  const set =
    request.params && Object.hasOwn(request.params, name) ? request.params[name] : undefined;
  return set ?? schema.params[name]?.default;
}

/** Images one task of `request` asks for: the model's number-of-images option, else 1. */
export function imagesPerTask(provider: ProviderId, request: PricedOptions): number {
  const count = optionValue(provider, request, 'count');
  return typeof count === 'number' && Number.isInteger(count) && count >= 1 ? count : 1;
}

/** Megapixels of one image of `request`, when its size or its options say; else undefined. */
export function megapixelsOf(provider: ProviderId, request: PricedOptions): number | undefined {
  const size =
    SIZE_PATTERN.exec(request.size ?? '') ??
    SIZE_PATTERN.exec(String(optionValue(provider, request, 'size') ?? ''));
  if (size) return (Number(size[1]) * Number(size[2])) / 1_000_000;
  const tier = String(optionValue(provider, request, 'resolution') ?? '');
  const k = TIER.exec(tier);
  if (k) return (Number(k[1]) * 1024) ** 2 / 1_000_000;
  return MEGAPIXELS.test(tier) ? Number(tier) : undefined;
}
