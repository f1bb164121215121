/**
 * The task list's Reject, over main's real handlers and history: a row's flag rejects every image
 * of its task, and the selection bar's every image of the selected tasks, each as one triage step
 * said in the status area and taken back by the window's one Undo (Ctrl+Z with the focus on the
 * page), and a batch tile's of its own task; a rejected task's flag is pressed and the bar
 * offers Unflag; named in English, German and Arabic with the real catalogues; axe finds nothing
 * serious.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { flagOf } from '../../../../shared/domain/triage';
import { applyLocale, t } from '../../../../renderer/i18n';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seriousViolations } from '../axe-check';
import { seedHistory, startWiredApp } from '../render-wired-app';

const LANGUAGES = [
  { tag: 'en', reject: 'Reject', unflag: 'Unflag' },
  { tag: 'de', reject: 'Ablehnen', unflag: 'Markierung entfernen' },
  { tag: 'ar', reject: 'رفض', unflag: 'إزالة العلامة' },
] as const;

afterEach(async () => {
  await act(() => applyLocale('en'));
  document.documentElement.dir = 'ltr';
});

const idOf = (n: number) => `seed-${String(n).padStart(6, '0')}`;
/** Each image's flag of task `n`, as main's history has it. */
const flags = (main: WiredApi, n: number) =>
  (main.runtime.core.history.get(idOf(n))?.images ?? []).map((image) => flagOf(image));

/** Ctrl+Z with the focus on the page itself. */
function undoFromBody(): void {
  act(() => (document.activeElement as HTMLElement | null)?.blur());
  fireEvent.keyDown(document.body, { key: 'z', code: 'KeyZ', ctrlKey: true });
}

const rows = () => screen.getAllByRole('article');

describe('the task list’s Reject', () => {
  for (const words of LANGUAGES) {
    it(`rejects a task’s images from its row and from the selection, each undone by Ctrl+Z (${words.tag})`, async () => {
      const { user, main } = await startWiredApp({
        prepare: (wired) =>
          void seedHistory(wired, 3, (i) => ({
            images: i === 2 ? [makeImage(0)] : [makeImage(0), makeImage(1)],
          })),
      });
      await act(() => applyLocale(words.tag));
      await waitFor(() => expect(rows()).toHaveLength(3));

      // A row's flag: both images of the first task, one step.
      const flag = () => within(rows()[0]!).getByRole('button', { name: words.reject });
      expect(flag().getAttribute('aria-pressed')).toBe('false');
      await user.click(flag());
      await waitFor(() => expect(flags(main, 0)).toEqual(['reject', 'reject']));
      expect(await screen.findByText(t('triage.rejected', { count: 2 }))).toBeTruthy();
      await waitFor(() => expect(flag().getAttribute('aria-pressed')).toBe('true'));
      expect(flags(main, 1)).toEqual(['none', 'none']);
      undoFromBody();
      await waitFor(() => expect(flags(main, 0)).toEqual(['none', 'none']));
      await waitFor(() => expect(flag().getAttribute('aria-pressed')).toBe('false'));

      // The selection's: every image of the two selected tasks, one step, one Undo.
      for (const n of [1, 2]) {
        await user.click(
          within(rows()[n]!).getByRole('checkbox', { name: t('tasks.select.task') }),
        );
      }
      const bar = screen.getByRole('toolbar', { name: t('tasks.selection.label') });
      await user.click(within(bar).getByRole('button', { name: words.reject }));
      await waitFor(() =>
        expect([flags(main, 1), flags(main, 2)]).toEqual([['reject', 'reject'], ['reject']]),
      );
      expect(await screen.findByText(t('triage.rejected', { count: 3 }))).toBeTruthy();
      // All of them rejected: the bar takes the flags off instead.
      const unflag = await within(bar).findByRole('button', { name: words.unflag });
      expect(await seriousViolations()).toEqual([]);
      undoFromBody();
      await waitFor(() =>
        expect([flags(main, 1), flags(main, 2)]).toEqual([['none', 'none'], ['none']]),
      );
      expect(flags(main, 0)).toEqual(['none', 'none']);
      await waitFor(() => expect(unflag.textContent).toBe(words.reject));
    });
  }

  it('unflags a rejected task from its row, and shows no flag on a task without images', async () => {
    const { user, main } = await startWiredApp({
      prepare: (wired) =>
        void seedHistory(wired, 2, (i) => ({
          images: i === 0 ? [makeImage(0, { flag: 'reject' })] : [],
        })),
    });
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(within(rows()[1]!).queryByRole('button', { name: 'Reject' })).toBeNull();
    const flag = within(rows()[0]!).getByRole('button', { name: 'Reject' });
    expect(flag.getAttribute('aria-pressed')).toBe('true');
    await user.click(flag);
    await waitFor(() => expect(flags(main, 0)).toEqual(['none']));
    expect(await screen.findByText('Unflagged 1 image.')).toBeTruthy();
  });

  it('rejects one task of a batch from its tile, and Ctrl+Z takes it back', async () => {
    const { user, main } = await startWiredApp({
      prepare: (wired) =>
        void seedHistory(wired, 3, () => ({
          batchId: idOf(0),
          prompt: 'A batch of boats',
          images: [makeImage(0)],
        })),
    });
    const tiles = () => [...document.querySelectorAll<HTMLElement>('.task-tile')];
    await waitFor(() => expect(tiles()).toHaveLength(3));
    const tile = tiles().find((each) => each.dataset.localId === idOf(1))!;
    await user.click(within(tile).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(flags(main, 1)).toEqual(['reject']));
    expect([flags(main, 0), flags(main, 2)]).toEqual([['none'], ['none']]);
    await waitFor(() =>
      expect(
        within(tile).getByRole('button', { name: 'Reject' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    undoFromBody();
    await waitFor(() => expect(flags(main, 1)).toEqual(['none']));
  });
});
