/**
 * The keyboard path is short: keys in the window switch screens (and say so in the sidebar), a
 * few Tabs lead from the prompt to the first task, Up in an empty prompt recalls the last one
 * sent, an unsent prompt survives a restart, and a date filter is one field written the way the
 * user's language writes a day.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { parseDay } from '../../../../renderer/lib/day-text';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { giveSize } from '../render-app';
import { restartWiredApp, seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const prompt = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Prompt' });
const navButton = (name: string): HTMLElement =>
  within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name });

describe('the keyboard path', () => {
  it('Ctrl+1, 2 and 4 switch screens from anywhere, and the sidebar says so', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    expect(navButton('Gallery').getAttribute('title')).toBe('Gallery (Ctrl+2)');
    // Settings is last in the sidebar (walk4/small-items.test.tsx): its key is the fourth.
    expect(navButton('Settings').getAttribute('aria-keyshortcuts')).toBe('Control+4');
    await user.keyboard('{Control>}2{/Control}');
    expect(useAppStore.getState().view).toBe('gallery');
    await user.keyboard('{Control>}4{/Control}');
    expect(useAppStore.getState().view).toBe('settings');
    await user.keyboard('{Control>}1{/Control}');
    expect(useAppStore.getState().view).toBe('tasks');
  });

  it('takes at most nine Tabs from the prompt to the first task', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (m) => void seedHistory(m, 3),
    });
    act(() => prompt().focus());
    let tabs = 0;
    while (!document.activeElement?.matches('article[data-index]') && tabs < 30) {
      await user.tab();
      tabs += 1;
    }
    expect(document.activeElement?.getAttribute('aria-posinset')).toBe('1');
    expect(tabs).toBeLessThanOrEqual(9);
    // The filter chips are one toolbar: the arrows move inside it, to the service filter too.
    const chips = screen.getByRole('toolbar', { name: 'Filter by status' });
    const first = within(chips).getByRole('button', { name: 'In progress' });
    act(() => first.focus());
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(within(chips).getByRole('button', { name: 'Completed' }));
    act(() => within(chips).getByRole('button', { name: 'Picks' }).focus());
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(within(chips).getByRole('combobox', { name: 'Service' }));
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(within(chips).getByRole('button', { name: 'Picks' }));
    // The compose form's service is before the prompt: one Shift+Tab back, none on the way on.
    act(() => prompt().focus());
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(
      within(screen.getByRole('form', { name: 'New task' })).getByRole('combobox', {
        name: 'Service',
      }),
    );
  });

  it('takes at most fifteen Tabs from the Gallery button to the first image', async () => {
    const { user } = await startWiredApp({
      main: fileMain,
      prepare: (m) =>
        void seedHistory(m, 3, (index) => ({
          images: [makeImage(0, { file: `g/${String(index)}.png` })],
        })),
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(navButton('Gallery'));
    const grid = await screen.findByRole('grid', { name: 'Images' });
    await waitFor(() => expect(within(grid).getAllByRole('gridcell')).toHaveLength(3));
    act(() => navButton('Gallery').focus());
    const stops: string[] = [];
    while (!document.activeElement?.matches('[role="gridcell"]') && stops.length < 40) {
      await user.tab();
      const at = document.activeElement;
      stops.push(at?.getAttribute('aria-label') ?? at?.textContent ?? '');
    }
    expect(document.activeElement?.getAttribute('data-index')).toBe('0');
    // The header's twelve (the Rating filter is one; "Edit a file…" the one that images as
    // inputs added), and the boards sidebar's three: its
    // toolbar, its library's tree (no boards yet, so no boards' tree) and Save as smart board.
    expect(stops.length, stops.join(' | ')).toBeLessThanOrEqual(15);
    // The sidebar is one stop, the current screen: the arrows move between its buttons.
    act(() => navButton('Gallery').focus());
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(navButton('Costs'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(navButton('Tasks'));
    // The on/off filters are one stop too.
    const checks = screen.getByRole('toolbar', { name: 'Filter the gallery' });
    act(() => within(checks).getByRole('checkbox', { name: 'Picks only' }).focus());
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement?.closest('label')?.textContent).toMatch(/Content Credentials/);
    // The service filter is in that toolbar too.
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(within(checks).getByRole('combobox', { name: 'Service' }));
  });

  it('Up in an empty prompt recalls what was sent, older with each Up, newer with Down', async () => {
    const { user, main } = await startWiredApp({ main: fileMain });
    for (const text of ['a fox in snow', 'a harbour at dawn']) {
      await user.type(prompt(), `${text}{Enter}`);
      await waitFor(() => expect(prompt().value).toBe(''));
    }
    // Both went to main as tasks.
    expect(main.callsTo('tasks:submit').map((call) => call.request.prompt)).toEqual([
      'a fox in snow',
      'a harbour at dawn',
    ]);
    await user.keyboard('{ArrowUp}');
    expect(prompt().value).toBe('a harbour at dawn');
    await user.keyboard('{ArrowUp}');
    expect(prompt().value).toBe('a fox in snow');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(prompt().value).toBe('');
    // Typed text is the user's: the arrows move the caret, nothing is replaced.
    await user.type(prompt(), 'my own');
    await user.keyboard('{ArrowUp}');
    expect(prompt().value).toBe('my own');
  });

  it('keeps an unsent prompt, and the ones sent, across a restart', async () => {
    const first = await startWiredApp({ main: fileMain });
    await first.user.type(prompt(), 'sent before{Enter}');
    await waitFor(() => expect(prompt().value).toBe(''));
    await first.user.type(prompt(), 'a lighthouse, not sent yet');
    const second = await restartWiredApp(first);
    expect(prompt().value).toBe('a lighthouse, not sent yet');
    // The task went to main once, and the restarted page reads it back from main's history.
    expect(second.main.callsTo('tasks:submit').map((call) => call.request.prompt)).toEqual([
      'sent before',
    ]);
    const feed = screen.getByRole('feed', { name: 'Task history' });
    expect(await within(feed).findByText('sent before')).toBeTruthy();
    await second.user.clear(prompt());
    act(() => prompt().focus());
    await second.user.keyboard('{ArrowUp}');
    expect(prompt().value).toBe('sent before');
  });
});

describe('a date filter', () => {
  it('is one field, written in the language’s order and digits', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    await act(() => applyLocale('de'));
    act(() => useAppStore.getState().setView('gallery'));
    const from = await screen.findByLabelText('Von');
    expect(from.getAttribute('type')).toBe('text');
    // Empty, it shows the form of a day in letters (walk4/small-items.test.tsx).
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
