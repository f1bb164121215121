/**
 * The window's one Undo (store/undo-slice.ts, shell/undo-key.ts) over main's real handlers,
 * history and trash: each kind of step (a rating, a flag, a tag, a board, a delete, a purge of
 * the rejects, a move between boards) made from each view where it can be made (the grid, the
 * viewer, the Triage view, the task list and its selection bar) is taken back by Ctrl+Z (⌘Z) with the focus on the page
 * itself; the steps come back newest first, whichever path and screen made them; a text field keeps its own Ctrl+Z; an
 * Undo that fails says so and keeps its step.
 */
import {
  act,
  createEvent,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flagOf, ratingOf } from '../../../../shared/domain/triage';
import { StatusArea } from '../../../../renderer/shell/status-area';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { wordsOf } from '../../../../renderer/store/status-slice';
import type { WiredApi } from '../../../support/wired-api';
import { keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';
import { giveSize } from '../layout-sizes';
import { startWiredApp } from '../render-wired-app';

const renderWired = wiredGallery();
type User = Awaited<ReturnType<typeof renderWired>>['user'];

const idOf = (n: number): string => `seed-${String(n).padStart(6, '0')}`;

/** The image as main's history has it now. */
function stored(main: WiredApi, n: number) {
  const image = main.runtime.core.history.get(idOf(n))?.images[0];
  if (!image) throw new Error(`No image ${String(n)}`);
  return {
    rating: ratingOf(image),
    flag: flagOf(image),
    tags: image.tags ?? [],
    boards: image.boards ?? [],
    state: image.state,
  };
}

/** Ctrl+Z (⌘Z with `mac`) with the focus on the page itself: nothing has it. */
function undoFromBody(mac = false): void {
  act(() => (document.activeElement as HTMLElement | null)?.blur());
  expect(document.activeElement).toBe(document.body);
  fireEvent.keyDown(document.body, { key: 'z', code: 'KeyZ', ctrlKey: !mac, metaKey: mac });
}

type View = 'grid' | 'viewer' | 'triage';

/** Shows image `n` in `view`; answers the element its keys go to. */
async function open(view: View, user: User, n: number): Promise<HTMLElement> {
  act(() => tile(keyOf(n)).focus());
  if (view === 'grid') return tile(keyOf(n));
  if (view === 'viewer') {
    await user.keyboard('{Enter}');
    return screen.findByRole('dialog', { name: 'Image viewer' });
  }
  await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
  return screen.findByRole('dialog', { name: 'Triage view' });
}

const press = (target: Element, code: string, key: string, init: KeyboardEventInit = {}) =>
  fireEvent.keyDown(target, { code, key, ...init });

/** Tags the image shown with `tag` through the tag editor (T), then closes it. */
async function tagWith(target: HTMLElement, user: User, tag: string): Promise<void> {
  press(target, 'KeyT', 't');
  const editor = await screen.findByRole('dialog', { name: 'Tags of 1 image' });
  await user.keyboard(`${tag}{Enter}`);
  await within(editor).findByRole('list', { name: 'Their tags' });
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog', { name: /^Tags of/ })).toBeNull());
}

/** A kind of triage step: how a key makes it, and what main holds before and after. */
interface Kind {
  readonly name: string;
  make(target: HTMLElement, user: User): Promise<void>;
  readonly field: 'rating' | 'flag' | 'tags' | 'boards';
  readonly after: unknown;
  readonly before: unknown;
}

const KINDS: readonly Kind[] = [
  {
    name: 'a rating',
    make: async (target) => void press(target, 'Digit4', '4'),
    field: 'rating',
    before: 0,
    after: 4,
  },
  {
    name: 'a flag',
    make: async (target) => void press(target, 'KeyX', 'x'),
    field: 'flag',
    before: 'none',
    after: 'reject',
  },
  {
    name: 'a tag',
    make: (target, user) => tagWith(target, user, 'cat'),
    field: 'tags',
    before: [],
    after: ['cat'],
  },
  {
    name: 'a board',
    make: async (target) => void press(target, 'KeyB', 'b'),
    field: 'boards',
    before: [],
    after: ['Clients'],
  },
];

describe('Ctrl+Z with the focus nowhere takes back each kind of triage step, from each view', () => {
  for (const view of ['grid', 'viewer', 'triage'] as const) {
    for (const kind of KINDS) {
      it(`${kind.name} made in the ${view}`, async () => {
        const { main, user } = await renderWired({
          prepare: (m) => {
            seedGallery(m, 3);
            if (!m.runtime.core.boards.list().some((b) => b.path === 'Clients')) {
              m.runtime.core.boards.create('Clients');
            }
          },
        });
        act(() => useAppStore.getState().triageSetTarget('Clients'));
        const target = await open(view, user, 1);
        await kind.make(target, user);
        await waitFor(() => expect(stored(main, 1)[kind.field]).toEqual(kind.after));
        await waitFor(() => expect(useAppStore.getState().undoEntries).toHaveLength(1));
        undoFromBody(view === 'triage');
        await waitFor(() => expect(stored(main, 1)[kind.field]).toEqual(kind.before));
        // Said in the status area (its polite region is the announcement), naming the step.
        const done = screen.getAllByRole('status', { name: 'Done' }).at(-1)!;
        await waitFor(() => expect(done.textContent).toMatch(/^Undone: /));
        expect(useAppStore.getState().undoEntries).toEqual([]);
        act(() => useAppStore.getState().triageSetTarget(null));
      });
    }
  }
});

/** Answers the alert dialog's question with its action. */
async function answer(user: User, action: string): Promise<void> {
  const question = await screen.findByRole('alertdialog');
  await user.click(within(question).getByRole('button', { name: action }));
}

describe('Ctrl+Z with the focus nowhere takes back a delete, a purge and a move', () => {
  for (const view of ['grid', 'viewer'] as const) {
    it(`a delete made in the ${view}`, async () => {
      const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
      const target = await open(view, user, 1);
      press(target, 'Delete', 'Delete');
      await answer(user, 'Move to trash');
      await waitFor(() => expect(stored(main, 1).state).toBe('deleted'));
      await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
      undoFromBody();
      await waitFor(() => expect(stored(main, 1).state).toBe('saved'));
      await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    });
  }

  const rejectTwo = (main: WiredApi) =>
    main.runtime.core.triage.apply(
      [0, 2].map((n) => ({ localId: idOf(n), index: 0 })),
      { kind: 'flag', flag: 'reject' },
    );

  it('a purge of the Rejected view from the sidebar, with nothing focused after it', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    await rejectTwo(main);
    await act(() => useAppStore.getState().gallerySetFilters({ rejected: true }));
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(2));
    act(() => screen.getByRole('treeitem', { name: /^Rejected/ }).focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    await user.click(await screen.findByRole('menuitem', { name: 'Purge rejects…' }));
    await answer(user, 'Move to trash');
    await waitFor(() =>
      expect([0, 2].map((n) => stored(main, n).state)).toEqual(['deleted', 'deleted']),
    );
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    undoFromBody();
    await waitFor(() =>
      expect([0, 2].map((n) => stored(main, n).state)).toEqual(['saved', 'saved']),
    );
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
  });

  it('a purge made in the Triage view', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    await rejectTwo(main);
    const view = await open('triage', user, 1);
    press(view, 'Delete', 'Delete', { ctrlKey: true });
    await answer(user, 'Move to trash');
    await waitFor(() => expect(stored(main, 2).state).toBe('deleted'));
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    undoFromBody();
    await waitFor(() =>
      expect([0, 2].map((n) => stored(main, n).state)).toEqual(['saved', 'saved']),
    );
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
  });

  it('a move from one board to another (a drop with Alt) in the grid', async () => {
    const { main, user } = await renderWired({
      prepare: async (m) => {
        seedGallery(m, 2);
        for (const path of ['Inbox', 'Done']) m.runtime.core.boards.create(path);
        await m.runtime.core.triage.apply([{ localId: idOf(1), index: 0 }], {
          kind: 'board',
          path: 'Inbox',
          add: true,
        });
      },
    });
    await user.click(screen.getByRole('treeitem', { name: /^Inbox/ }));
    await waitFor(() => expect(useAppStore.getState().galleryFilters.board).toBe('Inbox'));
    fireEvent.dragStart(within(tile(keyOf(1))).getByRole('img'));
    const done = screen.getByRole('treeitem', { name: /^Done/ });
    const drop = createEvent.drop(done, { dataTransfer: { types: ['Files'] } });
    Object.defineProperty(drop, 'altKey', { value: true });
    fireEvent(done, drop);
    await waitFor(() => expect(stored(main, 1).boards).toEqual(['Done']));
    undoFromBody();
    await waitFor(() => expect(stored(main, 1).boards).toEqual(['Inbox']));
  });
});

