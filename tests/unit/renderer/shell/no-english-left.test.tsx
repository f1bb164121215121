/**
 * No English is left on the screens of the main flows in German and Arabic: every text the window
 * shows (text, accessible names, tooltips, placeholders, alternative text) on the tasks screen with
 * a task of every state, a row's first action, the gallery, the Costs screen and Settings (its
 * prices, caps and every service's key form among them) is looked up in the English catalogues (the window's and
 * main's sentences); one that is English there and is no text of the language's catalogues is a
 * leftover: a key the language lacks, or a sentence the code spelled in English. What is the same
 * in both languages (Pictor, fal.ai, a model's id, the user's prompts) is never a leftover.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { englishLeft, languageTexts } from './english-left';

const everyStatus = (i: number) =>
  [
    { status: 'submitting' as const, taskId: null },
    { status: 'processing' as const, finishedAt: null },
    { status: 'completed' as const, images: [makeImage(0), makeImage(1, { state: 'expired' })] },
    {
      status: 'failed' as const,
      error: { kind: 'task_failed' as const, message: 'Refused.', detail: 'x' },
    },
    { status: 'submit_unknown' as const, taskId: null },
    { status: 'processing' as const, hold: 'timed_out' as const },
    { status: 'not_found' as const },
  ][i % 7]!;

afterEach(async () => {
  await act(() => applyLocale('en'));
});

describe.each(['de', 'ar'])('in %s, no English is left', { timeout: 120_000 }, (tag) => {
  it('on the tasks screen, a row’s first action, the gallery, Costs and Settings', async () => {
    const { user } = await startWiredApp({
      prepare: (main) => void seedHistory(main, 14, everyStatus),
    });
    await act(() => applyLocale(tag));
    const language = languageTexts(tag);
    const found = new Map<string, string>();
    await waitFor(() => expect(screen.getAllByRole('article').length).toBeGreaterThan(0));
    englishLeft(language, 'tasks', found);
    const row = screen.getAllByRole('article')[2]!;
    await user.click(within(row).getAllByRole('button')[0]!);
    englishLeft(language, 'tasks, a row’s first action', found);
    await user.keyboard('{Escape}');
    for (const view of ['gallery', 'costs', 'settings'] as const) {
      act(() => useAppStore.getState().setView(view));
      await waitFor(() => expect(useAppStore.getState().view).toBe(view));
      await screen.findByRole('heading', { level: 1 });
      englishLeft(language, view, found);
    }
    expect(Object.fromEntries(found)).toEqual({});
  });
});
