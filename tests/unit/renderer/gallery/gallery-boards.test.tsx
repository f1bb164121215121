/**
 * The boards sidebar over the app's real main (history, boards table, trash on disk): the library's
 * views and the boards' tree filter the grid; boards are created, renamed, moved and deleted from
 * an entry's menu (main's sentence when a board would go inside itself); the target board's
 * chooser by typing, and B; the tag editor; purging rejects with one question and one Undo; and a
 * tile dragged onto a board.
 */
import { act, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../../renderer/i18n';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { WiredApi } from '../../../support/wired-api';
import { keyOf, seriousViolations, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

const wired = wiredGallery();
/** The gallery as the app has it: the store hears main's events (a record changed, a board). */
const renderWired = (options: { prepare?: (main: WiredApi) => unknown } = {}) =>
  wired({ ...options, events: true });

/** Main's boards and smart boards emptied (the file's main keeps them from test to test). */
function noBoards(main: WiredApi): void {
  const { boards, smartBoards } = main.runtime.core;
  for (const board of boards.list()) if (board.parent === null) boards.delete(board.path);
  for (const smart of smartBoards.list()) smartBoards.delete(smart.name);
}

/** `count` images, the boards `paths` created, and each image put where `place(n)` says. */
async function library(
  main: WiredApi,
  count: number,
  paths: readonly string[],
  place: (n: number) => { boards?: string[]; reject?: boolean } = () => ({}),
): Promise<void> {
  noBoards(main);
  seedGallery(main, count);
  const { boards, triage } = main.runtime.core;
  for (const path of paths) boards.create(path);
  for (let n = 0; n < count; n += 1) {
    const ref = [{ localId: `seed-${String(n).padStart(6, '0')}`, index: 0 }];
    const { boards: into = [], reject = false } = place(n);
    for (const path of into) await triage.apply(ref, { kind: 'board', path, add: true });
    if (reject) await triage.apply(ref, { kind: 'flag', flag: 'reject' });
  }
}

const imageOf = (main: WiredApi, n: number) =>
  main.runtime.core.history.get(`seed-${String(n).padStart(6, '0')}`)?.images[0];
const cells = (): string[] =>
  screen.queryAllByRole('gridcell').map((cell) => cell.dataset['key'] ?? '');
const boardsTree = (): HTMLElement => screen.getByRole('tree', { name: 'Boards' });
const entry = (name: RegExp): HTMLElement => screen.getByRole('treeitem', { name });
const confirmations = (): HTMLElement => screen.getByRole('status', { name: 'Done' });
const sidebar = (): HTMLElement => screen.getByRole('navigation', { name: 'Library and boards' });

/** Opens an entry's menu from the keyboard (Shift+F10) and chooses `action`. */
async function menuAction(
  user: Awaited<ReturnType<typeof renderWired>>['user'],
  name: RegExp,
  action: string,
): Promise<void> {
  act(() => entry(name).focus());
  await user.keyboard('{Shift>}{F10}{/Shift}');
  const menu = await screen.findByRole('menu');
  await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('menuitem'));
  await user.click(within(menu).getByRole('menuitem', { name: action }));
}

describe('the boards sidebar', () => {
  it('lists the boards as a tree; All, Unfiled, Rejected and a board filter the grid', async () => {
    const { user } = await renderWired({
      prepare: (m) =>
        library(m, 6, ['Clients/Acme', 'Mood'], (n) => ({
          boards: n === 0 ? ['Clients/Acme'] : n === 1 ? ['Mood', 'Clients'] : [],
          reject: n === 4,
        })),
    });
    const boards = await within(boardsTree()).findAllByRole('treeitem');
    expect(boards.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-level')])).toEqual(
      [
        ['Clients, 1 image', '1'],
        ['Acme, 1 image', '2'],
        ['Mood, 1 image', '1'],
      ],
    );
    expect(entry(/^All images/).getAttribute('aria-selected')).toBe('true');
    expect(cells()).toHaveLength(6);

    await user.click(entry(/^Unfiled/));
    await waitFor(() => expect(cells()).toEqual([2, 3, 4, 5].map(keyOf)));
    expect(entry(/^Unfiled/).getAttribute('aria-selected')).toBe('true');
    expect(entry(/^All images/).getAttribute('aria-selected')).toBe('false');

    // From the keyboard: Down to Rejected, Enter.
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(cells()).toEqual([keyOf(4)]));
    expect(document.activeElement).toBe(entry(/^Rejected/));

    // A board shows its own images (main's board filter).
    await user.click(entry(/^Clients/));
    await waitFor(() => expect(cells()).toEqual([keyOf(1)]));
    expect(useAppStore.getState().galleryFilters).toMatchObject({
      board: 'Clients',
      unfiled: false,
      rejected: false,
    });
    // Left folds Clients (Acme goes), Right unfolds it.
    act(() => entry(/^Clients/).focus());
    await user.keyboard('{ArrowLeft}');
    expect(within(boardsTree()).getAllByRole('treeitem')).toHaveLength(2);
    expect(entry(/^Clients/).getAttribute('aria-expanded')).toBe('false');
    await user.keyboard('{ArrowRight}{ArrowRight}{Enter}');
    await waitFor(() => expect(cells()).toEqual([keyOf(0)]));
    expect(entry(/^Acme/).getAttribute('aria-selected')).toBe('true');

    await user.click(entry(/^All images/));
    await waitFor(() => expect(cells()).toHaveLength(6));
    expect(await seriousViolations()).toEqual([]);
  });

  it('folds away to a button and comes back', async () => {
    const { user } = await renderWired({ prepare: (m) => library(m, 2, ['Mood']) });
    const hide = screen.getByRole('button', { name: 'Hide the boards' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    await user.click(hide);
    expect(screen.queryByRole('tree')).toBeNull();
    const show = screen.getByRole('button', { name: 'Show the boards' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    expect(useAppStore.getState().boardsSidebarOpen).toBe(false);
    await user.click(show);
    expect(await screen.findByRole('tree', { name: 'Boards' })).toBeTruthy();
  });

  it('lists the smart boards main has; choosing one shows what its rules match', async () => {
    const { user } = await renderWired({
      prepare: async (m) => {
        await library(m, 4, ['Mood'], (n) => ({ boards: n === 3 ? ['Mood'] : [] }));
        const refs = [1, 2].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 }));
        await m.runtime.core.triage.apply(refs, { kind: 'rating', rating: 4 });
        m.runtime.core.smartBoards.create('Best', {
          match: 'all',
          items: [{ kind: 'rating', op: '>=', value: 4 }],
        });
      },
    });
    const smart = await screen.findByRole('tree', { name: 'Smart boards' });
    await user.click(within(smart).getByRole('treeitem', { name: 'Best' }));
    await waitFor(() => expect(cells()).toEqual([1, 2].map(keyOf)));
    expect(entry(/^Best/).getAttribute('aria-selected')).toBe('true');
    // Another entry shows its own images, not those of both.
    await user.click(entry(/^Mood/));
    await waitFor(() => expect(cells()).toEqual([keyOf(3)]));
    expect(useAppStore.getState().galleryFilters).toMatchObject({ board: 'Mood', smart: '' });
    expect(entry(/^Best/).getAttribute('aria-selected')).toBe('false');
  });

  it('renames and deletes a smart board from its menu; the gallery follows, no image goes', async () => {
    const { main, user } = await renderWired({
      prepare: async (m) => {
        await library(m, 3, [], () => ({}));
        await m.runtime.core.triage.apply([{ localId: 'seed-000001', index: 0 }], {
          kind: 'rating',
          rating: 5,
        });
        m.runtime.core.smartBoards.create('Best', {
          match: 'all',
          items: [{ kind: 'rating', op: '>=', value: 4 }],
        });
        m.runtime.core.smartBoards.create('Other', {
          match: 'all',
          items: [{ kind: 'flag', flag: 'pick' }],
        });
      },
    });
    const names = () => main.runtime.core.smartBoards.list().map((board) => board.name);
    const smart = await screen.findByRole('tree', { name: 'Smart boards' });
    await user.click(within(smart).getByRole('treeitem', { name: 'Best' }));
    await waitFor(() => expect(cells()).toEqual([keyOf(1)]));

    // A name main refuses (another smart board has it): its sentence, the text kept.
    await menuAction(user, /^Best/, 'Rename…');
    const rename = await screen.findByRole('dialog', { name: 'Rename “Best”' });
    const field = within(rename).getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.type(field, 'other{Enter}');
    expect(await within(rename).findByText(/There is already a smart board named/)).toBeTruthy();
    expect((field as HTMLInputElement).value).toBe('other');
    await user.clear(field);
    await user.type(field, 'Five stars{Enter}');
    await waitFor(() => expect(names()).toEqual(['Five stars', 'Other']));
    await within(confirmations()).findByText('Renamed the smart board: it is “Five stars” now.');
    // The gallery showed it, and shows it under its new name.
    expect(useAppStore.getState().galleryFilters.smart).toBe('Five stars');
    await waitFor(() => expect(entry(/^Five stars/).getAttribute('aria-selected')).toBe('true'));

    // Delete asks first; Cancel keeps it.
    await menuAction(user, /^Five stars/, 'Delete smart board…');
    const ask = await screen.findByRole('alertdialog', {
      name: 'Delete the smart board “Five stars”?',
    });
    expect(ask.textContent).toContain('the images it shows stay in the library');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(names()).toEqual(['Five stars', 'Other']);
    await menuAction(user, /^Five stars/, 'Delete smart board…');
    const again = await screen.findByRole('alertdialog', {
      name: 'Delete the smart board “Five stars”?',
    });
    await user.click(within(again).getByRole('button', { name: 'Delete smart board' }));
    await waitFor(() => expect(names()).toEqual(['Other']));
    await within(confirmations()).findByText(
      'Deleted the smart board “Five stars”. Its images stay in the library.',
    );
    // The gallery shows every image again; none was deleted.
    expect(useAppStore.getState().galleryFilters.smart).toBe('');
    await waitFor(() => expect(cells()).toEqual([0, 1, 2].map(keyOf)));
    expect(main.runtime.core.history.get('seed-000001')?.images[0]?.state).toBe('saved');
  });

  it('saves the gallery’s filters as a smart board; a rule naming a board gone shows struck through', async () => {
    const { main, user } = await renderWired({
      prepare: async (m) => {
        await library(m, 5, ['Mood'], (n) => ({ boards: n < 3 ? ['Mood'] : [] }));
        const refs = [1, 2, 4].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 }));
        await m.runtime.core.triage.apply(refs, { kind: 'rating', rating: 5 });
      },
    });
    await user.click(await within(sidebar()).findByRole('treeitem', { name: /^Mood/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rating' }), '★4 or more');
    await waitFor(() => expect(cells()).toEqual([1, 2].map(keyOf)));
    await user.click(within(sidebar()).getByRole('button', { name: 'Save as smart board…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save as smart board' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Best of Mood');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(main.runtime.core.smartBoards.get('best of mood').rules).toEqual({
      match: 'all',
      items: [
        { kind: 'rating', op: '>=', value: 4 },
        { kind: 'board', board: 'Mood' },
      ],
    });
    // A name taken: main's sentence in the dialog, which keeps what was typed.
    await user.click(within(sidebar()).getByRole('button', { name: 'Save as smart board…' }));
    const again = await screen.findByRole('dialog', { name: 'Save as smart board' });
    await user.type(within(again).getByRole('textbox', { name: 'Name' }), 'BEST OF MOOD');
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(again).getByRole('textbox').getAttribute('aria-invalid')).toBe('true'),
    );
    await user.click(within(again).getByRole('button', { name: 'Cancel' }));

    // The board goes: the smart board still opens, its board rule struck through with a sentence.
    main.runtime.core.boards.delete('Mood');
    await act(() => useAppStore.getState().triageLoadLibrary());
    const smart = await screen.findByRole('tree', { name: 'Smart boards' });
    await user.click(within(smart).getByRole('treeitem', { name: 'Best of Mood' }));
    await waitFor(() => expect(cells()).toEqual([]));
    const rules = await screen.findByRole('list', { name: 'Rules of “Best of Mood”' });
    const struck = rules.querySelectorAll('del');
    expect([...struck].map((node) => node.textContent)).toEqual(['In the board “Mood”']);
    expect(rules.textContent).toContain('Rated ★4 or more');
    expect(rules.textContent).toMatch(/Mood/);
    expect(await seriousViolations()).toEqual([]);
  });

  it('creates, renames, moves and deletes boards; a board cannot go inside itself', async () => {
    const { user, main } = await renderWired({ prepare: (m) => library(m, 3, [], () => ({})) });
    const paths = () => main.runtime.core.boards.list().map((row) => row.path);
    expect(screen.getByText('No boards yet.')).toBeTruthy();
    expect(screen.getByText('No smart boards yet.')).toBeTruthy();

    const newBoard = screen.getByRole('button', { name: 'New board…' });
    await user.click(newBoard);
    const create = await screen.findByRole('dialog', { name: 'New board' });
    await user.type(within(create).getByRole('textbox', { name: 'Name' }), 'Clients{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(paths()).toEqual(['Clients']);
    expect(document.activeElement).toBe(newBoard);
    await within(confirmations()).findByText('Created the board “Clients”.');

    // A name main refuses: its sentence in the dialog, the text kept.
    await menuAction(user, /^Clients/, 'New board inside…');
    const inside = await screen.findByRole('dialog', { name: 'New board' });
    const name = within(inside).getByRole('textbox', { name: 'Name' });
    await user.type(name, 'A/B/C/D/E{Enter}');
    expect(
      await within(inside).findByText('Boards can be nested at most 5 levels deep.'),
    ).toBeTruthy();
    expect((name as HTMLInputElement).value).toBe('A/B/C/D/E');
    await user.clear(name);
    await user.type(name, 'Acme{Enter}');
    await waitFor(() => expect(paths()).toEqual(['Clients', 'Clients/Acme']));

    await menuAction(user, /^Acme/, 'Rename…');
    const rename = await screen.findByRole('dialog', { name: 'Rename “Clients/Acme”' });
    const field = within(rename).getByRole('textbox', { name: 'Name' });
    await user.clear(field);
    await user.type(field, 'ACME Corp{Enter}');
    await waitFor(() => expect(paths()).toEqual(['Clients', 'Clients/ACME Corp']));
    // The renamed board's entry has the focus.
    await waitFor(() => expect(document.activeElement).toBe(entry(/^ACME Corp/)));

    await menuAction(user, /^Clients/, 'Move to…');
    const move = await screen.findByRole('dialog', { name: 'Move “Clients”' });
    await user.type(within(move).getByRole('combobox', { name: 'Move into' }), 'acme{Enter}');
    expect(
      await within(move).findByText(
        'A board cannot be moved into itself or into a board inside it.',
      ),
    ).toBeTruthy();
    expect(paths()).toEqual(['Clients', 'Clients/ACME Corp']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Moving ACME Corp to the top level.
    await menuAction(user, /^ACME Corp/, 'Move to…');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(paths()).toEqual(['ACME Corp', 'Clients']));

    await menuAction(user, /^Clients/, 'Delete board…');
    const ask = await screen.findByRole('alertdialog', { name: 'Delete the board “Clients”?' });
    expect(ask.textContent).toContain('No image is deleted');
    await user.click(within(ask).getByRole('button', { name: 'Delete board' }));
    await waitFor(() => expect(paths()).toEqual(['ACME Corp']));
    expect(within(boardsTree()).getAllByRole('treeitem')).toHaveLength(1);
    expect(cells()).toHaveLength(3);
  });

  it('the chooser sets the target board by typing, and B adds the focused image to it', async () => {
    const { user, main } = await renderWired({
      prepare: (m) => library(m, 4, ['Clients/Acme', 'Mood']),
    });
    expect(within(sidebar()).getByText('No target board')).toBeTruthy();
    act(() => tile(keyOf(1)).focus());
    await user.keyboard('b');
    await within(confirmations()).findByText(/Choose a target board first/);

    await user.keyboard('{Control>}b{/Control}');
    const chooser = await screen.findByRole('dialog', { name: 'Target board' });
    const field = within(chooser).getByRole('combobox', { name: 'Find a board' });
    expect(document.activeElement).toBe(field);
    // Text no board matches: Enter chooses nothing.
    await user.keyboard('zzz{Enter}');
    expect(within(chooser).getByText('No board matches “zzz”.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Target board' })).toBe(chooser);
    await user.clear(field);
    await user.keyboard('moo');
    const list = within(chooser).getByRole('listbox', { name: 'Boards' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['None', 'Mood']);
    expect(within(list).getByRole('option', { selected: true }).textContent).toBe('Mood');
    expect(await seriousViolations()).toEqual([]);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(useAppStore.getState().triageTarget).toBe('Mood');
    expect(within(sidebar()).getByText('Target board: Mood')).toBeTruthy();
    expect(entry(/^Mood/).getAttribute('aria-label')).toBe('Mood, 0 images, target board');
    // The focus is back on the image, and B puts it in the board.
    expect(document.activeElement).toBe(tile(keyOf(1)));
    await user.keyboard('b');
    await waitFor(() => expect(imageOf(main, 1)?.boards).toEqual(['Mood']));
    await waitFor(() =>
      expect(entry(/^Mood/).getAttribute('aria-label')).toMatch(/^Mood, 1 image/),
    );

    // Up and Down in the list; "None" clears the target.
    await user.keyboard('{Control>}b{/Control}');
    await screen.findByRole('dialog', { name: 'Target board' });
    await user.keyboard('{ArrowDown}{ArrowUp}{ArrowUp}{ArrowUp}{ArrowUp}{Enter}');
    await waitFor(() => expect(useAppStore.getState().triageTarget).toBeNull());
    expect(within(sidebar()).getByText('No target board')).toBeTruthy();
  });

  it('the tag editor tags the selection, takes a tag off, and shows main’s sentence for a bad tag', async () => {
    const { user, main } = await renderWired({
      prepare: async (m) => {
        await library(m, 4, []);
        await m.runtime.core.triage.apply([{ localId: 'seed-000003', index: 0 }], {
          kind: 'tag',
          tag: 'Harbour',
          add: true,
        });
      },
    });
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(2)), { ctrlKey: true });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('t');
    const editor = await screen.findByRole('dialog', { name: 'Tags of 2 images' });
    expect(within(editor).getByText('No tags yet.')).toBeTruthy();
    const field = within(editor).getByRole('combobox', { name: 'Add a tag' });
    expect(document.activeElement).toBe(field);
    // The library's tags are suggested.
    await user.keyboard('har');
    expect(within(editor).getByRole('option', { name: 'Harbour' })).toBeTruthy();
    await user.clear(field);
    await user.keyboard('cat{Enter}');
    await waitFor(() => expect(imageOf(main, 1)?.tags).toEqual(['cat']));
    expect(imageOf(main, 2)?.tags).toEqual(['cat']);
    const tags = await within(editor).findByRole('list', { name: 'Their tags' });
    await waitFor(() => expect(within(tags).getByText('2 of 2')).toBeTruthy());
    expect((field as HTMLInputElement).value).toBe('');

    // A control character: main's sentence under the field, which keeps the text.
    await user.click(field);
    await user.paste('bad\u0007tag');
    await user.keyboard('{Enter}');
    expect(
      await within(editor).findByText('A tag cannot contain the character U+0007.'),
    ).toBeTruthy();
    expect((field as HTMLInputElement).value).toBe('bad\u0007tag');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations()).toEqual([]);

    await user.click(within(editor).getByRole('button', { name: 'Remove the tag “cat”' }));
    await waitFor(() => expect(imageOf(main, 1)?.tags).toBeUndefined());
    expect(imageOf(main, 2)?.tags).toBeUndefined();
    await within(editor).findByText('No tags yet.');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(tile(keyOf(2)));
  });

  it('purges rejects after one question with their count and size; Undo brings them back', async () => {
    let bytes = 0;
    const { user, main } = await renderWired({
      prepare: async (m) => {
        await library(m, 6, ['Clients', 'Mood'], (n) => ({
          boards: n < 2 ? ['Clients'] : [],
          reject: n === 1 || n === 3 || n === 4,
        }));
        const answer = await m.api.invoke('triage:rejects', {});
        if (!answer.ok) throw new Error('no rejects');
        bytes = answer.value.bytes;
      },
    });
    // None in Mood: a sentence, no question.
    await menuAction(user, /^Mood/, 'Purge rejects…');
    await within(confirmations()).findByText('There are no rejected images to purge here.');
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await menuAction(user, /^Rejected/, 'Purge rejects…');
    const ask = await screen.findByRole('alertdialog', {
      name: 'Move 3 rejected images to the trash?',
    });
    expect(bytes).toBeGreaterThan(0);
    expect(ask.textContent).toContain(`They take ${formatBytes(bytes)}.`);
    await user.click(within(ask).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(cells()).toEqual([0, 2, 5].map(keyOf)));
    expect(main.callsTo('gallery:deleteImages')).toHaveLength(1);
    // The focus went back to the entry the question came from.
    expect(document.activeElement).toBe(entry(/^Rejected/));

    await user.click(await within(confirmations()).findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(cells()).toHaveLength(6));
    expect(imageOf(main, 3)?.state).toBe('saved');
  });

  it('a board’s menu purges the rejects main finds in that board', async () => {
    const { user, main } = await renderWired({
      prepare: (m) =>
        library(m, 4, ['Clients', 'Mood'], (n) => ({
          boards: n < 2 ? ['Clients'] : ['Mood'],
          reject: n !== 0,
        })),
    });
    await menuAction(user, /^Clients/, 'Purge rejects…');
    const ask = await screen.findByRole('alertdialog', {
      name: 'Move 1 rejected image to the trash?',
    });
    expect(ask.textContent).not.toContain('Not shown');
    await user.click(within(ask).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(cells()).toEqual([0, 2, 3].map(keyOf)));
    // The board's rejects, then those the gallery shows (to say how many it hides: none here).
    expect(main.callsTo('triage:rejects')).toEqual([
      { board: 'Clients' },
      { filter: expect.objectContaining({ states: expect.any(Array) }) },
    ]);
  });
});

