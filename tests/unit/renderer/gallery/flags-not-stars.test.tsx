/**
 * Flags are flags, ratings are stars: a pick and a reject show as flags (a filled flag,
 * a struck-through one), never a star, and are named Pick and Reject — on the tile, in the
 * filter, on the selection bar, in the grid's help and the keys sheet — in English, German and
 * Arabic, with the real catalogues. The keys sheet says what the keys do in code.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { triageKeyOf } from '../../../../renderer/lib/triage-keys';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { keyOf, seriousViolations, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

const renderWired = wiredGallery();

/** The star's outline in components/icon.tsx: a flag must not be drawn with it. */
const STAR_PATH = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z';

/** Image 0 picked, image 1 rejected, image 2 rated ★3 and not flagged. */
function seedFlags(main: WiredApi): void {
  seedGallery(main, 3, (index) => ({
    favourite: index === 0,
    images: [
      makeImage(0, {
        file: `g/${String(index)}.png`,
        thumbnail: `g/${String(index)}.thumb.webp`,
        ...(index === 0 ? { favourite: true } : {}),
        ...(index === 1 ? { flag: 'reject' as const } : {}),
        ...(index === 2 ? { rating: 3 } : {}),
      }),
    ],
  }));
}

interface Words {
  readonly tag: 'en' | 'de' | 'ar';
  readonly pick: string;
  readonly reject: string;
  readonly pickButton: string;
  readonly rejectButton: string;
  readonly unflagButton: string;
  readonly picksOnly: string;
  /** The Shift key as the language's help names it. */
  readonly shift: string;
  /** Words of the old "favourite" that no label may still carry. */
  readonly favourite: RegExp;
}

const LANGUAGES: readonly Words[] = [
  {
    tag: 'en',
    pick: 'Pick',
    reject: 'Reject',
    pickButton: 'Pick',
    rejectButton: 'Reject',
    unflagButton: 'Unflag',
    picksOnly: 'Picks only',
    shift: 'Shift',
    favourite: /favou?rite/i,
  },
  {
    tag: 'de',
    pick: 'Ausgewählt',
    reject: 'Abgelehnt',
    pickButton: 'Markieren',
    rejectButton: 'Ablehnen',
    unflagButton: 'Markierung entfernen',
    picksOnly: 'Nur ausgewählte',
    shift: 'Umschalt',
    favourite: /favorit/i,
  },
  {
    tag: 'ar',
    pick: 'مختارة',
    reject: 'مرفوضة',
    pickButton: 'اختيار',
    rejectButton: 'رفض',
    unflagButton: 'إزالة العلامة',
    picksOnly: 'المختارة فقط',
    shift: 'Shift',
    favourite: /مفضل/,
  },
];

afterEach(async () => {
  await act(() => applyLocale('en'));
  document.documentElement.dir = 'ltr';
});

/** The keys of the tiles whose accessible name (the grid cell's, from its content) has `words`. */
function cellsNamed(words: string | RegExp): string[] {
  const pattern = typeof words === 'string' ? new RegExp(words) : words;
  return screen
    .queryAllByRole('gridcell', { name: pattern })
    .map((cell) => cell.dataset['key'] ?? '');
}

/** The mark on a tile with this name, and that it is a flag's drawing, never a star. */
function flagMark(key: string, name: string): HTMLElement {
  const mark = within(tile(key)).getByRole('img', { name });
  expect(mark.textContent).not.toContain('★');
  const path = mark.querySelector('svg path')?.getAttribute('d');
  expect(path).toBeTruthy();
  expect(path).not.toBe(STAR_PATH);
  return mark;
}

