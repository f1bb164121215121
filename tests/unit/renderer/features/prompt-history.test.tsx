/**
 * The prompt history picker over the app's real wiring (main's SQLite prompt history, noted by
 * its engine's submits): Ctrl+Shift+H opens it from anywhere, a field included, and the menu's
 * command; typing searches; Up, Down and Enter put a prompt into the prompt box and nothing else
 * of the draft changes; Esc gives the focus back; Pin and Forget go through main; its keys act
 * only in its search field; in Arabic the window is right to left and the keys are the same.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { WiredApi } from '../../../support/wired-api';
import { startWiredApp } from '../render-wired-app';

const form = () => screen.getByRole('form', { name: 'New task' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' }) as HTMLTextAreaElement;
const picker = () => screen.queryByRole('dialog', { name: 'Prompt history' });
const search = () => within(picker()!).getByRole('combobox', { name: 'Search prompts' });
/** What a row says to assistive technology (its mouse-only buttons are hidden from it). */
const said = (option: Element | null | undefined) => {
  if (!option) return null;
  const copy = option.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return copy.textContent;
};
const options = () =>
  within(within(picker()!).getByRole('listbox')).queryAllByRole('option').map(said);
const active = () => {
  const id = search().getAttribute('aria-activedescendant');
  return id ? said(document.getElementById(id)) : null;
};
const OPEN = '{Control>}{Shift>}H{/Shift}{/Control}';

/** Main's prompt history as the CLI or earlier sessions left it, oldest first. */
function remembered(main: WiredApi, prompts: readonly string[], pinned: readonly string[] = []) {
  prompts.forEach((text, n) => main.runtime.core.history.prompts.note([text], 1_000 + n));
  for (const text of pinned) main.runtime.core.history.prompts.pin(text, true);
}

async function started(prompts: readonly string[], pinned: readonly string[] = []) {
  const app = await startWiredApp({ prepare: (main) => remembered(main, prompts, pinned) });
  return app;
}

afterEach(async () => {
  await act(() => applyLocale('en'));
});