describe('dragging images onto a board', () => {
  /** What an OS drag of a file carries over the window. */
  const files = () => ({ dataTransfer: { types: ['Files'], dropEffect: 'none' } });
  const dragTile = (n: number) => {
    const image = within(tile(keyOf(n))).getByRole('img', { name: `Prompt number ${String(n)}` });
    fireEvent.dragStart(image);
  };
  const dragOver = (target: HTMLElement): boolean => fireEvent.dragOver(target, files());
  /** A drop, with Alt (Option) held when `alt` (jsdom has no DragEvent to carry it). */
  const drop = (target: HTMLElement, alt = false): void => {
    const event = createEvent.drop(target, files());
    Object.defineProperty(event, 'altKey', { value: alt });
    fireEvent(target, event);
  };

  it('adds the dragged image, or the selection it is part of, to the board', async () => {
    const { main } = await renderWired({ prepare: (m) => library(m, 6, ['Inbox', 'Done']) });
    // A drag from elsewhere (a file from the desktop): the board does not take it.
    expect(dragOver(entry(/^Done/))).toBe(true);

    dragTile(3);
    expect(useAppStore.getState().boardsDrag?.count).toBe(1);
    // Still the page's own drag, never the browser's: the OS drag carries the file.
    expect(main.callsTo('gallery:startDrag')).toEqual([{ localId: 'seed-000003', index: 0 }]);
    expect(dragOver(entry(/^Done/))).toBe(false);
    expect(entry(/^Done/).className).toContain('sidebar-tree__entry--drop');
    drop(entry(/^Done/));
    await waitFor(() => expect(imageOf(main, 3)?.boards).toEqual(['Done']));
    expect(useAppStore.getState().boardsDrag).toBeNull();
    await waitFor(() => expect(entry(/^Done/).getAttribute('aria-label')).toBe('Done, 1 image'));

    fireEvent.click(tile(keyOf(4)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(5)), { ctrlKey: true });
    dragTile(5);
    expect(useAppStore.getState().boardsDrag?.count).toBe(2);
    drop(entry(/^Inbox/));
    await waitFor(() => expect(imageOf(main, 4)?.boards).toEqual(['Inbox']));
    expect(imageOf(main, 5)?.boards).toEqual(['Inbox']);
    expect(imageOf(main, 3)?.boards).toEqual(['Done']);

    // The pointer moving with no button held: the drag is over (it ended outside the window).
    dragTile(0);
    fireEvent.mouseMove(window, { buttons: 0 });
    expect(useAppStore.getState().boardsDrag).toBeNull();
    expect(dragOver(entry(/^Done/))).toBe(true);
  });

  it('with Alt moves it out of the board shown, in one step that one Undo takes back', async () => {
    const { user, main } = await renderWired({
      prepare: (m) => library(m, 3, ['Inbox', 'Done'], () => ({ boards: ['Inbox'] })),
    });
    await user.click(entry(/^Inbox/));
    await waitFor(() => expect(useAppStore.getState().galleryFilters.board).toBe('Inbox'));
    dragTile(1);
    drop(entry(/^Done/), true);
    await waitFor(() => expect(imageOf(main, 1)?.boards).toEqual(['Done']));
    await within(confirmations()).findByText('Moved 1 image to “Done”.');
    expect(main.callsTo('triage:apply')).toEqual([
      {
        images: [{ localId: 'seed-000001', index: 0 }],
        change: { kind: 'board', path: 'Done', add: true, from: 'Inbox' },
      },
    ]);
    await user.click(within(confirmations()).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(imageOf(main, 1)?.boards).toEqual(['Inbox']));
    await waitFor(() => expect(entry(/^Done/).getAttribute('aria-label')).toBe('Done, 0 images'));
    expect(entry(/^Inbox/).getAttribute('aria-label')).toBe('Inbox, 3 images');
  });
});

