/**
 * Triage from the keyboard in the gallery, over main's real handlers and history: digits rate
 * (the same digit again clears), P/F pick, X reject, U unflag, by the key's place
 * (`KeyboardEvent.code`) whatever letter the layout writes; a key acts on the selection when
 * more than one image is selected, else on the focused tile; Shift moves on; Ctrl+Z and
 * Ctrl+Shift+Z take back and apply again; keys never act in a text field; B files into the
 * target board; the Triage view opens on the focused image and Escape returns to it.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ratingOf, flagOf } from '../../../../shared/domain/triage';
import type { WiredApi } from '../../../support/wired-api';
import { focusedKey, keyOf, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { applyLocale, formatDateTime } from '../../../../renderer/i18n';

const renderWired = wiredGallery();

afterEach(async () => {
  await act(() => applyLocale('en'));
});

/** The image as main's history has it now. */
function stored(main: WiredApi, index: number) {
  const record = main.runtime.core.history.get(`seed-${String(index).padStart(6, '0')}`);
  const image = record?.images[0];
  if (!image) throw new Error(`No image ${String(index)}`);
  return {
    rating: ratingOf(image),
    flag: flagOf(image),
    tags: image.tags ?? [],
    boards: image.boards ?? [],
  };
}

/** A key by its place: `code` is what the triage keys read; `key` is what the layout writes. */
function press(
  target: Element,
  code: string,
  key: string,
  modifiers: Partial<KeyboardEventInit> = {},
) {
  fireEvent.keyDown(target, { code, key, ...modifiers });
}

const doneText = (): string => screen.getByRole('status', { name: 'Done' }).textContent ?? '';

describe('triage keys in the grid', () => {
  it('rate the focused tile by the digit’s place, and the same digit again clears it', async () => {
    const { main } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    act(() => tile(keyOf(1)).focus());
    // AZERTY writes “(” on Digit5's place without Shift.
    press(tile(keyOf(1)), 'Digit5', '(');
    await waitFor(() => expect(stored(main, 1).rating).toBe(5));
    await waitFor(() => expect(tile(keyOf(1)).querySelector('[data-rating="5"]')).not.toBeNull());
    expect(doneText()).toContain('Rated 1 image ★5');
    press(tile(keyOf(1)), 'Numpad5', '5');
    await waitFor(() => expect(stored(main, 1).rating).toBe(0));
    expect(stored(main, 0).rating).toBe(0);
  });

  it('pick, reject and unflag by place (QWERTZ and AZERTY write other letters elsewhere)', async () => {
    const { main } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    act(() => tile(keyOf(0)).focus());
    press(tile(keyOf(0)), 'KeyP', 'p');
    await waitFor(() => expect(stored(main, 0).flag).toBe('pick'));
    press(tile(keyOf(0)), 'KeyX', 'x');
    await waitFor(() => expect(stored(main, 0).flag).toBe('reject'));
    await waitFor(() => expect(tile(keyOf(0)).className).toContain('gallery-tile--rejected'));
    press(tile(keyOf(0)), 'KeyU', 'u');
    await waitFor(() => expect(stored(main, 0).flag).toBe('none'));
    // F picks too (the favourite of earlier versions).
    press(tile(keyOf(0)), 'KeyF', 'f');
    await waitFor(() => expect(stored(main, 0).flag).toBe('pick'));
    // A letter the layout writes at another place does nothing: "p" typed on the KeyQ place.
    press(tile(keyOf(1)), 'KeyQ', 'p');
    expect(stored(main, 1).flag).toBe('none');
  });

  it('act on every selected image when more than one is selected, with one Undo and Redo', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 6) });
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(2)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(4)), { ctrlKey: true });
    act(() => tile(keyOf(4)).focus());
    press(tile(keyOf(4)), 'Digit3', '3');
    await waitFor(() => expect([1, 2, 4].map((n) => stored(main, n).rating)).toEqual([3, 3, 3]));
    expect(stored(main, 3).rating).toBe(0);
    await waitFor(() => expect(doneText()).toContain('Rated 3 images ★3'));
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect([1, 2, 4].map((n) => stored(main, n).rating)).toEqual([0, 0, 0]));
    await user.keyboard('{Control>}{Shift>}Z{/Shift}{/Control}');
    await waitFor(() => expect([1, 2, 4].map((n) => stored(main, n).rating)).toEqual([3, 3, 3]));
  });

  it('Shift with a key applies it and moves to the next tile', async () => {
    const { main } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    act(() => tile(keyOf(0)).focus());
    press(tile(keyOf(0)), 'Digit2', '"', { shiftKey: true });
    await waitFor(() => expect(focusedKey()).toBe(keyOf(1)));
    await waitFor(() => expect(stored(main, 0).rating).toBe(2));
    press(tile(keyOf(1)), 'KeyX', 'X', { shiftKey: true });
    await waitFor(() => expect(focusedKey()).toBe(keyOf(2)));
    await waitFor(() => expect(stored(main, 1).flag).toBe('reject'));
  });

  it('never act while a text field has the focus', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 2) });
    act(() => tile(keyOf(0)).focus());
    const search = screen.getByRole('searchbox', { name: 'Search prompts' });
    await user.click(search);
    await user.keyboard('4px');
    expect((search as HTMLInputElement).value).toBe('4px');
    // Nothing was sent, no record changed.
    expect(main.callsTo('triage:apply')).toEqual([]);
    expect([0, 1].map((n) => stored(main, n))).toEqual(
      [0, 1].map(() => ({ rating: 0, flag: 'none', tags: [], boards: [] })),
    );
  });

  it('B files the focused tile into the target board and takes it out again', async () => {
    const { main } = await renderWired({ prepare: (m) => seedGallery(m, 2) });
    main.runtime.core.boards.create('Clients/Acme');
    act(() => tile(keyOf(0)).focus());
    press(tile(keyOf(0)), 'KeyB', 'b');
    await waitFor(() => expect(doneText()).toContain('Choose a target board first'));
    act(() => useAppStore.getState().triageSetTarget('Clients/Acme'));
    press(tile(keyOf(0)), 'KeyB', 'b');
    await waitFor(() => expect(stored(main, 0).boards).toEqual(['Clients/Acme']));
    press(tile(keyOf(0)), 'KeyB', 'b');
    await waitFor(() => expect(stored(main, 0).boards).toEqual([]));
    act(() => useAppStore.getState().triageSetTarget(null));
  });
});