describe('one stack for the window', () => {
  it('takes back steps newest first, whichever view made them: a rating in the viewer, deletes in the grid', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const viewer = await open('viewer', user, 0);
    press(viewer, 'Digit5', '5');
    await waitFor(() => expect(stored(main, 0).rating).toBe(5));
    press(viewer, 'Escape', 'Escape');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Image viewer' })).toBeNull());
    for (const n of [3, 2]) {
      press(await open('grid', user, n), 'Delete', 'Delete');
      await answer(user, 'Move to trash');
      await waitFor(() => expect(stored(main, n).state).toBe('deleted'));
      await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    }
    expect(useAppStore.getState().undoEntries.map((entry) => wordsOf(entry.label))).toEqual([
      'Rated 1 image ★5.',
      'Image moved to the trash.',
      'Image moved to the trash.',
    ]);
    undoFromBody();
    await waitFor(() => expect(stored(main, 2).state).toBe('saved'));
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    expect(stored(main, 3).state).toBe('deleted');
    undoFromBody();
    await waitFor(() => expect(stored(main, 3).state).toBe('saved'));
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
    expect(stored(main, 0).rating).toBe(5);
    // The viewer's rating, taken back from the grid.
    press(await open('grid', user, 1), 'KeyZ', 'z', { ctrlKey: true });
    await waitFor(() => expect(stored(main, 0).rating).toBe(0));
    undoFromBody();
    await within(screen.getByRole('status', { name: 'Done' })).findByText(
      'There is nothing to undo.',
    );
  });

  it('a step’s Undo button takes it off the stack, so Ctrl+Z goes on to the one before', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    const grid = await open('grid', user, 0);
    press(grid, 'Digit2', '2');
    await waitFor(() => expect(stored(main, 0).rating).toBe(2));
    press(grid, 'KeyP', 'p');
    await waitFor(() => expect(stored(main, 0).flag).toBe('pick'));
    const done = screen.getByRole('status', { name: 'Done' });
    await user.click(within(done).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(stored(main, 0).flag).toBe('none'));
    expect(useAppStore.getState().undoEntries).toHaveLength(1);
    undoFromBody();
    await waitFor(() => expect(stored(main, 0).rating).toBe(0));
  });

  it('a text field keeps its own Ctrl+Z: the window takes nothing back', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 2) });
    press(await open('grid', user, 0), 'Digit3', '3');
    await waitFor(() => expect(stored(main, 0).rating).toBe(3));
    const search = screen.getByRole('searchbox', { name: 'Search prompts' });
    await user.click(search);
    await user.keyboard('cat');
    const event = createEvent.keyDown(search, { key: 'z', code: 'KeyZ', ctrlKey: true });
    fireEvent(search, event);
    // Not prevented: the browser's undo of typing goes on.
    expect(event.defaultPrevented).toBe(false);
    expect(useAppStore.getState().undoEntries).toHaveLength(1);
    expect(main.callsTo('triage:undo')).toEqual([]);
    expect(stored(main, 0).rating).toBe(3);
  });
});

