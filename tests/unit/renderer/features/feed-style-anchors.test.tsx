/**
 * No `:has()` rule is anchored on an element around the feeds' rows (the history's feed, the
 * gallery's grid) or on the feed itself. Chromium looks at a `:has()` anchor again whenever an
 * element is added below it, and the anchor's whole subtree was restyled: the history's
 * `.tasks-view__history:has(.selection-bar)` (and `.task-list__feed:has(.task-select:checked)`)
 * made every row the feed added as it scrolled restyle the whole history, about 800 elements a
 * frame (a trace of the ui bench's scroll: style 264 ms of the scroll's 5 s, 55 ms without). A
 * state the rows' surroundings show goes in a class set by the component that knows it (the
 * selection: `tasks-view__history--selecting`). Every stylesheet's `:has()` is read, and its
 * anchor (the compound it is part of) is tried on the feeds and every element around them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { giveSize } from '../layout-sizes';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { REPO_ROOT } from '../../../support/source-files';

const RENDERER = join(REPO_ROOT, 'renderer');

function stylesheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `text` split at `separator` where no parenthesis is open. */
function splitTopLevel(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at]!;
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (depth === 0 && separator.test(char)) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** `compound` without its `:has(…)` parts ('*' when nothing else is left). */
function withoutHas(compound: string): string {
  let out = '';
  let at = 0;
  while (at < compound.length) {
    if (compound.startsWith(':has(', at)) {
      let depth = 0;
      for (at += ':has'.length; at < compound.length; at += 1) {
        if (compound[at] === '(') depth += 1;
        else if (compound[at] === ')' && --depth === 0) break;
      }
      at += 1;
    } else {
      out += compound[at];
      at += 1;
    }
  }
  return out.trim() || '*';
}

/** Every `:has()` anchor in the renderer's stylesheets, with where it is written. */
function hasAnchors(): { anchor: string; selector: string; file: string }[] {
  const found: { anchor: string; selector: string; file: string }[] = [];
  for (const file of stylesheets(RENDERER)) {
    const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of css.matchAll(/([^{}]+)\{/g)) {
      const prelude = match[1]!.trim();
      if (prelude.startsWith('@') || !prelude.includes(':has(')) continue;
      for (const selector of splitTopLevel(prelude, /,/)) {
        // Compounds: split at the combinators (spaces, >, +, ~) outside parentheses.
        const compounds = splitTopLevel(selector.replace(/\s*([>+~])\s*/g, ' '), /\s/);
        for (const compound of compounds.filter((part) => part.includes(':has('))) {
          found.push({ anchor: withoutHas(compound), selector, file });
        }
      }
    }
  }
  return found;
}

/** The element and every element around it, up to the root. */
function itAndAround(element: Element): Element[] {
  const chain: Element[] = [];
  for (let at: Element | null = element; at; at = at.parentElement) chain.push(at);
  return chain;
}

describe('the feeds’ surroundings', () => {
  it('anchor no :has() rule: a row added as the feed scrolls restyles no more than itself', async () => {
    const anchors = hasAnchors();
    // The reading finds the rules there are (the batch card's own, the edit panel's), so an
    // empty list is no pass.
    expect(anchors.map(({ anchor }) => anchor)).toEqual(
      expect.arrayContaining(['.task-batch', '.task-tile']),
    );

    await startWiredApp({
      prepare: (wired) => void seedHistory(wired, 20, () => ({ images: [makeImage(0)] })),
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await act(() => useAppStore.getState().galleryLoad());
    act(() => useAppStore.getState().setView('gallery'));
    await waitFor(() => expect(document.querySelector('.gallery-grid [data-key]')).toBeTruthy());
    // A task selected: the selection bar and its class are there too.
    act(() => useAppStore.getState().tasksSelectClick('seed-000000', { ctrlKey: true }));
    await waitFor(() => expect(document.querySelector('.selection-bar')).toBeTruthy());

    const feeds = ['.task-list__feed', '.gallery-grid__rows'].map((selector) => {
      const feed = document.querySelector(selector);
      expect(feed, selector).toBeTruthy();
      return feed!;
    });
    const around = new Set(feeds.flatMap(itAndAround));
    const anchored = anchors.flatMap(({ anchor, selector, file }) =>
      [...around]
        .filter((element) => element.matches(anchor))
        .map(
          (element) =>
            `${selector} (${file.slice(RENDERER.length + 1)}) on <${element.tagName.toLowerCase()} class="${element.className}">`,
        ),
    );
    expect(anchored).toEqual([]);
  });

  it('learn of a selection from a class while anything is selected', async () => {
    await startWiredApp({ prepare: (wired) => void seedHistory(wired, 5) });
    const history = () => document.querySelector('.tasks-view__history')!;
    expect(history().classList.contains('tasks-view__history--selecting')).toBe(false);
    act(() => useAppStore.getState().tasksSelectClick('seed-000001', { ctrlKey: true }));
    await waitFor(() =>
      expect(history().classList.contains('tasks-view__history--selecting')).toBe(true),
    );
    expect(document.querySelector('.selection-bar')).toBeTruthy();
    act(() => useAppStore.getState().tasksClearSelection());
    await waitFor(() =>
      expect(history().classList.contains('tasks-view__history--selecting')).toBe(false),
    );
    expect(document.querySelector('.selection-bar')).toBeNull();
  });
});
