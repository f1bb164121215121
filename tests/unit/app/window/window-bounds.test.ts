import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, fitWindowState } from '../../../../electron/app/window/window-bounds';

const laptop = { x: 0, y: 0, width: 1440, height: 860 };
const right = { x: 1440, y: 0, width: 1920, height: 1040 };

describe('fitWindowState', () => {
  it('keeps a saved place that is on a display', () => {
    expect(fitWindowState({ x: 100, y: 80, width: 1000, height: 700 }, [laptop])).toEqual({
      x: 100,
      y: 80,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('keeps a place on a second display, and the maximized flag', () => {
    const state = fitWindowState({ x: 1600, y: 50, width: 1200, height: 900, maximized: true }, [
      laptop,
      right,
    ]);
    expect(state).toEqual({ x: 1600, y: 50, width: 1200, height: 900, maximized: true });
  });

  it('centres the window when its display is gone', () => {
    const state = fitWindowState({ x: 2000, y: 100, width: 1000, height: 700 }, [laptop]);
    expect(state).toEqual({ width: 1000, height: 700, maximized: false });
  });

  it('centres the window when only a sliver would be visible', () => {
    const state = fitWindowState({ x: 1400, y: 100, width: 1000, height: 700 }, [laptop]);
    expect(state.x).toBeUndefined();
  });

  it('keeps the title bar reachable', () => {
    const state = fitWindowState({ x: 100, y: -300, width: 1000, height: 700 }, [laptop]);
    expect(state.y).toBe(0);
  });

  it('never goes below 800x600, nor above the work area', () => {
    expect(fitWindowState({ x: 0, y: 0, width: 300, height: 200 }, [laptop])).toMatchObject({
      width: 800,
      height: 600,
    });
    expect(fitWindowState({ x: 0, y: 0, width: 5000, height: 4000 }, [laptop])).toMatchObject({
      width: 1440,
      height: 860,
    });
  });

  it.each([undefined, null, 'x', { width: 'wide' }, { x: NaN, y: 1, width: 900, height: 700 }])(
    'falls back to the default size for %j',
    (saved) => {
      const state = fitWindowState(saved, [right]);
      expect(state.x).toBeUndefined();
      expect(state.width).toBe(
        typeof saved === 'object' && saved && 'height' in saved ? 900 : DEFAULT_WINDOW_SIZE.width,
      );
    },
  );
});
