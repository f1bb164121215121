import { describe, expect, it } from 'vitest';
import {
  FIT,
  MAX_SCALE,
  MIN_SCALE,
  actualSize,
  currentScale,
  fitScale,
  isZoomed,
  panBy,
  panForKey,
  zoomBy,
} from '../../../../renderer/features/gallery/zoom-pan';

const image = { width: 2000, height: 1000 };
const stage = { width: 1000, height: 800 };
/** A stage whose fit (after the 16 px margins) is exactly 1000 × 800. */
const fitStage = { width: 1032, height: 832 };

describe('zoom', () => {
  it('fits the whole image with a margin, never enlarging past 100 %', () => {
    expect(fitScale(image, fitStage)).toBe(0.5);
    expect(fitScale({ width: 100, height: 100 }, stage)).toBe(1);
    expect(currentScale(FIT, image, fitStage)).toBe(0.5);
    expect(isZoomed(FIT)).toBe(false);
  });

  it('steps from the fitted scale and stays within bounds', () => {
    const zoomed = zoomBy(FIT, 2, image, fitStage);
    expect(zoomed).toEqual({ mode: 'scale', scale: 1, x: 0, y: 0 });
    expect(isZoomed(zoomed)).toBe(true);
    let state = zoomed;
    for (let i = 0; i < 50; i += 1) state = zoomBy(state, 2, image, stage);
    expect(currentScale(state, image, stage)).toBe(MAX_SCALE);
    for (let i = 0; i < 100; i += 1) state = zoomBy(state, 0.5, image, stage);
    expect(currentScale(state, image, stage)).toBe(MIN_SCALE);
  });

  it('keeps the point under the pointer in place', () => {
    // At 100 % the image overflows; zoom to 200 % around a point 100px right of centre.
    const zoomed = zoomBy(actualSize(), 2, image, stage, { x: 100, y: 0 });
    expect(zoomed).toMatchObject({ scale: 2, x: -100, y: 0 });
  });
});

describe('pan', () => {
  it('moves a zoomed image only as far as it overflows', () => {
    const state = actualSize();
    expect(panBy(state, 300, 300, image, stage)).toMatchObject({ x: 300, y: 100 });
    expect(panBy(state, 9_999, 0, image, stage)).toMatchObject({ x: 500 });
  });

  it('does not pan at fit, and maps arrow keys to the direction that shows more', () => {
    expect(panBy(FIT, 10, 10, image, stage)).toBe(FIT);
    expect(panForKey('ArrowRight')).toEqual({ dx: -48, dy: 0 });
    expect(panForKey('ArrowUp')).toEqual({ dx: 0, dy: 48 });
    expect(panForKey('Enter')).toBeNull();
  });
});
