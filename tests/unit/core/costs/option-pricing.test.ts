/**
 * The estimate follows the request's own options that change a price: images per task (the
 * model's number-of-images option) and megapixels (the size, else the model's size option or its
 * resolution tier), through the core's one estimate.
 */
import { describe, expect, it } from 'vitest';
import type { CostPrice } from '../../../../shared/domain/cost-ledger';
import { estimateCost } from '../../../../electron/core/costs/cost-estimate';

const per = (basis: CostPrice['basis'], provider: CostPrice['provider']): CostPrice[] => [
  { provider, model: '', unit: 'USD', basis, micros: 10_000 },
];

const micros = (cost: ReturnType<typeof estimateCost>) => ('micros' in cost ? cost.micros : null);

describe('an estimate of a request with options', () => {
  it('counts every image one task asks for', () => {
    const model = 'fal-ai/flux/dev';
    const prices = per('image', 'fal');
    expect(micros(estimateCost(prices, 'fal', { model }))).toBe(10_000);
    expect(micros(estimateCost(prices, 'fal', { model, params: { num_images: 3 } }))).toBe(30_000);
  });

  it('prices a megapixel by the resolution tier when no size is asked', () => {
    const model = 'fal-ai/nano-banana-pro';
    const prices = per('megapixel', 'fal');
    const at = (resolution: string) =>
      micros(estimateCost(prices, 'fal', { model, params: { resolution } }));
    // 1K, 2K, 4K: 1024², 2048², 4096² pixels.
    expect(at('1K')).toBe(Math.round(10_000 * 1.048576));
    expect(at('2K')).toBe(Math.round(10_000 * 4.194304));
    expect(at('4K')).toBe(Math.round(10_000 * 16.777216));
    // The model's default tier when none is set.
    expect(micros(estimateCost(prices, 'fal', { model }))).toBe(at('1K'));
  });

  it('keeps the size asked for first, and has no megapixel estimate without any size', () => {
    const prices = per('megapixel', 'pictor');
    expect(micros(estimateCost(prices, 'pictor', { size: '1000x500' }))).toBe(5_000);
    expect(estimateCost(prices, 'pictor', {})).toMatchObject({ source: 'unknown' });
  });
});
