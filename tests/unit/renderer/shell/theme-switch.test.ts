/**
 * A change of theme is drawn in one frame: the page computes the new theme's colours while
 * `data-theme-switching` holds every transition (the `--transition` token) at 0 ms, then gives
 * transitions back. A button's background left to its transition would be drawn from the old
 * theme under the new theme's text meanwhile: axe, run in Chromium right after a switch to the
 * dark theme, measured light text on a white button (contrast 1.17).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyTheme } from '../../../../renderer/shell/use-theme';

const TOKENS = readFileSync(join(process.cwd(), 'renderer', 'styles', 'tokens.css'), 'utf8');

/** The `--transition` token every transition of the page takes its duration from. */
function transitionToken(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--transition').trim();
}

let sheet: HTMLStyleElement;
beforeEach(() => {
  sheet = document.createElement('style');
  sheet.textContent = TOKENS;
  document.head.append(sheet);
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  sheet.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a change of theme', () => {
  it('has its colours computed with transitions off, and gives them back after', () => {
    applyTheme('light');
    expect(transitionToken()).toBe('120ms ease-out');
    // What the page's styles are computed with, each time the layout is read.
    const computed: { theme: string | undefined; transition: string }[] = [];
    vi.spyOn(document.body, 'getBoundingClientRect').mockImplementation(() => {
      computed.push({
        theme: document.documentElement.dataset.theme,
        transition: transitionToken(),
      });
      return new DOMRect();
    });
    applyTheme('dark');
    expect(computed).toEqual([{ theme: 'dark', transition: '0ms' }]);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.hasAttribute('data-theme-switching')).toBe(false);
    expect(transitionToken()).toBe('120ms ease-out');
  });

  it('sets the first theme without holding anything, and a theme already shown changes nothing', () => {
    const read = vi.spyOn(document.body, 'getBoundingClientRect');
    applyTheme('dark');
    applyTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(read).not.toHaveBeenCalled();
  });
});