describe('"Write metadata to files" in the selection’s bar', () => {
  it('writes the selected images’ rating and tags into their files and says how many', async () => {
    let made: string[] = [];
    const { user, main } = await renderWired({
      prepare: async (m) => {
        noBoards(m);
        made = (await m.generate(['A heron', 'A crane', 'A stork'])).map((task) => task.localId);
        const refs = made.slice(0, 2).map((localId) => ({ localId, index: 0 }));
        await m.runtime.core.triage.apply(refs, { kind: 'rating', rating: 4 });
      },
    });
    const first = await screen.findByAltText('A heron');
    const second = screen.getByAltText('A crane');
    fireEvent.click(first, { ctrlKey: true });
    fireEvent.click(second, { ctrlKey: true });
    const bar = screen.getByRole('toolbar', { name: 'Selected images' });
    const sizes = () => made.slice(0, 2).map((id) => main.runtime.core.history.get(id)?.images[0]);
    const before = sizes().map((image) => image?.bytes);
    await user.click(within(bar).getByRole('button', { name: 'Write metadata to files' }));
    await within(confirmations()).findByText('Wrote 2 files.');
    expect(main.callsTo('triage:writeMetadata')).toHaveLength(1);
    // Each file took its XMP: the records say their new sizes.
    await waitFor(() => expect(sizes().map((image) => image?.bytes)).not.toEqual(before));

    // Again: nothing new to write.
    await user.click(within(bar).getByRole('button', { name: 'Write metadata to files' }));
    await within(confirmations()).findByText('Wrote no file. 2 already had their metadata.');
  });
});
