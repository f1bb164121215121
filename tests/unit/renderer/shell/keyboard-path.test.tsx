/**
 * The keyboard path is short: keys in the window switch screens (and say so in the sidebar), a
 * few Tabs lead from the prompt to the first task, Up in an empty prompt recalls the last one
 * sent, an unsent prompt survives a restart; Settings is last in the sidebar and the keys follow
 * its order (the application menu's Costs too).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { giveSize } from '../layout-sizes';
import { restartWiredApp, seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const prompt = (): HTMLTextAreaElement => screen.getByRole('textbox', { name: 'Prompt' });
const nav = (): HTMLElement => screen.getByRole('navigation', { name: 'Main' });
const navButton = (name: string): HTMLElement => within(nav()).getByRole('button', { name });

describe('the keyboard path', () => {
  it('Ctrl+1, 2 and 4 switch screens from anywhere, and the sidebar says so', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    expect(navButton('Gallery').getAttribute('title')).toBe('Gallery (Ctrl+2)');
    // Settings is last in the sidebar (below): its key is the fourth.
    expect(navButton('Settings').getAttribute('aria-keyshortcuts')).toBe('Control+4');
    await user.keyboard('{Control>}2{/Control}');
    expect(useAppStore.getState().view).toBe('gallery');
    await user.keyboard('{Control>}4{/Control}');
    expect(useAppStore.getState().view).toBe('settings');
    await user.keyboard('{Control>}1{/Control}');
    expect(useAppStore.getState().view).toBe('tasks');
  });

  it('are not for the screens while a dialog holds the window', async () => {
    const { user } = await startWiredApp({ main: fileMain });
    act(() => useAppStore.getState().promptHistoryShow(true));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    await user.keyboard('{Control>}2{/Control}{Control>},{/Control}');
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

describe('the sidebar', () => {
  it('has Settings last, and the keys follow its order', async () => {
    const { user, main } = await startWiredApp({ main: fileMain });
    // Each screen's own word: a task the file's earlier tests sent may still run on the shared
    // main, and Tasks then wears its count (a loaded run read 'Tasks11 task running').
    const names = within(nav())
      .getAllByRole('button')
      .map((button) => button.querySelector('.nav__text')?.textContent);
    expect(names).toEqual(['Tasks', 'Gallery', 'Costs', 'Settings']);
    const button = (name: string) => within(nav()).getByRole('button', { name });
    expect(button('Costs').getAttribute('aria-keyshortcuts')).toBe('Control+3');
    expect(button('Settings').getAttribute('title')).toBe('Settings (Ctrl+4)');
    await user.keyboard('{Control>}3{/Control}');
    expect(useAppStore.getState().view).toBe('costs');
    await user.keyboard('{Control>}4{/Control}');
    expect(useAppStore.getState().view).toBe('settings');
    // The application menu's View › Costs (Ctrl+3 there too).
    await act(async () => main.send('menu:command', { command: 'show-costs' }));
    expect(useAppStore.getState().view).toBe('costs');
  });
});
