/**
 * A date filter is one field, written the way the user's language writes a day: empty, it shows
 * the form of a day in letters (a real day there would read as a filter in use); it reads a day
 * typed in any order and digits the language writes it.
 */
import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { parseDay } from '../../../../renderer/lib/day-text';
import { useAppStore } from '../../../../renderer/store/app-store';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const nav = (): HTMLElement => screen.getByRole('navigation', { name: 'Main' });

describe('the date filters', () => {
  it('show the form of a day in letters while empty, in the user’s language', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    await user.click(within(nav()).getByRole('button', { name: 'Gallery' }));
    const from = await screen.findByLabelText('From');
    expect(from.getAttribute('placeholder')).toBe('MM/DD/YYYY');
    expect(screen.getByLabelText('To').getAttribute('placeholder')).toBe('MM/DD/YYYY');
    await act(() => applyLocale('de'));
    expect((await screen.findByLabelText('Von')).getAttribute('placeholder')).toBe('TT.MM.JJJJ');
  });
});

describe('a date filter', () => {
  it('is one field, written in the language’s order and digits', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    await act(() => applyLocale('de'));
    act(() => useAppStore.getState().setView('gallery'));
    const from = await screen.findByLabelText('Von');
    expect(from.getAttribute('type')).toBe('text');
    // Empty, it shows the form of a day in letters (above).
    expect(from.getAttribute('placeholder')).toBe('TT.MM.JJJJ');
    await user.type(from, '14.1.2026{Enter}');
    expect(useAppStore.getState().galleryFilters.from).toBe('2026-01-14');
    expect((from as HTMLInputElement).value).toBe('14.01.2026');
    await user.clear(from);
    await user.type(from, '31.02.2026{Enter}');
    expect(screen.getByText(/31\.12\.\d{4}/, { selector: '.field__error' })).toBeTruthy();
    expect(useAppStore.getState().galleryFilters.from).toBe('2026-01-14');
  });

  it('reads a day in any order and digits a language writes it', () => {
    const arabic = ['٠', '١', '٢', '٣', '٤', '٥', '٦', '٧', '٨', '٩'];
    expect(parseDay('٣١/١٢/٢٠٢٥', ['day', 'month', 'year'], arabic)).toBe('2025-12-31');
    expect(parseDay('12/31/2025', ['month', 'day', 'year'], arabic)).toBe('2025-12-31');
    expect(parseDay('2025-12-31', ['day', 'month', 'year'], arabic)).toBe('2025-12-31');
    expect(parseDay('2025/1/2', ['year', 'month', 'day'], arabic)).toBe('2025-01-02');
    expect(parseDay('', ['day', 'month', 'year'], arabic)).toBe('');
    expect(parseDay('31/02/2025', ['day', 'month', 'year'], arabic)).toBeNull();
    expect(parseDay('yesterday', ['day', 'month', 'year'], arabic)).toBeNull();
  });
});
