/**
 * A task row's icons (components/icon.tsx) carry no presentation attributes: each is an SVG with
 * its class, viewBox and its hiding from assistive technology, and one path; how it is stroked
 * and filled is the `.icon` rule's, so React sets five attributes fewer on each of the seven a row
 * draws and Chromium styles them alike. Each stays hidden inside a control that carries its name
 * (an icon button's label and tooltip), and a pressed pick is still drawn filled.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedHistory, startWiredApp } from '../render-wired-app';

/** The attributes an icon's <svg> has, and its path's. */
const SVG_ATTRIBUTES = ['aria-hidden', 'class', 'focusable', 'viewBox'];
const PATH_ATTRIBUTES = ['d'];

const names = (element: Element): string[] =>
  element.getAttributeNames().sort((a, b) => a.localeCompare(b));

describe('a task row’s icons', () => {
  it('are an SVG and a path without presentation attributes, inside a named control', async () => {
    await startWiredApp({
      prepare: (wired) => void seedHistory(wired, 12, (i) => ({ favourite: i === 0 })),
    });
    const rows = screen.getAllByRole('article');
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      const icons = [...row.querySelectorAll('svg')];
      // The row's own buttons: pick, copy id, details, remove at least.
      expect(icons.length).toBeGreaterThanOrEqual(4);
      for (const icon of icons) {
        expect(names(icon)).toEqual(SVG_ATTRIBUTES);
        expect(icon.getAttribute('aria-hidden')).toBe('true');
        expect(icon.classList.contains('icon')).toBe(true);
        expect([...icon.children].map((child) => child.tagName)).toEqual(['path']);
        expect(names(icon.firstElementChild!)).toEqual(PATH_ATTRIBUTES);
      }
      for (const button of within(row).getAllByRole('button')) {
        if (!button.querySelector('svg') || button.textContent?.trim()) continue;
        const label = button.getAttribute('aria-label') ?? '';
        expect(label.trim()).not.toBe('');
        expect(button.getAttribute('title')).toBe(label);
      }
    }
    // The picked task's flag is drawn filled, the others' stroked.
    const flags = rows.map((row) => within(row).getByRole('button', { name: 'Pick' }));
    const filled = flags.map((flag) =>
      flag.querySelector('svg')!.classList.contains('icon--filled'),
    );
    expect(filled).toEqual(rows.map((_, index) => index === 0));
  });
});
