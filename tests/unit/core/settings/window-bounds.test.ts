import { describe, expect, it } from 'vitest';
import type { ScreenLayout, WindowBounds } from '../../../../electron/core/settings/window-bounds';
import {
  DEFAULT_WINDOW_SIZE,
  MIN_WINDOW_SIZE,
  visibleBounds,
} from '../../../../electron/core/settings/window-bounds';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const external = { x: 1440, y: 0, width: 2560, height: 1415 };
const leftOfPrimary = { x: -1920, y: 0, width: 1920, height: 1040 };
const docked: ScreenLayout = { primary: laptop, all: [laptop, external] };
const undocked: ScreenLayout = { primary: laptop, all: [laptop] };

const saved = (rect: Partial<WindowBounds>): WindowBounds => ({
  x: 100,
  y: 100,
  width: 1000,
  height: 700,
  maximized: false,
  ...rect,
});

describe('visibleBounds', () => {
  it('uses the default size, centred by Electron, when nothing was saved', () => {
    expect(visibleBounds(null, docked)).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('shrinks the default size to a small screen', () => {
    const small = { x: 0, y: 0, width: 1024, height: 600 };
    expect(visibleBounds(null, { primary: small, all: [small] })).toEqual({
      width: 1024,
      height: 600,
      maximized: false,
    });
  });

  it('keeps bounds that are fully on a display, on any display', () => {
    const onExternal = saved({ x: 2000, y: 300, width: 1200, height: 900 });
    expect(visibleBounds(onExternal, docked)).toEqual(onExternal);
    const onLeft = saved({ x: -1800, y: 50 });
    expect(visibleBounds(onLeft, { primary: laptop, all: [laptop, leftOfPrimary] })).toEqual(
      onLeft,
    );
  });

  it('centres the window on the primary display when its display is gone', () => {
    const onExternal = saved({ x: 2000, y: 300, width: 1200, height: 800, maximized: true });
    expect(visibleBounds(onExternal, undocked)).toEqual({
      x: 120,
      y: 62,
      width: 1200,
      height: 800,
      maximized: true,
    });
  });

  it('shrinks a window larger than the display it lands on', () => {
    const huge = saved({ x: 1500, y: 10, width: 2500, height: 1400 });
    expect(visibleBounds(huge, undocked)).toEqual({
      x: 0,
      y: 25,
      width: 1440,
      height: 875,
      maximized: false,
    });
  });

  it('pulls a window whose title bar is visible but which hangs off the edge inside', () => {
    const hanging = saved({ x: 1000, y: 500, width: 1000, height: 700 });
    expect(visibleBounds(hanging, undocked)).toEqual({
      x: 440,
      y: 200,
      width: 1000,
      height: 700,
      maximized: false,
    });
  });

  it('moves a window whose title bar is above the screen (unreachable) back on screen', () => {
    const above = saved({ x: 200, y: -400, width: 800, height: 420 });
    const placed = visibleBounds(above, undocked);
    expect(placed.y).toBeGreaterThanOrEqual(laptop.y);
    expect(placed.x! + placed.width).toBeLessThanOrEqual(laptop.x + laptop.width);
  });

  it('treats a sliver of title bar (under 100 px) as off-screen', () => {
    const sliver = saved({ x: 1440 - 50, y: 100 });
    expect(visibleBounds(sliver, undocked)).toMatchObject({ x: 220, y: 112 });
  });

  it('grows a tiny saved window to the minimum size', () => {
    const tiny = saved({ width: 50, height: 40 });
    expect(visibleBounds(tiny, docked)).toMatchObject({ x: 100, y: 100, ...MIN_WINDOW_SIZE });
  });
});
