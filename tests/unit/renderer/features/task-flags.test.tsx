/**
 * The task list's pick is a flag too: the filter chip, a row's toggle and the
 * selection bar's button are named Pick / Picks and drawn with a flag, never a star, in English,
 * German and Arabic, with the real catalogues; the bar's sentence says the tasks were picked; and
 * no two controls of a row share a name (German once named both the pick and the row's checkbox
 * "Auswählen").
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { seedHistory, startWiredApp } from '../render-wired-app';

/** The star's outline in components/icon.tsx. */
const STAR_PATH = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z';

const LANGUAGES = [
  { tag: 'en', chip: 'Picks', pick: 'Pick', unflag: 'Unflag', picked: '1 task picked.' },
  {
    tag: 'de',
    chip: 'Ausgewählt',
    pick: 'Markieren',
    unflag: 'Markierung entfernen',
    picked: '1 Aufgabe als ausgewählt markiert.',
  },
  {
    tag: 'ar',
    chip: 'المختارة',
    pick: 'اختيار',
    unflag: 'إزالة العلامة',
    picked: 'اختيرت مهمة واحدة.',
  },
] as const;

afterEach(async () => {
  await act(() => applyLocale('en'));
  document.documentElement.dir = 'ltr';
});

/** What a screen reader calls each button and checkbox of a row. */
function controlNames(row: HTMLElement): string[] {
  const controls = [
    ...within(row).queryAllByRole('button'),
    ...within(row).queryAllByRole('checkbox'),
  ];
  return controls.map((control) =>
    (control.getAttribute('aria-label') ?? control.textContent ?? '').trim(),
  );
}

const iconPath = (element: HTMLElement) => element.querySelector('svg path')?.getAttribute('d');

describe('the task list’s flags', () => {
  for (const words of LANGUAGES) {
    it(`names the pick Pick and draws it as a flag (${words.tag})`, async () => {
      const { user, main } = await startWiredApp({
        prepare: (wired) => void seedHistory(wired, 2, (i) => ({ favourite: i === 0 })),
      });
      await act(() => applyLocale(words.tag));
      const rows = () => screen.getAllByRole('article');
      await waitFor(() => expect(rows()).toHaveLength(2));

      const chip = await screen.findByRole('button', { name: words.chip });
      expect(iconPath(chip)).not.toBe(STAR_PATH);
      const picked = within(rows()[0]!).getByRole('button', { name: words.pick });
      expect(picked.getAttribute('aria-pressed')).toBe('true');
      expect(iconPath(picked)).not.toBe(STAR_PATH);
      expect(
        within(rows()[1]!).getByRole('button', { name: words.pick }).getAttribute('aria-pressed'),
      ).toBe('false');
      const names = controlNames(rows()[1]!);
      expect(new Set(names).size, `one name for two controls: ${names.join(' | ')}`).toBe(
        names.length,
      );

      // Select the unpicked task: the bar's button picks it, then takes the flag off.
      await user.click(within(rows()[1]!).getByRole('checkbox', { name: t('tasks.select.task') }));
      const bar = screen.getByRole('toolbar', { name: t('tasks.selection.label') });
      await user.click(within(bar).getByRole('button', { name: words.pick }));
      // Seeded tasks have no image yet: the pick is the task's own star.
      await waitFor(() => expect(main.callsTo('tasks:setFavouriteMany')).toHaveLength(1));
      expect(await screen.findByText(words.picked)).toBeTruthy();
      expect(await within(bar).findByRole('button', { name: words.unflag })).toBeTruthy();
    });
  }
});
