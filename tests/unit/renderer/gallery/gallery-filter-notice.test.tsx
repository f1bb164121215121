/**
 * The gallery's filters stay when the sidebar's view changes (a search narrows whichever view is
 * shown), and never silently: a line above the grid names the filters in use besides the view
 * and how many images they leave, with a button that clears them and keeps the view. Over the
 * app's real main, in English, German and Arabic.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { WiredApi } from '../../../support/wired-api';
import { keyOf } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

const renderWired = wiredGallery();

afterEach(async () => {
  await act(() => applyLocale('en'));
});

/** Six images, foxes and whales by turns; images 1 to 4 rejected. */
async function library(main: WiredApi): Promise<void> {
  seedGallery(main, 6, (n) => ({ prompt: n % 2 === 1 ? 'a red fox' : 'a blue whale' }));
  await main.runtime.core.triage.apply(
    [1, 2, 3, 4].map((n) => ({ localId: `seed-${String(n).padStart(6, '0')}`, index: 0 })),
    { kind: 'flag', flag: 'reject' },
  );
}

const cells = (): string[] =>
  screen.queryAllByRole('gridcell').map((cell) => cell.dataset['key'] ?? '');
const notice = (): HTMLElement | null => document.querySelector('.gallery__filter-notice');

describe('filters across the sidebar’s views', () => {
  it.each([
    {
      tag: 'en',
      rejected: /^Rejected/,
      one: 'Filters in use: search “fox”. Shown: 2 images.',
      clear: 'Clear these filters',
    },
    {
      tag: 'de',
      rejected: /^Abgelehnt/,
      one: 'Aktive Filter: Suche „fox“. Angezeigt: 2 Bilder.',
      clear: 'Diese Filter entfernen',
    },
    {
      tag: 'ar',
      rejected: /^المرفوضة/,
      one: 'عوامل التصفية المستخدمة: البحث «fox». المعروض: صورتان.',
      clear: 'مسح عوامل التصفية هذه',
    },
  ])('say which filters narrow the view and clear them keeping it ($tag)', async (test) => {
    await act(() => applyLocale(test.tag));
    const { user } = await renderWired({ prepare: library });
    await waitFor(() => expect(cells()).toHaveLength(6));
    // No filter besides the view: no line.
    expect(notice()).toBeNull();
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({ search: 'fox' });
    });
    await waitFor(() => expect(cells()).toEqual([1, 3, 5].map(keyOf)));
    // To the Rejected view: the search stays, and says so with what it leaves.
    await user.click(screen.getByRole('treeitem', { name: test.rejected }));
    await waitFor(() => expect(cells()).toEqual([1, 3].map(keyOf)));
    await waitFor(() => expect(notice()?.firstElementChild?.textContent).toBe(test.one));
    await user.click(within(notice()!).getByRole('button', { name: test.clear }));
    // The view stays; its other filters go, and the line with them.
    await waitFor(() => expect(cells()).toEqual([1, 2, 3, 4].map(keyOf)));
    expect(notice()).toBeNull();
    const filters = useAppStore.getState().galleryFilters;
    expect([filters.rejected, filters.search]).toEqual([true, '']);
    expect(
      screen.getByRole('treeitem', { name: test.rejected }).getAttribute('aria-selected'),
    ).toBe('true');
  });

  it('a purge from the sidebar says how many of the rejects it moves are not shown', async () => {
    const { user } = await renderWired({ prepare: library });
    await waitFor(() => expect(cells()).toHaveLength(6));
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({ search: 'fox' });
    });
    await waitFor(() => expect(cells()).toEqual([1, 3, 5].map(keyOf)));
    const all = screen.getByRole('treeitem', { name: /^All images/ });
    act(() => all.focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: 'Purge rejects…' }));
    // The library's four rejects, two of them hidden by the search: said, not silently moved.
    const ask = await screen.findByRole('alertdialog', {
      name: 'Move 4 rejected images to the trash?',
    });
    expect(ask.textContent).toContain('Not shown by the gallery’s current view and filters: 2.');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    // With nothing hidden, nothing said.
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({ search: '' });
    });
    await waitFor(() => expect(cells()).toHaveLength(6));
    act(() => all.focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const again = await screen.findByRole('menu');
    await user.click(within(again).getByRole('menuitem', { name: 'Purge rejects…' }));
    const plain = await screen.findByRole('alertdialog', {
      name: 'Move 4 rejected images to the trash?',
    });
    expect(plain.textContent).not.toContain('Not shown');
  });

  it('names every filter in use, in the bar’s order', async () => {
    await renderWired({ prepare: library });
    await waitFor(() => expect(cells()).toHaveLength(6));
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({
        search: 'fox',
        favouriteOnly: true,
        rating: 3,
        from: '2026-01-01',
      });
    });
    await waitFor(() =>
      expect(notice()?.firstElementChild?.textContent).toBe(
        'Filters in use: search “fox”, Picks only, ★3 or more, and From. Shown: 0 images.',
      ),
    );
  });
});
