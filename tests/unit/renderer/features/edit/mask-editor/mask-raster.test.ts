/**
 * The mask raster at known pixels: a stamp of a given size covers exactly the pixels whose centre
 * lies within half that size (listed by hand here, not recomputed), segments leave no gaps, and
 * eraser, invert, clear, replace, undo and redo (with their cap) change exactly what they say.
 */
import { describe, expect, it } from 'vitest';
import { MaskRaster } from '../../../../../../renderer/lib/mask-raster';

/** The covered pixels as sorted `x,y` strings. */
function covered(raster: MaskRaster): string[] {
  const found: string[] = [];
  for (let y = 0; y < raster.height; y += 1) {
    for (let x = 0; x < raster.width; x += 1) if (raster.covered(x, y)) found.push(`${x},${y}`);
  }
  return found.sort();
}

function pixels(list: readonly [number, number][]): string[] {
  return list.map(([x, y]) => `${x},${y}`).sort();
}

function square(left: number, top: number, side: number): [number, number][] {
  const list: [number, number][] = [];
  for (let y = top; y < top + side; y += 1)
    for (let x = left; x < left + side; x += 1) list.push([x, y]);
  return list;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function dot(raster: MaskRaster, tool: 'brush' | 'eraser', size: number, x: number, y: number) {
  return raster.begin(tool, size, x, y).end();
}

describe('a brush stamp', () => {
  it('of size 1 at a pixel centre covers that pixel only', () => {
    const raster = new MaskRaster(37, 23);
    expect(dot(raster, 'brush', 1, 10.5, 10.5)).toBe(true);
    expect(covered(raster)).toEqual(['10,10']);
  });

  it('of size 1 between pixel centres still covers the pixel under the pointer', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 1, 4, 7);
    expect(covered(raster)).toEqual(['4,7']);
  });

  it('of size 3 at a pixel centre covers the 3×3 square around it', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 3, 10.5, 10.5);
    expect(covered(raster)).toEqual(pixels(square(9, 9, 3)));
  });

  it('of size 4 at a pixel corner covers a 4×4 square without its corners', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 4, 10, 10);
    const corners = ['8,8', '11,8', '8,11', '11,11'];
    expect(covered(raster)).toEqual(
      pixels(square(8, 8, 4)).filter((pixel) => !corners.includes(pixel)),
    );
    expect(covered(raster)).toHaveLength(12);
  });

  it('of size 4 at a pixel centre covers a plus of 13 pixels', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 4, 10.5, 10.5);
    expect(covered(raster)).toEqual(
      pixels([...square(9, 9, 3), [8, 10], [12, 10], [10, 8], [10, 12]]),
    );
  });

  it('is clipped at the edges of the image', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 6, 0, 0);
    expect(covered(raster)).toEqual(
      pixels([
        [0, 0],
        [1, 0],
        [2, 0],
        [0, 1],
        [1, 1],
        [2, 1],
        [0, 2],
        [1, 2],
      ]),
    );
    dot(raster, 'brush', 2, 36.5, 22.5);
    expect(raster.covered(36, 22)).toBe(true);
  });
});

describe('a stroke', () => {
  it('covers the segment between pointer positions, one pixel wide at size 1', () => {
    const raster = new MaskRaster(37, 23);
    const stroke = raster.begin('brush', 1, 2.5, 5.5);
    expect(stroke.to(8.5, 5.5)).toEqual({ x: 2, y: 5, width: 7, height: 1 });
    stroke.end();
    expect(covered(raster)).toEqual(pixels([2, 3, 4, 5, 6, 7, 8].map((x) => [x, 5])));
  });

  it('leaves no gap along a fast diagonal', () => {
    const raster = new MaskRaster(37, 23);
    const stroke = raster.begin('brush', 2, 0.5, 0.5);
    stroke.to(20.5, 20.5);
    stroke.end();
    for (let i = 0; i <= 20; i += 1) expect(raster.covered(i, i), `${i},${i}`).toBe(true);
    expect(raster.covered(0, 5)).toBe(false);
    expect(raster.covered(21, 21)).toBe(false);
  });

  it('that changes nothing makes no undo step', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 3, 10.5, 10.5);
    expect(dot(raster, 'brush', 1, 10.5, 10.5)).toBe(false);
    expect(dot(raster, 'eraser', 3, 30.5, 5.5)).toBe(false);
    raster.undo();
    expect(raster.isEmpty()).toBe(true);
    expect(raster.canUndo).toBe(false);
  });
});

describe('the eraser, invert and clear', () => {
  it('the eraser takes off exactly its stamp', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 3, 10.5, 10.5);
    dot(raster, 'eraser', 1, 10.5, 10.5);
    expect(covered(raster)).toEqual(pixels(square(9, 9, 3)).filter((pixel) => pixel !== '10,10'));
  });

  it('invert swaps every pixel, and undo swaps them back', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 1, 3.5, 4.5);
    raster.invert();
    expect(covered(raster)).toHaveLength(37 * 23 - 1);
    expect(raster.covered(3, 4)).toBe(false);
    raster.undo();
    expect(covered(raster)).toEqual(['3,4']);
    raster.redo();
    expect(raster.covered(3, 4)).toBe(false);
    expect(raster.covered(0, 0)).toBe(true);
  });

  it('clear empties the mask as one step, and does nothing on an empty mask', () => {
    const raster = new MaskRaster(37, 23);
    expect(raster.clear()).toBe(false);
    expect(raster.canUndo).toBe(false);
    dot(raster, 'brush', 5, 20.5, 11.5);
    const painted = covered(raster);
    expect(raster.clear()).toBe(true);
    expect(raster.isEmpty()).toBe(true);
    raster.undo();
    expect(covered(raster)).toEqual(painted);
  });

  it('replace takes a whole mask (non-zero = edit) as one step', () => {
    const raster = new MaskRaster(3, 2);
    dot(raster, 'brush', 1, 0.5, 0.5);
    expect(raster.replace(Uint8Array.from([0, 0, 1, 0, 0, 200]))).toBe(true);
    expect(covered(raster)).toEqual(['2,0', '2,1']);
    expect(() => raster.replace(new Uint8Array(5))).toThrow(RangeError);
    raster.undo();
    expect(covered(raster)).toEqual(['0,0']);
  });
});