describe('the prompt history picker', () => {
  it('opens from the prompt box with Ctrl+Shift+H, searches, and Enter fills only the prompt', async () => {
    const { user } = await started(
      ['a red fox', 'A RED barn', 'blue sea', 'old pinned'],
      ['old pinned'],
    );
    await user.click(within(form()).getByRole('combobox', { name: 'Model' }));
    useAppStore.getState().composeSetDraft({ model: 'model-kept', count: '3' });
    await user.click(prompt());
    await user.type(prompt(), 'draft text');
    await user.keyboard(OPEN);
    await waitFor(() => expect(picker()).toBeTruthy());
    expect(search()).toBe(document.activeElement);
    await waitFor(() =>
      expect(options()).toEqual(['Pinned old pinned', 'blue sea', 'A RED barn', 'a red fox']),
    );
    expect(active()).toBe('Pinned old pinned');
    await user.type(search(), 'red');
    await waitFor(() => expect(options()).toEqual(['A RED barn', 'a red fox']));
    expect(active()).toBe('A RED barn');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}{ArrowDown}');
    expect(active()).toBe('a red fox');
    await user.keyboard('{Enter}');
    expect(picker()).toBeNull();
    expect(prompt().value).toBe('a red fox');
    await waitFor(() => expect(document.activeElement).toBe(prompt()));
    const draft = useAppStore.getState().composeDraft;
    expect([draft.model, draft.count]).toEqual(['model-kept', '3']);
  });

  it('closes on Esc, gives the focus back and changes nothing', async () => {
    const { user } = await started(['kept out']);
    await user.click(prompt());
    await user.type(prompt(), 'mine');
    await user.keyboard(OPEN);
    await waitFor(() => expect(options()).toEqual(['kept out']));
    await user.keyboard('{Escape}');
    expect(picker()).toBeNull();
    expect(document.activeElement).toBe(prompt());
    expect(prompt().value).toBe('mine');
  });

  it('pins, unpins and forgets through main, and says when nothing matches', async () => {
    const { user, main } = await started(['first', 'second', 'third']);
    await user.keyboard(OPEN);
    await waitFor(() => expect(options()).toEqual(['third', 'second', 'first']));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(active()).toBe('first');
    await user.click(within(picker()!).getByRole('button', { name: 'Pin' }));
    await waitFor(() => expect(options()).toEqual(['Pinned first', 'third', 'second']));
    expect(main.runtime.core.history.prompts.list('', 10)[0]).toMatchObject({
      prompt: 'first',
      pinned: true,
    });
    await user.keyboard('{ArrowDown}');
    expect(active()).toBe('third');
    await user.click(within(picker()!).getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(options()).toEqual(['Pinned first', 'second']));
    expect(main.runtime.core.history.prompts.list('', 10).map((e) => e.prompt)).toEqual([
      'first',
      'second',
    ]);
    await user.keyboard('{ArrowUp}');
    await user.click(within(picker()!).getByRole('button', { name: 'Unpin' }));
    await waitFor(() => expect(options()).toEqual(['second', 'first']));
    expect(main.runtime.core.history.prompts.list('', 10).some((e) => e.pinned)).toBe(false);
    await user.type(search(), '100%_"');
    await waitFor(() =>
      expect(within(picker()!).getByRole('status').textContent).toBe(
        'No prompt contains “100%_"”.',
      ),
    );
    expect(options()).toEqual([]);
  });

  it('lists what the form submits, and opens from the menu over any screen', async () => {
    const { user, main } = await started([]);
    await user.type(prompt(), 'sent just now{Enter}');
    await waitFor(() =>
      expect(main.runtime.core.history.prompts.list('', 10).map((e) => e.prompt)).toEqual([
        'sent just now',
      ]),
    );
    act(() => useAppStore.getState().setView('gallery'));
    await act(async () => main.send('menu:command', { command: 'prompt-history' }));
    await waitFor(() => expect(options()).toEqual(['sent just now']));
    expect(useAppStore.getState().view).toBe('tasks');
  });

  it('takes no key but its own shortcut from other fields', async () => {
    const { user } = await started(['only one']);
    await user.click(prompt());
    // Shift+H types a capital, Ctrl+H alone and Alt with the shortcut are not the shortcut.
    await user.keyboard(
      '{Shift>}H{/Shift}{Control>}h{/Control}{Control>}{Alt>}{Shift>}H{/Shift}{/Alt}{/Control}',
    );
    expect(picker()).toBeNull();
    expect(prompt().value).toBe('H');
    // Up, Down and Enter in the form are the form's (its own recall), never the picker's.
    await user.keyboard('{ArrowUp}{ArrowDown}');
    expect(picker()).toBeNull();
    // From the task list's search field, the shortcut still opens the picker.
    const taskSearch = screen.getAllByRole('searchbox')[0]!;
    await user.click(taskSearch);
    await user.keyboard(OPEN);
    await waitFor(() => expect(options()).toEqual(['only one']));
    // While it is open, the shortcut again opens no second picker.
    await user.keyboard(OPEN);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it('works right to left in Arabic, with the same keys', async () => {
    const { user } = await started(['مرحبا بالعالم', 'a lighthouse']);
    await act(() => applyLocale('ar'));
    expect(document.documentElement.dir).toBe('rtl');
    await user.keyboard(OPEN);
    const dialog = await screen.findByRole('dialog', { name: 'سجل الأوصاف' });
    const field = within(dialog).getByRole('combobox', { name: 'البحث في الأوصاف' });
    expect(field.getAttribute('dir')).toBe('auto');
    await waitFor(() => expect(within(dialog).getAllByRole('option')).toHaveLength(2));
    const texts = within(dialog)
      .getAllByRole('option')
      .map((o) => o.querySelector('[dir="auto"]'));
    expect(texts.every((text) => text !== null)).toBe(true);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(
      (within(screen.getByRole('form')).getAllByRole('textbox')[0] as HTMLTextAreaElement).value,
    ).toBe('مرحبا بالعالم');
  });

  it('shows main’s sentence when a pin would pass the limit, and pins nothing', async () => {
    const many = Array.from({ length: 101 }, (_, n) => `prompt ${String(n)}`);
    const { user, main } = await started(many, many.slice(1));
    await user.keyboard(OPEN);
    await user.type(search(), 'prompt 0');
    await waitFor(() => expect(options()).toEqual(['prompt 0']));
    await user.click(within(picker()!).getByRole('button', { name: 'Pin' }));
    const alert = await within(picker()!).findByRole('alert');
    expect(alert.textContent).toContain('You can pin at most 100 prompts.');
    expect(main.runtime.core.history.prompts.list('prompt 0', 1)[0]?.pinned).toBe(false);
    expect(document.activeElement).toBe(search());
  });
});