describe('the Triage view', () => {
  it('opens on the focused image, rates it, moves on with Shift, and Escape returns to its tile', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    expect(view.textContent).toContain('Image 3 of 5');
    press(view, 'Digit4', '4', { shiftKey: true });
    await waitFor(() => expect(stored(main, 2).rating).toBe(4));
    await waitFor(() => expect(view.textContent).toContain('Image 4 of 5'));
    press(view, 'KeyX', 'x');
    await waitFor(() => expect(stored(main, 3).flag).toBe('reject'));
    press(view, 'Escape', 'Escape');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Triage view' })).toBeNull());
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));
  });

  it.each([
    [
      'en',
      'Triage view',
      '“Prompt number 1”, 3 stars, Reject, {1}. Image 2 of 3',
      '“Prompt number 0”, {0}. Image 1 of 3',
    ],
    [
      'de',
      'Sichtungsansicht',
      '„Prompt number 1“, 3 Sterne, Abgelehnt, {1}. Bild 2 von 3',
      '„Prompt number 0“, {0}. Bild 1 von 3',
    ],
    [
      'ar',
      'عرض الفرز',
      '«Prompt number 1»، 3 نجوم، مرفوضة، {1}. الصورة 2 من 3',
      '«Prompt number 0»، {0}. الصورة 1 من 3',
    ],
  ])('names each filmstrip image by what it is, then its place (%s)', async (...test) => {
    const [tag, title, rated, plain] = test;
    await act(() => applyLocale(tag));
    const second = [{ localId: 'seed-000001', index: 0 }];
    const { main, user } = await renderWired({
      prepare: async (m) => {
        seedGallery(m, 3);
        await m.runtime.core.triage.apply(second, { kind: 'rating', rating: 3 });
        await m.runtime.core.triage.apply(second, { kind: 'flag', flag: 'reject' });
      },
    });
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: title });
    const dated = (text: string) =>
      text.replace(/\{(\d)\}/, (_, n: string) =>
        formatDateTime(main.runtime.core.history.get(`seed-00000${n}`)!.createdAt),
      );
    const strip = within(view).getByRole('list');
    const names = () =>
      within(strip)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label'));
    await waitFor(() => expect(names()[1]).toBe(dated(rated)));
    expect(names()[0]).toBe(dated(plain));
  });

  it('counts the library’s matching images, not the page loaded (300 images, pages of 200)', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 300) });
    // The header's count is the library's; the view and its filmstrip say the same figure.
    await screen.findByText('300 images');
    expect(selectGalleryItems(useAppStore.getState()).length).toBeLessThan(300);
    const first = selectGalleryItems(useAppStore.getState())[0]!;
    act(() => tile(`${first.localId}/${String(first.index)}`).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    expect(view.querySelector('.triage-view__position')?.textContent).toBe('Image 1 of 300');
    const strip = within(view).getByRole('list', { name: 'Images of the current filter' });
    expect(within(strip).getAllByRole('button')[27]?.getAttribute('aria-label')).toMatch(
      /^“Prompt number 27”, .*\. Image 28 of 300$/,
    );
    press(view, 'Escape', 'Escape');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Triage view' })).toBeNull());
    // The viewer too: "of 300", never "of 200+" once the library has counted.
    await user.keyboard('{Enter}');
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(viewer.textContent).toContain('Image 1 of 300');
  });

  it('purges the rejects with Ctrl+Delete after saying how many and how large, and Undo brings them back', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    await main.runtime.core.triage.apply(
      [1, 3].map((n) => ({ localId: `seed-${String(n).padStart(6, '0')}`, index: 0 })),
      { kind: 'flag', flag: 'reject' },
    );
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    fireEvent.keyDown(view, { key: 'Delete', code: 'Delete', ctrlKey: true });
    const question = await screen.findByRole('alertdialog', {
      name: 'Move 2 rejected images to the trash?',
    });
    await user.click(within(question).getByRole('button', { name: 'Move to trash' }));
    // Main moves them one by one: both gone, whichever it wrote first.
    await waitFor(() =>
      expect(
        [1, 3].map(
          (n) => main.runtime.core.history.get(`seed-00000${String(n)}`)?.images[0]?.state,
        ),
      ).toEqual(['deleted', 'deleted']),
    );
    expect(main.runtime.core.history.get('seed-000000')?.images[0]?.state).toBe('saved');
    fireEvent.keyDown(view, { key: 'z', code: 'KeyZ', ctrlKey: true });
    await waitFor(() =>
      expect(
        [1, 3].map(
          (n) => main.runtime.core.history.get(`seed-00000${String(n)}`)?.images[0]?.state,
        ),
      ).toEqual(['saved', 'saved']),
    );
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
  });

  it('purges only the rejects the Triage view shows: the question counts what moves', async () => {
    const { main, user } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 6, (n) => ({ prompt: n % 2 === 1 ? 'a red fox' : 'a blue whale' })),
    });
    const id = (n: number) => `seed-${String(n).padStart(6, '0')}`;
    await main.runtime.core.triage.apply(
      [1, 2, 3, 4].map((n) => ({ localId: id(n), index: 0 })),
      { kind: 'flag', flag: 'reject' },
    );
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({ rejected: true, search: 'fox' });
    });
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(2));
    const first = selectGalleryItems(useAppStore.getState())[0]!;
    act(() => tile(`${first.localId}/${String(first.index)}`).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    const view = await screen.findByRole('dialog', { name: 'Triage view' });
    expect(view.textContent).toContain('Image 1 of 2');
    fireEvent.keyDown(view, { key: 'Delete', code: 'Delete', ctrlKey: true });
    // Two shown, two counted: not the four rejects of the library.
    const question = await screen.findByRole('alertdialog', {
      name: 'Move 2 rejected images to the trash?',
    });
    await user.click(within(question).getByRole('button', { name: 'Move to trash' }));
    const state = (n: number) => main.runtime.core.history.get(id(n))?.images[0]?.state;
    await waitFor(() => expect([1, 3].map(state)).toEqual(['deleted', 'deleted']));
    expect([0, 2, 4, 5].map(state)).toEqual(['saved', 'saved', 'saved', 'saved']);
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
  });

  it('says so when a purge empties the Rejected view, and Ctrl+Z or its Undo brings them back', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const rejects = [1, 3].map((n) => `seed-${String(n).padStart(6, '0')}`);
    await main.runtime.core.triage.apply(
      rejects.map((localId) => ({ localId, index: 0 })),
      { kind: 'flag', flag: 'reject' },
    );
    await act(async () => {
      await useAppStore.getState().gallerySetFilters({ rejected: true });
    });
    await waitFor(() => expect(selectGalleryItems(useAppStore.getState())).toHaveLength(2));
    const states = () =>
      rejects.map((localId) => main.runtime.core.history.get(localId)?.images[0]?.state);
    const purgeAll = async () => {
      const view = await screen.findByRole('dialog', { name: 'Triage view' });
      fireEvent.keyDown(view, { key: 'Delete', code: 'Delete', ctrlKey: true });
      const question = await screen.findByRole('alertdialog', {
        name: 'Move 2 rejected images to the trash?',
      });
      await user.click(within(question).getByRole('button', { name: 'Move to trash' }));
      await waitFor(() => expect(states()).toEqual(['deleted', 'deleted']));
      // Not a blank screen: what happened, with Undo and the way back.
      await within(view).findByText('No image is left in this view.');
      await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
      return view;
    };
    const first = selectGalleryItems(useAppStore.getState())[0]!;
    act(() => tile(`${first.localId}/${String(first.index)}`).focus());
    await user.keyboard('{Control>}{Shift>}T{/Shift}{/Control}');
    // Ctrl+Z with no image shown still takes back the purge.
    const view = await purgeAll();
    fireEvent.keyDown(view, { key: 'z', code: 'KeyZ', ctrlKey: true });
    await waitFor(() => expect(states()).toEqual(['saved', 'saved']));
    await waitFor(() => expect(view.querySelector('.triage-view__stage img')).not.toBeNull());
    // So does the view's own Undo button.
    await purgeAll();
    await user.click(within(view).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(states()).toEqual(['saved', 'saved']));
    await waitFor(() => expect(useAppStore.getState().galleryTrashBusy).toBe(0));
  });
});
