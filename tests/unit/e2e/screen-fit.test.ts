/**
 * A window that did not get its size says whether the screen was too small (naming the screen's
 * work area and the step that sets it), and the macOS step picks the screen's largest mode from
 * displayplacer's list.
 */
import { describe, expect, it } from 'vitest';
import {
  LARGEST_JOURNEY_WINDOW,
  largestDisplayMode,
  screenFitsJourneys,
  windowSizeProblem,
} from '../../e2e/harness/screen-fit';
import { DEFAULT_VIEWPORT } from '../../e2e/harness/app-types';

const WANTED = { width: 1280, height: 800 };

describe('the window’s size against the screen', () => {
  it('is no problem when the window got its size', () => {
    expect(windowSizeProblem(WANTED, WANTED, { width: 1176, height: 694 }, 'darwin')).toBeNull();
  });

  it('names a virtual Mac’s 1176x694 screen as too small, and the step that sets it', () => {
    const problem = windowSizeProblem(
      { width: 1176, height: 666 },
      WANTED,
      { width: 1176, height: 694 },
      'darwin',
    );
    expect(problem).toBe(
      "The window is 1176x666, not 1280x800: the screen's work area is 1176x694, too small for the journeys' window (on a macOS runner: npm run ci:mac-display).",
    );
    expect(
      windowSizeProblem(
        { width: 1024, height: 700 },
        WANTED,
        { width: 1024, height: 728 },
        'win32',
      ),
    ).toContain('npm run ci:windows-display');
  });

  it('says so when the screen had room, so the failure is not blamed on the runner', () => {
    expect(
      windowSizeProblem(
        { width: 1000, height: 800 },
        WANTED,
        { width: 1920, height: 1050 },
        'linux',
      ),
    ).toContain('has room for it');
  });

  it('counts the title bar: a work area exactly the content’s height is too small', () => {
    expect(screenFitsJourneys({ width: 1920, height: 1050 })).toBe(true);
    expect(screenFitsJourneys({ width: 1280, height: 800 })).toBe(false);
    expect(screenFitsJourneys({ width: 1176, height: 694 })).toBe(false);
    expect(LARGEST_JOURNEY_WINDOW).toEqual(DEFAULT_VIEWPORT);
  });
});

describe('the largest display mode', () => {
  const list = [
    'Persistent screen id: 37D8832A-2D66-02CA-B9F7-8F30A301B230',
    'Contextual screen id: 1',
    'Type: 24 inch external screen',
    'Resolution: 1176x694',
    'Resolutions for rotation 0:',
    '  mode 0: res:800x600 hz:60 color_depth:8',
    '  mode 1: res:1176x694 hz:60 color_depth:8 <-- current mode',
    '  mode 2: res:1920x1080 hz:60 color_depth:8',
    '  mode 3: res:1600x1200 hz:60 color_depth:8',
    '',
    'Persistent screen id: 11111111-2222-3333-4444-555555555555',
    'Resolutions for rotation 0:',
    '  mode 0: res:3840x2160 hz:60 color_depth:8',
  ].join('\n');

  it('is the main (first) screen’s mode of the largest area', () => {
    expect(largestDisplayMode(list)).toEqual({
      id: '37D8832A-2D66-02CA-B9F7-8F30A301B230',
      mode: 2,
      width: 1920,
      height: 1080,
    });
  });

  it('is none when nothing is listed', () => {
    expect(largestDisplayMode('')).toBeNull();
    expect(largestDisplayMode('Persistent screen id: X\nno modes')).toBeNull();
  });
});