describe('an Undo that fails', () => {
  // Fault: main's triage:undo fails once (a history that cannot be written), then answers; through
  // the contract's interceptor.
  it('says so in a sentence naming the step, and keeps the step for another try', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 2) });
    main.intercept.request['triage:undo'].fail(
      { code: 'failed', message: 'The history could not be written.' },
      1,
    );
    press(await open('grid', user, 0), 'Digit4', '4');
    await waitFor(() => expect(useAppStore.getState().undoEntries).toHaveLength(1));
    undoFromBody();
    const errors = screen.getByRole('region', { name: 'Errors' });
    await waitFor(() =>
      expect(errors.querySelector('.message__text')?.textContent).toMatch(
        /^Could not undo: Rated 1 image ★4\. /,
      ),
    );
    expect(useAppStore.getState().undoEntries).toHaveLength(1);
    // Asked again, it is taken back.
    undoFromBody();
    await waitFor(() => expect(useAppStore.getState().undoEntries).toEqual([]));
    await within(screen.getByRole('status', { name: 'Done' })).findByText(
      'Undone: Rated 1 image ★4.',
    );
  });
});

describe('the Tasks screen', () => {
  const rows = (): HTMLElement[] => screen.getAllByRole('article');

  it('a task removed from the list, and a rating made in the gallery, come back from the Tasks screen', async () => {
    const { user, main } = await startWiredApp({ prepare: (m) => void seedGallery(m, 3) });
    giveSize('.gallery-grid', { width: 900, height: 600 });
    await user.click(screen.getByRole('button', { name: 'Gallery' }));
    await waitFor(() => expect(tile(keyOf(2))).toBeTruthy());
    press(await open('grid', user, 2), 'Digit3', '3');
    await waitFor(() => expect(stored(main, 2).rating).toBe(3));
    await user.click(screen.getByRole('button', { name: 'Tasks' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove from history' }));
    await answer(user, 'Remove');
    await waitFor(() => expect(rows()).toHaveLength(2));
    undoFromBody();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(main.runtime.core.history.get(idOf(0))).toBeDefined();
    expect(stored(main, 2).rating).toBe(3);
    // The gallery's rating, from the Tasks screen: one stack for the window.
    undoFromBody();
    await waitFor(() => expect(stored(main, 2).rating).toBe(0));
    expect(useAppStore.getState().view).toBe('tasks');
  });

  it('the selection bar’s Pick and Reject on tasks with images, each one step, come back newest first', async () => {
    const { user, main } = await startWiredApp({ prepare: (m) => void seedGallery(m, 3) });
    await waitFor(() => expect(rows()).toHaveLength(3));
    for (const n of [0, 1]) {
      await user.click(within(rows()[n]!).getByRole('checkbox', { name: 'Select' }));
    }
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Pick' }));
    await waitFor(() => expect([0, 1].map((n) => stored(main, n).flag)).toEqual(['pick', 'pick']));
    // Main stars no task here: both have images, whose flags are triage's.
    expect(main.callsTo('tasks:setFavouriteMany')).toEqual([]);
    await user.click(within(bar).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect([0, 1].map((n) => stored(main, n).flag)).toEqual(['reject', 'reject']),
    );
    undoFromBody();
    await waitFor(() => expect([0, 1].map((n) => stored(main, n).flag)).toEqual(['pick', 'pick']));
    undoFromBody();
    await waitFor(() => expect([0, 1].map((n) => stored(main, n).flag)).toEqual(['none', 'none']));
    expect(stored(main, 2).flag).toBe('none');
  });
});

describe('where Ctrl+Z is not the window’s', () => {
  it('an editor with its own undo, or a question on screen, keeps the key; elsewhere it runs the step', async () => {
    let runs = 0;
    render(
      <>
        <StatusArea />
        <section data-own-undo="">
          <button type="button">Stroke</button>
        </section>
        <div role="alertdialog" aria-label="Question">
          <button type="button">Yes</button>
        </div>
        <button type="button">Elsewhere</button>
      </>,
    );
    act(() => {
      useAppStore.getState().undoPush('A step.', async () => {
        runs += 1;
        return true;
      });
    });
    for (const name of ['Stroke', 'Yes']) {
      const button = screen.getByRole('button', { name });
      const event = createEvent.keyDown(button, { key: 'z', code: 'KeyZ', ctrlKey: true });
      fireEvent(button, event);
      expect(event.defaultPrevented).toBe(false);
    }
    expect(runs).toBe(0);
    fireEvent.keyDown(screen.getByRole('button', { name: 'Elsewhere' }), {
      key: 'z',
      code: 'KeyZ',
      metaKey: true,
    });
    await waitFor(() => expect(runs).toBe(1));
    expect(useAppStore.getState().undoEntries).toEqual([]);
  });
});
