/**
 * What a task row says, word by word, in the user's language: the quality by its name (not the
 * raw `auto`), numbers in the language's own digits wherever they appear (a plain `{n}` as much
 * as a plural's `#`), and the service's own words quoted in a box of their own direction, so a
 * row cuts them at their end in a left-to-right and a right-to-left window alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  applyLocale,
  catalogue,
  errorText,
  formatDimensions,
  formatSize,
  t,
} from '../../../../renderer/i18n';
import { mainMessages } from '../../../../shared/i18n/main-messages';
import { REPO_ROOT } from '../../../support/source-files';
import { makeTask } from '../../../support/task-records';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const LATIN_DIGIT = /[0-9]/;

describe('a task row’s words', () => {
  it('names the quality in the shown language, in the row and in the details', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        main.runtime.core.history.putMany([
          makeTask({
            localId: 'q-1',
            status: 'completed',
            request: { prompt: 'a quiet harbour', size: '1024x1024', quality: 'auto' },
          }),
        ]),
    });
    await act(() => applyLocale('de'));
    const row = screen.getByRole('article');
    expect(row.textContent).toContain('Automatisch');
    expect(row.textContent).not.toMatch(/\bauto\b/);
    await user.click(within(row).getByRole('button', { name: t('tasks.action.details') }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('Automatisch');
    expect(dialog.textContent).not.toMatch(/\bauto\b/);
  });

  it('writes every number in the language’s digits: plain arguments, plurals, sizes', async () => {
    // Persian writes its own digits in this engine (Chromium's Arabic does too; Node's does not).
    await applyLocale('fa');
    const own = new Intl.NumberFormat('fa').format(300);
    expect(own).not.toMatch(LATIN_DIGIT);
    const position = t('viewer.position', { index: 3, count: 300 });
    expect(position).toContain(own);
    expect(position).not.toMatch(LATIN_DIGIT);
    expect(t('gallery.count', { count: 300 })).toContain(own);
    const plain = new Intl.NumberFormat('fa', { useGrouping: false });
    expect(formatSize('1024x1536')).toBe(`${plain.format(1024)}×${plain.format(1536)}`);
    expect(formatSize('1024x1536')).not.toMatch(LATIN_DIGIT);
    // A value that is not a number is shown as written.
    expect(formatSize('hd-wide')).toBe('hd-wide');
    await applyLocale('en');
    expect(t('viewer.position', { index: 3, count: 3000 })).toBe('Image 3 of 3,000');
  });

  it('writes a width and height one way wherever a size is shown, in every language', async () => {
    // The request's size, the image's facts, the edit source's and a mask's: one formatter.
    for (const tag of ['en', 'de', 'fa', 'en-XA']) {
      await applyLocale(tag);
      const size = formatSize('1536x1024');
      expect(formatDimensions(1536, 1024)).toBe(size);
      expect(t('viewer.dimensionsValue', { size: formatDimensions(1536, 1024) })).toContain(size);
      expect(size).not.toMatch(/[,.\s\u00a0\u202f\u066c]/);
      // Main's sentences (a mask of the wrong size) write theirs the same way.
      expect(
        errorText({
          message: 'mask',
          sentence: { key: 'error.edit.maskSize', params: { maskSize: '1536x1024', size: '9x9' } },
        }),
      ).toContain(size);
    }
    // No message writes the two numbers itself: each takes the formatter's `{size}` whole.
    const locales = (folder: string) =>
      readdirSync(resolve(REPO_ROOT, folder)).map(
        (file) =>
          JSON.parse(readFileSync(resolve(REPO_ROOT, folder, file), 'utf8')) as Record<
            string,
            string
          >,
      );
    const all = [
      catalogue as Record<string, string>,
      mainMessages as Record<string, string>,
      ...locales('renderer/i18n/locales'),
      ...locales('shared/i18n/main-locales'),
    ];
    const apart = all.flatMap((messages) =>
      Object.entries(messages).filter(([, text]) =>
        /\{\w*width\}[^{}]{0,4}\{\w*height\}/i.test(text),
      ),
    );
    expect(apart).toEqual([]);
  });

  it('quotes the service’s own words in an isolated box of their own direction', async () => {
    await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        main.runtime.core.history.putMany([
          makeTask({
            localId: 'said-1',
            status: 'failed',
            error: { kind: 'task_failed', message: 'Content policy violation' },
          }),
        ]),
    });
    await act(() => applyLocale('ar'));
    const row = screen.getByRole('article');
    const quote = row.querySelector('q.task-row__quote');
    expect(quote?.textContent).toBe('Content policy violation');
    expect(quote?.getAttribute('dir')).toBe('auto');
    // The lead-in is Pictor's, in Arabic, outside the quoted box.
    const line = quote?.closest('.task-row__sentence');
    expect(line?.textContent).toContain(t('tasks.failed.serviceSaid'));
    expect(line?.getAttribute('title')).toContain('Content policy violation');
  });
});