describe('undo and redo', () => {
  it('take back and do again strokes in order, and a new stroke drops what was undone', () => {
    const raster = new MaskRaster(37, 23);
    dot(raster, 'brush', 1, 1.5, 1.5);
    dot(raster, 'brush', 1, 2.5, 2.5);
    expect(raster.undo()).toBe(true);
    expect(covered(raster)).toEqual(['1,1']);
    expect(raster.undo()).toBe(true);
    expect(raster.isEmpty()).toBe(true);
    expect(raster.undo()).toBe(false);
    expect(raster.redo()).toBe(true);
    expect(covered(raster)).toEqual(['1,1']);
    expect(raster.canRedo).toBe(true);
    dot(raster, 'brush', 1, 5.5, 5.5);
    expect(raster.canRedo).toBe(false);
    expect(raster.redo()).toBe(false);
    expect(covered(raster)).toEqual(['1,1', '5,5']);
    raster.undo();
    raster.undo();
    expect(raster.isEmpty()).toBe(true);
  });

  it('restore every byte of strokes that cross tiles and overlap', () => {
    const raster = new MaskRaster(301, 157);
    const first = raster.begin('brush', 9, 10, 10);
    first.to(290, 150);
    first.end();
    const afterFirst = raster.coverage.slice();
    const second = raster.begin('eraser', 21, 150, 0);
    second.to(150, 157);
    second.to(0, 80);
    second.end();
    const afterSecond = raster.coverage.slice();
    expect(same(afterFirst, afterSecond)).toBe(false);
    raster.undo();
    expect(same(raster.coverage, afterFirst)).toBe(true);
    raster.undo();
    expect(raster.isEmpty()).toBe(true);
    raster.redo();
    raster.redo();
    expect(same(raster.coverage, afterSecond)).toBe(true);
  });

  it('keep at most the capped number of steps, dropping the oldest', () => {
    const raster = new MaskRaster(37, 23, { maxSteps: 3 });
    for (let x = 0; x < 5; x += 1) dot(raster, 'brush', 1, x + 0.5, 0.5);
    expect(raster.undo()).toBe(true);
    expect(raster.undo()).toBe(true);
    expect(raster.undo()).toBe(true);
    expect(raster.undo()).toBe(false);
    expect(covered(raster)).toEqual(['0,0', '1,0']);
  });

  it('hold only the tiles a stroke changed, not copies of a large mask', () => {
    const raster = new MaskRaster(4000, 3000);
    dot(raster, 'brush', 9, 2000, 1500);
    // The stamp lies inside one 64×64 tile (x 1984–2047, y 1472–1535): its bytes after; before,
    // it was all 0, kept as that one value.
    expect(raster.historyBytes).toBe(64 * 64);
    // Invert is its own inverse: it keeps nothing, where a copy would be 12 MB.
    raster.invert();
    expect(raster.historyBytes).toBe(64 * 64);
    raster.undo();
    raster.undo();
    expect(raster.isEmpty()).toBe(true);
  });

  it('keep a cleared or filled tile as one value, and restore it', () => {
    const raster = new MaskRaster(130, 70);
    raster.replace(new Uint8Array(130 * 70).fill(1));
    // Six tiles (three across, two down), each all 0 before and all 255 after.
    expect(raster.historyBytes).toBe(0);
    const stroke = raster.begin('eraser', 3, 10.5, 10.5);
    stroke.end();
    expect(raster.historyBytes).toBe(64 * 64);
    expect(raster.clear()).toBe(true);
    // The clear keeps the one mixed tile before it, every other tile as one value.
    expect(raster.historyBytes).toBe(2 * 64 * 64);
    raster.undo();
    expect(raster.covered(10, 10)).toBe(false);
    expect(raster.covered(129, 69)).toBe(true);
    expect(raster.covered(64, 0)).toBe(true);
    raster.undo();
    expect(raster.covered(10, 10)).toBe(true);
    raster.undo();
    expect(raster.isEmpty()).toBe(true);
  });

  it('drop the oldest steps beyond their byte budget, always keeping the latest', () => {
    const raster = new MaskRaster(256, 64, { maxBytes: 2 * 64 * 64 });
    // Three strokes in three tiles, each holding one tile of bytes (after; before was all 0).
    for (const x of [10.5, 74.5, 138.5]) raster.begin('brush', 3, x, 10.5).end();
    expect(raster.historyBytes).toBe(2 * 64 * 64);
    expect(raster.undo()).toBe(true);
    expect(raster.undo()).toBe(true);
    expect(raster.undo()).toBe(false);
    expect(raster.covered(10, 10)).toBe(true);
    expect(raster.covered(74, 10)).toBe(false);
    // A step larger than the whole budget is still kept (the latest always is).
    const small = new MaskRaster(256, 64, { maxBytes: 10 });
    small.begin('brush', 3, 10.5, 10.5).end();
    expect(small.undo()).toBe(true);
    expect(small.isEmpty()).toBe(true);
  });
});

it('refuses a size that is not a positive whole number of pixels', () => {
  expect(() => new MaskRaster(0, 10)).toThrow(RangeError);
  expect(() => new MaskRaster(10.5, 10)).toThrow(RangeError);
});
