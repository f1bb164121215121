/**
 * Which changes loosen a hard spending cap, so that only the user's own answer in main's dialog
 * makes them (docs/COSTS.md "Only the user loosens a hard cap"): raising or removing the cap, and
 * every change of a price that lowers what the cap counts for a service it covers: a lower
 * amount, a price for a service or model it could not count before, another basis, or removing a
 * model's price so that a lower every-model price applies. A price in another unit than the cap's
 * changes nothing for it; removing the last price in its unit makes it stricter (it refuses what
 * it cannot count).
 */
import type { CostPrice, SpendingCap } from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import type { CostUnit } from '../../../shared/domain/task-cost';
import type { CapLoosening } from '../../ports/user-prompts';

/** A cap as it is named when set or cleared: everything but its amount. */
export type CapKey = Omit<SpendingCap, 'micros'>;

const sameCap = (a: CapKey, b: CapKey): boolean =>
  a.period === b.period && a.unit === b.unit && a.provider === b.provider && a.kind === b.kind;

/** The hard caps that setting `key` to `to` (or, with `to` null, clearing it) loosens. */
export function capLoosenings(
  caps: readonly SpendingCap[],
  key: CapKey,
  to: number | null,
): CapLoosening[] {
  return caps
    .filter((cap) => cap.kind === 'hard' && sameCap(cap, key))
    .filter((cap) => to === null || to > cap.micros)
    .map((cap) => ({ cap, to }));
}

/** The price of exactly this service, model and unit, if any. */
function exact(
  prices: readonly CostPrice[],
  provider: ProviderId,
  model: string,
  unit: CostUnit,
): CostPrice | undefined {
  return prices.find((p) => p.provider === provider && p.model === model && p.unit === unit);
}

/** True when tasks priced by `next` instead of `before` could count less. */
function countsLess(before: CostPrice | undefined, next: CostPrice | undefined): boolean {
  if (next === undefined) return false;
  if (before === undefined || before.basis !== next.basis) return true;
  return next.micros < before.micros;
}

/** The hard caps in `unit` that cover `provider`. */
function hardCapsOver(caps: readonly SpendingCap[], provider: ProviderId, unit: CostUnit) {
  return caps.filter(
    (cap) =>
      cap.kind === 'hard' &&
      cap.unit === unit &&
      (cap.provider === null || cap.provider === provider),
  );
}

/** The hard caps that setting `price` loosens, each with the price before and after. */
export function priceSetLoosenings(
  prices: readonly CostPrice[],
  caps: readonly SpendingCap[],
  price: CostPrice,
): CapLoosening[] {
  const { provider, model, unit } = price;
  // Before: this model's own price, else the every-model price that priced it.
  const before = exact(prices, provider, model, unit) ?? exact(prices, provider, '', unit);
  if (!countsLess(before, price)) return [];
  return hardCapsOver(caps, provider, unit).map((cap) => ({
    cap,
    to: cap.micros,
    price: { provider, model, from: before ?? null, to: price },
  }));
}

/** The hard caps that removing prices of `provider` and `model` (in `unit`, or every one) loosens. */
export function priceClearLoosenings(
  prices: readonly CostPrice[],
  caps: readonly SpendingCap[],
  key: { provider: ProviderId; model: string; unit?: CostUnit },
): CapLoosening[] {
  const { provider, model } = key;
  // Removing an every-model price leaves its models unpriced: stricter, never looser.
  if (model === '') return [];
  const removed = prices.filter(
    (p) =>
      p.provider === provider &&
      p.model === model &&
      (key.unit === undefined || p.unit === key.unit),
  );
  return removed.flatMap((price) => {
    const after = exact(prices, provider, '', price.unit);
    if (!countsLess(price, after)) return [];
    return hardCapsOver(caps, provider, price.unit).map((cap) => ({
      cap,
      to: cap.micros,
      price: { provider, model, from: price, to: after ?? null },
    }));
  });
}
