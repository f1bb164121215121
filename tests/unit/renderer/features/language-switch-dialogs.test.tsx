/**
 * What a language switch keeps in the dialogs whose fields language-switch-kept.test.tsx does not
 * type in. app.tsx draws the whole window anew in a new language (keyed on it), so a dialog open in
 * a component's own state closed, and text typed in one emptied. Here each is typed in, the
 * language switched, and the dialog found open with what was typed or chosen: "Track a task id",
 * "Connect a service" (its service and address; its key, on purpose, not), the template manager's
 * file format, the tag editor, the target board's chooser, "Save as smart board…" and a smart
 * board's rename. Closed and
 * opened again, each starts as it did before.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { applyLocale, t } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { giveSize } from '../layout-sizes';
import { seedHistory, startWiredApp } from '../render-wired-app';

afterEach(async () => {
  await applyLocale('en');
});

type Key = Parameters<typeof t>[0];
const dialog = (key: Key, params?: Record<string, string | number>) =>
  screen.getByRole('dialog', { name: t(key, params) });
/** The field named `key` in `container`. */
const fieldIn = (container: HTMLElement, role: 'textbox' | 'combobox', key: Key) =>
  within(container).getByRole<HTMLInputElement | HTMLSelectElement>(role, { name: t(key) });
const valueOf = (container: HTMLElement, role: 'textbox' | 'combobox', key: Key) =>
  fieldIn(container, role, key).value;
/** The window drawn anew in German (its sidebar's Settings in German). */
async function toGerman(): Promise<void> {
  await act(() => applyLocale('de'));
  expect(screen.getByRole('button', { name: 'Einstellungen' })).toBeTruthy();
}

describe('a language switch, over a dialog of the Tasks screen', () => {
  it('keeps "Track a task id", "Connect a service" and the template file format as typed or chosen', async () => {
    const { user } = await startWiredApp();

    // "Track a task id": an id and a prompt typed, not tracked.
    await user.click(screen.getByRole('button', { name: t('tasks.track.open') }));
    await user.type(
      fieldIn(dialog('tasks.track.title'), 'textbox', 'tasks.track.taskId'),
      'abc-123',
    );
    await user.type(fieldIn(dialog('tasks.track.title'), 'textbox', 'tasks.track.prompt'), 'a fox');
    await toGerman();
    expect(valueOf(dialog('tasks.track.title'), 'textbox', 'tasks.track.taskId')).toBe('abc-123');
    expect(valueOf(dialog('tasks.track.title'), 'textbox', 'tasks.track.prompt')).toBe('a fox');
    // Closed and opened again: empty, as before.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: t('tasks.track.open') }));
    expect(valueOf(dialog('tasks.track.title'), 'textbox', 'tasks.track.taskId')).toBe('');
    await user.keyboard('{Escape}');
    await act(() => applyLocale('en'));

    // "Connect a service": another service chosen, an address and a key typed, nothing saved.
    await user.click(screen.getAllByRole('button', { name: t('settings.connect.open') })[0]!);
    const connect = () => dialog('settings.connect.title');
    const first = valueOf(connect(), 'combobox', 'settings.connect.service');
    const address = () => fieldIn(connect(), 'textbox', 'settings.connect.address');
    await user.selectOptions(
      fieldIn(connect(), 'combobox', 'settings.connect.service'),
      'replicate',
    );
    await user.clear(address());
    await user.type(address(), 'https://proxy.example.test/replicate');
    const key = () => connect().querySelector<HTMLInputElement>('input[type="password"]')!;
    await user.type(key(), 'r8_not-kept');
    await toGerman();
    expect(valueOf(connect(), 'combobox', 'settings.connect.service')).toBe('replicate');
    expect(address().value).toBe('https://proxy.example.test/replicate');
    // The key typed and not saved is never kept beyond its field (form-drafts.ts).
    expect(key().value).toBe('');
    // Another service chosen: its form starts from its own address, as before.
    await user.selectOptions(fieldIn(connect(), 'combobox', 'settings.connect.service'), 'fal');
    await user.selectOptions(
      fieldIn(connect(), 'combobox', 'settings.connect.service'),
      'replicate',
    );
    expect(address().value).toBe('https://api.replicate.com');
    // Closed and opened again: the compose form's service, as before.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getAllByRole('button', { name: t('settings.connect.open') })[0]!);
    expect(valueOf(connect(), 'combobox', 'settings.connect.service')).toBe(first);
    await user.keyboard('{Escape}');
    await act(() => applyLocale('en'));

    // The template manager's file format: A1111's chosen.
    await user.click(screen.getByRole('button', { name: t('compose.template.manage') }));
    const templates = () => dialog('templates.manage.title');
    await user.selectOptions(
      fieldIn(templates(), 'combobox', 'templates.manage.format'),
      t('templates.format.a1111'),
    );
    await toGerman();
    expect(valueOf(templates(), 'combobox', 'templates.manage.format')).toBe('a1111');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: t('compose.template.manage') }));
    expect(valueOf(templates(), 'combobox', 'templates.manage.format')).toBe('pictor');
  });
});

