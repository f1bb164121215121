/**
 * "Generate into" in the window, over the app's real main (the built-in demo on loopback, the
 * history in SQLite): the compose form's Board field lists the library's boards and None, starts
 * on the target board, is labelled and on the keyboard path before the prompt, speaks the
 * window's language, and a submit's images arrive in the board chosen (a new one made by main).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { WiredApi } from '../../../support/wired-api';
import { UNTIL } from '../../../support/waits';
import { startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

const fileMain = sharedWiredMain();

afterEach(async () => {
  await applyLocale('en');
});

const form = () => screen.getByRole('form', { name: 'New task' });
const prompt = () => within(form()).getByRole('textbox', { name: 'Prompt' });
const boardField = () => within(form()).getByRole('combobox', { name: 'Board' });
const options = () =>
  within(boardField())
    .getAllByRole('option')
    .map((option) => option.textContent);

/** The saved images main lists in the board at `path`, once the task `localId` has them all. */
async function savedIn(main: WiredApi, localId: string, path: string): Promise<number> {
  return vi.waitFor(() => {
    const record = main.runtime.core.history.get(localId);
    if (record?.status !== 'completed' || record.images.some((i) => i.state !== 'saved'))
      throw new Error('still generating');
    return main.runtime.core.history
      .listImages({ board: path })
      .items.filter((item) => item.localId === localId).length;
  }, UNTIL);
}

/** The file's main with no board left by an earlier test, and no target board in the page. */
function noBoards(main: WiredApi): void {
  const { boards } = main.runtime.core;
  for (const row of boards.list()) if (row.parent === null) boards.delete(row.path);
  localStorage.removeItem('pictor.triage');
}

/** The local id of the task made for `prompt` (each test's prompts differ). */
function taskOf(main: WiredApi, prompt: string): string {
  const { history } = main.runtime.core;
  const found = history.taskIds({}, 100).find((id) => history.get(id)?.request.prompt === prompt);
  if (found === undefined) throw new Error(`no task for "${prompt}"`);
  return found;
}

describe('the compose form’s Board field', () => {
  it('lists None and the library’s boards, starts on the target board, and its images arrive there', async () => {
    const { user, main } = await startWiredApp({
      main: fileMain,
      prepare: (m) => {
        noBoards(m);
        m.runtime.core.boards.create('Clients/Acme');
        m.runtime.core.boards.create('Night');
      },
    });
    act(() => useAppStore.getState().triageSetTarget('Night'));
    await waitFor(() => expect(options()).toEqual(['None', 'Clients', 'Clients/Acme', 'Night']));
    expect(boardField()).toHaveProperty('value', 'Night');
    expect(boardField().getAttribute('title')).toBe('The board new images join as they arrive.');
    await user.type(prompt(), 'a lighthouse at dusk{Enter}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    expect(main.callsTo('tasks:submit')[0]).toMatchObject({ board: 'Night' });
    const lighthouse = await waitFor(() => taskOf(main, 'a lighthouse at dusk'));
    expect(await savedIn(main, lighthouse, 'Night')).toBe(1);

    // None: the next images go into no board, whatever the target board is.
    await user.selectOptions(boardField(), 'None');
    // The form gives the prompt back empty once main has the task: typed before, the words join.
    await waitFor(() => expect(prompt()).toHaveProperty('value', ''));
    await user.type(prompt(), 'a fox in the snow{Enter}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(2));
    expect(main.callsTo('tasks:submit')[1]).not.toHaveProperty('board');
    // The call is seen as it is made; the task is in the history once main has stored it.
    const plain = await waitFor(() => taskOf(main, 'a fox in the snow'));
    expect(await savedIn(main, plain, 'Night')).toBe(0);
    expect(main.runtime.core.history.get(plain)?.images[0]).not.toHaveProperty('boards');
    // The choice stays with the form when the target board changes.
    act(() => useAppStore.getState().triageSetTarget('Clients/Acme'));
    expect(boardField()).toHaveProperty('value', '');
  });

  it('follows the target board until a board is chosen, and a new board main makes is listed', async () => {
    const { user, main } = await startWiredApp({ main: fileMain, prepare: noBoards });
    act(() => useAppStore.getState().triageSetTarget(null));
    await waitFor(() => expect(options()).toEqual(['None']));
    // A target board the library does not have (yet) is offered as it is: main makes it.
    act(() => useAppStore.getState().triageSetTarget('Shoots/Winter'));
    expect(options()).toEqual(['None', 'Shoots/Winter']);
    expect(boardField()).toHaveProperty('value', 'Shoots/Winter');
    await user.type(prompt(), 'a frozen lake{Enter}');
    await waitFor(() => expect(main.callsTo('tasks:submit')).toHaveLength(1));
    const lake = await waitFor(() => taskOf(main, 'a frozen lake'));
    expect(await savedIn(main, lake, 'Shoots/Winter')).toBe(1);
    await waitFor(() => expect(options()).toEqual(['None', 'Shoots', 'Shoots/Winter']));
    // A board made elsewhere (the CLI, another window) is listed when the field gets the focus.
    main.runtime.core.boards.create('Archive');
    act(() => boardField().focus());
    await waitFor(() => expect(options()).toEqual(['None', 'Archive', 'Shoots', 'Shoots/Winter']));
    await user.selectOptions(boardField(), 'Archive');
    act(() => useAppStore.getState().triageSetTarget('Shoots'));
    expect(boardField()).toHaveProperty('value', 'Archive');
  });

  it('is a labelled control on the keyboard path just before the service and the prompt', async () => {
    const { user } = await startWiredApp({ main: fileMain, prepare: noBoards });
    act(() => prompt().focus());
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(form()).getByRole('combobox', { name: 'Service' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(boardField());
    // In the window's language.
    await act(() => applyLocale('de'));
    const field = screen.getByRole('combobox', { name: 'Pinnwand' });
    expect(within(field).getByRole('option', { name: 'Keine' })).toHaveProperty('value', '');
    expect(field.getAttribute('title')).toBe(
      'Die Pinnwand, zu der neue Bilder hinzukommen, sobald sie eintreffen.',
    );
  });
});
