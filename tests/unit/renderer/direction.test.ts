/**
 * Right-to-left: arrow keys follow the reading direction in the gallery grid and the viewer, and
 * no stylesheet places things by physical left or right (which a mirrored window would not flip).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentDirection, logicalArrow } from '../../../renderer/lib/direction';
import { moveFor } from '../../../renderer/features/gallery/grid-geometry';
import { viewerKey, type ViewerKeyHandlers } from '../../../renderer/features/gallery/viewer-keys';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

describe('arrow keys in a right-to-left window', () => {
  afterEach(() => {
    document.documentElement.dir = '';
  });

  it('swap left and right only in rtl', () => {
    expect(logicalArrow('ArrowLeft', 'ltr')).toBe('ArrowLeft');
    expect(logicalArrow('ArrowLeft', 'rtl')).toBe('ArrowRight');
    expect(logicalArrow('ArrowRight', 'rtl')).toBe('ArrowLeft');
    expect(logicalArrow('ArrowUp', 'rtl')).toBe('ArrowUp');
    expect(logicalArrow('Home', 'rtl')).toBe('Home');
  });

  it('read the direction from the page', () => {
    expect(documentDirection()).toBe('ltr');
    document.documentElement.dir = 'rtl';
    expect(documentDirection()).toBe('rtl');
  });

  it('move the grid focus to the next image with ArrowLeft in rtl', () => {
    document.documentElement.dir = 'rtl';
    const move = { index: 2, count: 10, columns: 4, pageRows: 2 };
    expect(moveFor(logicalArrow('ArrowLeft'), move)).toBe(3);
    expect(moveFor(logicalArrow('ArrowRight'), move)).toBe(1);
    expect(moveFor(logicalArrow('ArrowDown'), move)).toBe(6);
  });

  it('change image with the mirrored arrows in the viewer, and pan physically when zoomed', () => {
    document.documentElement.dir = 'rtl';
    const handlers = (zoomed: boolean) =>
      ({
        zoomed,
        pan: vi.fn(),
        navigate: vi.fn(),
        zoomStep: vi.fn(),
        fit: vi.fn(),
        actual: vi.fn(),
        toggleZoom: vi.fn(),
        remove: vi.fn(),
      }) as unknown as ViewerKeyHandlers & {
        pan: ReturnType<typeof vi.fn>;
        navigate: ReturnType<typeof vi.fn>;
      };
    const flat = handlers(false);
    viewerKey('ArrowLeft', flat);
    expect(flat.navigate).toHaveBeenCalledWith(1);
    viewerKey('ArrowRight', flat);
    expect(flat.navigate).toHaveBeenLastCalledWith(-1);
    const zoomed = handlers(true);
    viewerKey('ArrowLeft', zoomed);
    expect(zoomed.navigate).not.toHaveBeenCalled();
    expect(zoomed.pan).toHaveBeenCalledTimes(1);
  });
});

describe('stylesheets', () => {
  // A centred box (left: 50% with translateX(-50%)) is the same either way round.
  const PHYSICAL =
    /(^|[\s;{])(left|right)\s*:(?!\s*50%)|(margin|padding|border)-(left|right)\b|text-align:\s*(left|right)|(top|bottom)-(left|right)-radius|float:\s*(left|right)/;

  it('place things by inline start and end, never by physical left or right', () => {
    const found = repositoryFiles(['renderer'], /\.css$/).flatMap((file) =>
      readFileSync(join(REPO_ROOT, file), 'utf8')
        .split('\n')
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => PHYSICAL.test(line))
        .map(({ line, index }) => `${file}:${index + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
