/**
 * A task row's icons cost one element each (components/icon.tsx): no SVG tree in any row, each
 * icon an empty, hidden element inside a control that carries its name (the label and tooltip of
 * an icon button). Their drawings are written once, into the window's one icon stylesheet: a rule
 * per icon drawn, whatever the number of rows, and again one sheet after the window starts over.
 */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { restartWiredApp, seedHistory, startWiredApp } from '../render-wired-app';

const rows = () => screen.getAllByRole('article');

/** The icon stylesheets in the document, and the selectors and text of their rules. */
function iconSheets(): { count: number; rules: { selector: string; text: string }[] } {
  const styles = [...document.querySelectorAll<HTMLStyleElement>('style[data-icons]')];
  const rules = styles.flatMap((style) =>
    [...(style.sheet?.cssRules ?? [])].map((rule) => ({
      selector: (rule as CSSStyleRule).selectorText,
      text: rule.cssText,
    })),
  );
  return { count: styles.length, rules };
}

/** Every drawn icon's own class (icon--NAME or icon--NAME-filled). */
const drawnClasses = (root: ParentNode): string[] =>
  [...root.querySelectorAll('.icon')].map(
    (icon) => [...icon.classList].find((name) => /^icon--[a-z]+(-filled)?$/.test(name)) ?? '',
  );

describe('a task row’s icons', () => {
  it('are one hidden element each, in a control that carries the name', async () => {
    await startWiredApp({ prepare: (wired) => void seedHistory(wired, 12) });
    const drawn = rows();
    expect(drawn.length).toBeGreaterThan(3);
    for (const row of drawn) {
      expect(row.querySelector('svg')).toBeNull();
      const icons = [...row.querySelectorAll<HTMLElement>('.icon')];
      // The row's own buttons: pick, copy id, details, remove at least.
      expect(icons.length).toBeGreaterThanOrEqual(4);
      for (const icon of icons) {
        expect(icon.childNodes).toHaveLength(0);
        expect(icon.getAttribute('aria-hidden')).toBe('true');
        expect(icon.dataset['icon']).toMatch(/^[a-z]+$/);
      }
      for (const button of within(row).getAllByRole('button')) {
        if (!button.querySelector('.icon') || button.textContent?.trim()) continue;
        const label = button.getAttribute('aria-label') ?? '';
        expect(label.trim()).not.toBe('');
        expect(button.getAttribute('title')).toBe(label);
      }
    }
  });

  it('draw from one stylesheet: a rule per icon drawn, written once, across a restart', async () => {
    const app = await startWiredApp({ prepare: (wired) => void seedHistory(wired, 12) });
    rows();
    const check = () => {
      const { count, rules } = iconSheets();
      expect(count).toBe(1);
      const selectors = rules.map((rule) => rule.selector);
      expect(new Set(selectors).size).toBe(selectors.length);
      for (const rule of rules)
        expect(rule.text).toMatch(/--icon: ?url\("?data:image\/svg\+xml,%3Csvg/);
      // Every icon in the window has its drawing's rule, and each rule serves many icons.
      const classes = drawnClasses(document);
      expect(classes.length).toBeGreaterThan(selectors.length);
      for (const name of classes) expect(selectors).toContain(`.${name}`);
    };
    check();
    await restartWiredApp(app);
    rows();
    check();
  });
});
