/**
 * The reduced JPEG decode's arithmetic (electron/image-renderer/jpeg-scale.ts): the scale chosen
 * is the smallest of libjpeg's that still covers the thumbnail, the size asked of ImageDecoder
 * leads its area rule to exactly that scale, and a frame is accepted only at one of libjpeg's
 * sizes of the stored image, turned as the job says. What Chromium really decodes at is the
 * image page's tests' and the bench's (renderer faults per JPEG: docs/PERFORMANCE.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  desiredFor,
  eighthsFor,
  isReductionOf,
  scaledBy,
} from '../../../electron/image-renderer/jpeg-scale';

/** The page's fit: inside `side`, never enlarged, at least 1 pixel each way (decode.ts). */
function fitInside(width: number, height: number, side: number) {
  const scale = Math.min(1, side / Math.max(width, height));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Chromium's choice: the largest M/8 whose pixels fit the area asked for (1 at least). */
function chromiumEighths(
  stored: { width: number; height: number },
  asked: { width: number; height: number },
) {
  let chosen = 1;
  for (let eighths = 1; eighths <= 8; eighths += 1) {
    const scaled = scaledBy(stored, eighths);
    if (scaled.width * scaled.height <= asked.width * asked.height) chosen = eighths;
  }
  return chosen;
}

const sizes = fc.record({
  width: fc.integer({ min: 1, max: 20_000 }),
  height: fc.integer({ min: 1, max: 20_000 }),
});

describe('the reduced JPEG decode', () => {
  it('takes the fewest eighths that cover the thumbnail: 2048² to 384 is 2/8 (512), 420 wide is whole', () => {
    expect(eighthsFor({ width: 2048, height: 2048 }, { width: 384, height: 384 })).toBe(2);
    expect(eighthsFor({ width: 1600, height: 1200 }, { width: 384, height: 288 })).toBe(2);
    expect(eighthsFor({ width: 500, height: 300 }, { width: 384, height: 230 })).toBe(7);
    expect(eighthsFor({ width: 420, height: 300 }, { width: 384, height: 274 })).toBe(8);
    expect(eighthsFor({ width: 4000, height: 3000 }, { width: 384, height: 288 })).toBe(1);
    expect(eighthsFor({ width: 300, height: 200 }, { width: 300, height: 200 })).toBe(8);
  });

  it('for any size: the scale covers the thumbnail, one eighth less would not, and the size asked leads to it', () => {
    fc.assert(
      fc.property(sizes, fc.integer({ min: 1, max: 1024 }), (stored, side) => {
        const fit = fitInside(stored.width, stored.height, side);
        const eighths = eighthsFor(stored, fit);
        const long = (size: { width: number; height: number }) => Math.max(size.width, size.height);
        expect(long(scaledBy(stored, eighths))).toBeGreaterThanOrEqual(long(fit));
        if (eighths > 1) expect(long(scaledBy(stored, eighths - 1))).toBeLessThan(long(fit));
        if (eighths < 8) {
          const chosen = chromiumEighths(stored, desiredFor(stored, eighths));
          // Never smaller than wanted; larger only for a sliver of an image (its area rule).
          expect(chosen).toBeGreaterThanOrEqual(eighths);
          if (Math.min(stored.width, stored.height) >= 64) expect(chosen).toBe(eighths);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a frame only at one of libjpeg’s sizes of the stored image, turned as the job says', () => {
    const stored = { width: 2047, height: 1021 };
    for (let eighths = 1; eighths <= 8; eighths += 1) {
      const scaled = scaledBy(stored, eighths);
      const turned = { width: scaled.height, height: scaled.width };
      expect(isReductionOf(scaled, scaled, stored, false), `${eighths}/8`).toBe(true);
      expect(isReductionOf(scaled, turned, stored, true), `${eighths}/8 turned`).toBe(true);
      // The turn must be the job's, not the frame's alone.
      expect(isReductionOf(scaled, turned, stored, false)).toBe(false);
      expect(isReductionOf(scaled, scaled, stored, true)).toBe(false);
      // One pixel off either way, or the other side's scale: not libjpeg's.
      for (const off of [
        { width: scaled.width + 1, height: scaled.height },
        { width: scaled.width, height: scaled.height - 1 },
      ]) {
        expect(isReductionOf(off, off, stored, false)).toBe(false);
      }
    }
    const other = scaledBy({ width: 1021, height: 2047 }, 4);
    expect(isReductionOf(other, other, stored, false)).toBe(false);
  });
});