describe('a language switch, over a dialog of the gallery', () => {
  it('keeps the tag typed in the tag editor, and the smart board’s name typed in its dialogs', async () => {
    const { user } = await startWiredApp({
      prepare: (main) => {
        seedHistory(main, 2, (n) => ({
          localId: `img-${String(n)}`,
          prompt: 'a lake at dawn',
          status: 'completed',
          images: [makeImage(0)],
        }));
        main.runtime.core.boards.create('Mood');
        main.runtime.core.smartBoards.create('Best', {
          match: 'all',
          items: [{ kind: 'rating', op: '>=', value: 4 }],
        });
      },
    });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    const galleryTile = () =>
      document.querySelector<HTMLElement>('.gallery-grid [data-key="img-1/0"]')!;
    await waitFor(() => expect(galleryTile()).toBeTruthy());
    const tile = galleryTile();

    // The tag editor (T): a tag typed, not added.
    fireEvent.click(tile, { ctrlKey: true });
    act(() => tile.focus());
    await user.keyboard('t');
    const tags = () => dialog('triage.tagsEditor.title', { count: 1 });
    const tagField = () => within(tags()).getByRole<HTMLInputElement>('combobox');
    await user.type(tagField(), 'harbour');
    await toGerman();
    expect(tagField().value).toBe('harbour');
    // Closed and opened again: empty, as before.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    act(() => galleryTile().focus());
    await user.keyboard('t');
    expect(tagField().value).toBe('');
    await user.keyboard('{Escape}');
    await act(() => applyLocale('en'));

    // The target board's chooser: a board's name begun, its board active, not chosen.
    const chooser = () => dialog('triage.chooser.title');
    await user.click(screen.getByRole('button', { name: t('triage.sidebar.choose') }));
    await user.type(within(chooser()).getByRole('combobox'), 'moo');
    await toGerman();
    expect(within(chooser()).getByRole<HTMLInputElement>('combobox').value).toBe('moo');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(useAppStore.getState().triageTarget).toBe('Mood'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: t('triage.sidebar.choose') }));
    expect(within(chooser()).getByRole<HTMLInputElement>('combobox').value).toBe('');
    await user.keyboard('{Escape}');
    await act(() => applyLocale('en'));

    // "Save as smart board…": a name typed, not saved.
    await user.click(screen.getByRole('button', { name: t('triage.smart.save') }));
    const save = () => dialog('triage.smart.saveTitle');
    await user.type(within(save()).getByRole('textbox'), 'Evening');
    await toGerman();
    expect(within(save()).getByRole<HTMLInputElement>('textbox').value).toBe('Evening');
    await user.click(within(save()).getByRole('button', { name: t('common.cancel') }));
    await user.click(screen.getByRole('button', { name: t('triage.smart.save') }));
    expect(within(save()).getByRole<HTMLInputElement>('textbox').value).toBe('');
    await user.click(within(save()).getByRole('button', { name: t('common.cancel') }));

    // A smart board's rename from its menu: a new name typed, not confirmed.
    const smart = screen.getByRole('tree', { name: t('triage.sidebar.smart') });
    act(() => within(smart).getByRole('treeitem', { name: /^Best/ }).focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('menuitem'));
    await user.click(within(menu).getByRole('menuitem', { name: t('triage.boards.rename') }));
    const rename = () => dialog('triage.boards.renameTitle', { board: 'Best' });
    await user.clear(within(rename()).getByRole('textbox'));
    await user.type(within(rename()).getByRole('textbox'), 'Five stars');
    await act(() => applyLocale('en'));
    expect(within(rename()).getByRole<HTMLInputElement>('textbox').value).toBe('Five stars');
  });
});
