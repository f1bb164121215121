/**
 * A renderer test over the real main side (tests/support/wired-api.ts) checks the page only after
 * waiting on the page. Main's history is written by the history worker, another thread, and main
 * tells the page (its answer, its event) a moment later; a test that waits until main's state has
 * the change and then checks the page at once, without waiting, fails when its check falls in that
 * moment (task-batch-rows "gives each result a task's own actions" failed so once in a full run,
 * and every time with main's answer held back 300 ms). Wait on the page, then read main: it told
 * the page only after its own state had the change. This test finds a wait on main's state
 * followed at once by an assertion that is not awaited and does not read main.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** The start of a wait on a condition. */
const WAIT = /await\s+(?:vi\.)?(?:waitFor|expect\.poll)\(/g;
/** What reads main's own state (not the page's requests, which `callsTo` records as they leave). */
const READS_MAIN = /\.runtime\.|\bruntime\.core\b/;
/** What the next assertion may read at once: main's side (its state, the requests it took, the service's log). */
const MAIN_SIDE = /\bmain\.|\.runtime\.|\bservice\.log\b/;

/**
 * Assertions that the page kept something as it was (a typed model, the viewer's zoom) while main
 * wrote: they hold at any moment, so checking them at once cannot fail falsely. File, the
 * assertion's start.
 */
const KEPT_AS_IT_WAS: readonly (readonly [string, string])[] = [
  ['tests/unit/renderer/features/services.test.tsx', "expect(model).toHaveProperty('value'"],
  ['tests/unit/renderer/gallery/gallery-viewer.test.tsx', 'expect(scaleOf()).toBeCloseTo(0.5)'],
];
/** What reads the page. */
const READS_PAGE = /\b(?:screen|within|document|useAppStore)\b|\b(?:get|query|find)(?:All)?By/;

/** The text from `from` (just after an opening parenthesis) to its closing one. */
function closingFrom(text: string, from: number): number {
  let depth = 1;
  for (let at = from; at < text.length; at += 1) {
    const char = text[at];
    if (char === '(') depth += 1;
    else if (char === ')' && (depth -= 1) === 0) return at;
  }
  return text.length;
}

/** The statement that starts at `from`: up to its `;` outside any bracket. */
function statementFrom(text: string, from: number): string {
  let depth = 0;
  for (let at = from; at < text.length; at += 1) {
    const char = text[at]!;
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === ';' && depth === 0) return text.slice(from, at);
    if (depth < 0) return text.slice(from, at);
  }
  return text.slice(from);
}

/** Each wait on main's state followed at once by an assertion of something else, not awaited. */
function pageCheckedAfterMain(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(WAIT)) {
    const open = match.index + match[0].length;
    const close = closingFrom(text, open);
    const condition = text.slice(open, close);
    if (!READS_MAIN.test(condition) || READS_PAGE.test(condition)) continue;
    const end = text.indexOf(';', close);
    const next = statementFrom(text, end + 1)
      .replace(/^(?:\s|\/\/[^\n]*\n)*/, '')
      .trim();
    // An assertion that awaits (a `findBy…` inside it) waits on the page itself.
    if (/^expect\(/.test(next) && !/\bawait\b/.test(next) && !MAIN_SIDE.test(next)) {
      found.push(next.split('\n')[0]!);
    }
  }
  return found;
}

describe('a renderer test over main', () => {
  it('recognises a page checked at once after a wait on main, and leaves the right order alone', () => {
    const late = [
      `await waitFor(() => expect(main.runtime.core.history.get(id)?.favourite).toBe(true));
       expect(within(third).getByRole('button').getAttribute('aria-pressed')).toBe('true');`,
      `await waitFor(() => expect(main.runtime.core.history.get(id)).toBeUndefined());
       // The page follows.
       expect(tiles()).toHaveLength(9);`,
      `await expect.poll(() => main.runtime.settings.get().provider).toBe('fal');
       expect(screen.getByRole('combobox')).toBeTruthy();`,
    ];
    for (const text of late) expect(pageCheckedAfterMain(text), text).toHaveLength(1);
    const fine = [
      `await waitFor(() => expect(tiles()).toHaveLength(9));
       expect(main.runtime.core.history.get(id)).toBeUndefined();`,
      `await waitFor(() => expect(main.runtime.core.history.list().items).toHaveLength(3));
       expect(main.runtime.core.history.get(id)?.status).toBe('completed');`,
      `await waitFor(() => expect(main.runtime.core.templates.list()).toEqual([]));
       await waitFor(() => expect(useAppStore.getState().templates).toEqual([]));`,
      `await waitFor(() => expect(main.runtime.core.templates.byName('P')).toBeTruthy());
       const saved = main.runtime.core.templates.byName('P')!.template!;`,
      `await waitFor(() => expect(main.runtime.core.history.get(id)?.images[0]?.rating).toBe(4));
       expect(await within(dialog).findByAltText('Prompt number 2')).toBeTruthy();`,
      `await waitFor(() => expect(main.runtime.core.history.get(id)?.favourite).toBe(false));
       expect(main.callsTo('tasks:setFavouriteMany')).toEqual([]);`,
    ];
    for (const text of fine) expect(pageCheckedAfterMain(text), text).toEqual([]);
  });

  it('checks the page after waiting on the page, in every renderer test', () => {
    const files = repositoryFiles(['tests/unit/renderer'], /\.test\.tsx?$/);
    const found = files.flatMap((path) => {
      const kept = (check: string) =>
        KEPT_AS_IT_WAS.some(([where, start]) => where === path && check.startsWith(start));
      return pageCheckedAfterMain(readFileSync(join(REPO_ROOT, path), 'utf8'))
        .filter((check) => !kept(check))
        .map((check) => `${path}: ${check}`);
    });
    expect(found).toEqual([]);
  });
});