describe('flags, not stars', () => {
  for (const words of LANGUAGES) {
    it(`names and draws a pick and a reject as flags, apart from the stars (${words.tag})`, async () => {
      await act(() => applyLocale(words.tag));
      const { user, main } = await renderWired({ prepare: seedFlags });

      // The tile: a filled flag named Pick, a struck-through one named Reject, stars for a rating.
      const pick = flagMark(keyOf(0), words.pick);
      expect(pick.querySelector('svg')?.classList.contains('icon--filled')).toBe(true);
      expect(cellsNamed(words.pick)).toEqual([keyOf(0)]);
      const reject = flagMark(keyOf(1), words.reject);
      expect(reject.className).not.toBe(pick.className);
      expect(cellsNamed(words.reject)).toEqual([keyOf(1)]);
      expect(within(tile(keyOf(2))).queryByRole('img', { name: words.pick })).toBeNull();
      expect(within(tile(keyOf(2))).getByText('★★★')).toBeTruthy();
      expect(cellsNamed(words.favourite)).toEqual([]);

      // The filter.
      expect(screen.getByRole('checkbox', { name: words.picksOnly })).toBeTruthy();

      // The selection bar: Pick and Reject, with a flag for an icon; Reject rejects them all.
      fireEvent.click(tile(keyOf(0)), { ctrlKey: true });
      fireEvent.click(tile(keyOf(2)), { ctrlKey: true });
      const bar = screen.getByRole('toolbar', { name: t('gallery.selection.label') });
      const pickButton = within(bar).getByRole('button', { name: words.pickButton });
      expect(pickButton.querySelector('svg path')?.getAttribute('d')).not.toBe(STAR_PATH);
      expect(bar.textContent).not.toMatch(words.favourite);
      await user.click(within(bar).getByRole('button', { name: words.rejectButton }));
      await waitFor(() =>
        expect(main.callsTo('triage:apply')).toEqual([
          {
            images: [0, 2].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 })),
            change: { kind: 'flag', flag: 'reject' },
          },
        ]),
      );
      await waitFor(() => flagMark(keyOf(2), words.reject));

      // The context menu of a rejected image: Pick and Unflag, not Reject.
      fireEvent.contextMenu(tile(keyOf(1)), { clientX: 20, clientY: 20 });
      const menu = screen.getByRole('menu');
      const entries = within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      expect(entries).toContain(words.pickButton);
      expect(entries).toContain(words.unflagButton);
      expect(entries).not.toContain(words.rejectButton);
      expect(menu.textContent).not.toMatch(words.favourite);
      expect(await seriousViolations()).toEqual([]);
    });

    it(`says P, X, U, 0–5 and Shift in the grid's help, never a favourite (${words.tag})`, async () => {
      await act(() => applyLocale(words.tag));
      await renderWired({ prepare: seedFlags });
      const grid = screen.getByRole('grid');
      const help = (grid.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ');
      expect(help).toContain(t('gallery.grid.help'));
      expect(help).not.toMatch(words.favourite);
      for (const key of ['P', 'X', 'U', '1', '5', '0', words.shift]) expect(help).toContain(key);
      // F is P's alias, named in the keys sheet only.
      expect(help).not.toMatch(/\bF\b/);
    });
  }

  it('the help and the keys sheet name P, X, U and digits 0–5 as the code reads them', async () => {
    await renderWired({ prepare: seedFlags });
    expect(screen.getByRole('grid').getAttribute('aria-describedby')).toBeTruthy();
    expect(t('gallery.grid.help')).toBe(
      'Arrow keys move between images and Enter opens one. P picks it, X rejects it, U unflags it, 1 to 5 rate it and 0 clears its rating (add Shift to move on to the next image). Delete moves it to the trash, and ? lists every key.',
    );
    act(() => useAppStore.getState().triageShowHelp(true));
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard' });
    const rows = new Map(
      Array.from(sheet.querySelectorAll('.keyboard-help__row')).map((row) => [
        row.querySelector('dd')?.textContent ?? '',
        row.querySelector('kbd')?.textContent ?? '',
      ]),
    );
    const flagOf = (keys: string) =>
      keys.split(', ').map((letter) => {
        const key = triageKeyOf({
          code: `Key${letter}`,
          key: letter.toLowerCase(),
          ctrlKey: false,
          metaKey: false,
          shiftKey: false,
          altKey: false,
          target: document.body,
        });
        return key?.command.kind === 'change' && key.command.change.kind === 'flag'
          ? key.command.change.flag
          : null;
      });
    expect(rows.get('Pick')).toBe('P, F');
    expect(flagOf(rows.get('Pick') ?? '')).toEqual(['pick', 'pick']);
    expect(flagOf(rows.get('Reject') ?? '')).toEqual(['reject']);
    expect(flagOf(rows.get('Unflag') ?? '')).toEqual(['none']);
    expect(rows.get(t('triage.help.rate'))).toBe('1 – 5');
    expect(rows.get(t('triage.help.clear'))).toBe('0');
    expect(rows.get(t('triage.help.advance'))).toBe('Shift');
    expect(sheet.textContent).not.toMatch(/favou?rite/i);
  });
});
