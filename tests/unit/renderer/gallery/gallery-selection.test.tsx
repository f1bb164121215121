/**
 * The gallery's multi-selection: click with Ctrl/Cmd or Shift, Space and
 * Shift+Space, Ctrl/Cmd+A, Escape; a toolbar with the count that deletes (one question, then
 * Undo), favourites and exports the selection.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { focusedKey, keyOf, seriousViolations, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const toolbar = (): HTMLElement => screen.getByRole('toolbar', { name: 'Selected images' });
const selectedKeys = (): string[] =>
  screen
    .getAllByRole('gridcell')
    .filter((cell) => cell.getAttribute('aria-selected') === 'true')
    .map((cell) => cell.dataset['key'] ?? '');
const confirmations = (): HTMLElement => screen.getByRole('status', { name: 'Done' });

describe('selecting images in the gallery', () => {
  it('Ctrl-click toggles, Shift-click takes the range, and the toolbar counts them', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 12) });
    expect(screen.queryByRole('toolbar', { name: 'Selected images' })).toBeNull();
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(3)), { metaKey: true });
    expect(selectedKeys()).toEqual([keyOf(1), keyOf(3)]);
    expect(toolbar().textContent).toContain('2 selected');
    fireEvent.click(tile(keyOf(6)), { shiftKey: true });
    expect(selectedKeys()).toEqual([3, 4, 5, 6].map(keyOf));
    fireEvent.click(tile(keyOf(3)), { ctrlKey: true });
    expect(selectedKeys()).toEqual([4, 5, 6].map(keyOf));
    expect(screen.getByRole('grid').getAttribute('aria-multiselectable')).toBe('true');
    // No viewer opened on the way.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('while something is selected a plain click selects; with nothing selected it opens', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 6) });
    await user.click(screen.getByRole('button', { name: 'Select “Prompt number 2”' }));
    expect(selectedKeys()).toEqual([keyOf(2)]);
    await user.click(screen.getByAltText('Prompt number 4'));
    expect(selectedKeys()).toEqual([keyOf(2), keyOf(4)]);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(toolbar()).getByRole('button', { name: 'Clear selection' }));
    expect(selectedKeys()).toEqual([]);
    await user.click(screen.getByAltText('Prompt number 4'));
    expect(await screen.findByRole('dialog', { name: 'Image viewer' })).toBeTruthy();
  });

  it('works from the keyboard: Space, Shift+Space, Ctrl+A and Escape', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 8) });
    act(() => tile(keyOf(1)).focus());
    await user.keyboard(' ');
    expect(selectedKeys()).toEqual([keyOf(1)]);
    await user.keyboard('{ArrowRight}{ArrowRight}{Shift>} {/Shift}');
    expect(selectedKeys()).toEqual([1, 2, 3].map(keyOf));
    await user.keyboard('{ArrowRight} ');
    expect(selectedKeys()).toEqual([1, 2, 3, 4].map(keyOf));
    await user.keyboard(' ');
    expect(selectedKeys()).toEqual([1, 2, 3].map(keyOf));
    await user.keyboard('{Control>}a{/Control}');
    expect(selectedKeys()).toHaveLength(8);
    expect(toolbar().textContent).toContain('All 8 images');
    await user.keyboard('{Escape}');
    expect(selectedKeys()).toEqual([]);
    expect(focusedKey()).toBe(keyOf(4));
    // Enter still opens.
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Image viewer' })).toBeTruthy();
  });

  it('leaves Ctrl+A in the search field to the text', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    const search = screen.getByRole('searchbox', { name: 'Search prompts' });
    await user.type(search, 'harbour');
    await user.keyboard('{Control>}a{/Control}');
    expect(screen.queryByRole('toolbar', { name: 'Selected images' })).toBeNull();
  });

  it('deletes the selection after one question, and Undo brings every image back', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 10) });
    for (const n of [2, 3, 5]) fireEvent.click(tile(keyOf(n)), { ctrlKey: true });
    await user.click(within(toolbar()).getByRole('button', { name: 'Move to trash' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Move 3 images to the trash?');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() =>
      expect(main.callsTo('gallery:deleteImages')).toEqual([
        { images: [2, 3, 5].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 })) },
      ]),
    );
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(7));
    expect(screen.queryByRole('toolbar', { name: 'Selected images' })).toBeNull();
    await within(confirmations()).findByText('3 images moved to the trash.');
    // The focus is on the image now where the first deleted one was.
    await waitFor(() => expect(focusedKey()).toBe(keyOf(4)));

    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(10));
    expect(main.callsTo('gallery:undoDelete')).toEqual(main.callsTo('gallery:deleteImages'));
    await within(confirmations()).findByText('3 images restored.');
    await waitFor(() => expect(focusedKey()).toBe(keyOf(2)));
  });

  it('says one thing at a time: a later delete takes the place of the earlier, Undo is its own', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 6) });
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await within(confirmations()).findByText('Image moved to the trash.');
    fireEvent.click(tile(keyOf(3)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(4)), { ctrlKey: true });
    await user.click(within(toolbar()).getByRole('button', { name: 'Move to trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await within(confirmations()).findByText('2 images moved to the trash.');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    // Nothing piles up: the first delete's sentence is gone, never to come back.
    expect(within(confirmations()).queryByText('Image moved to the trash.')).toBeNull();
    expect(within(confirmations()).getAllByRole('button', { name: 'Undo' })).toHaveLength(1);

    await user.click(within(confirmations()).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(5));
    expect(main.callsTo('gallery:undoDelete')).toEqual([
      { images: [3, 4].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 })) },
    ]);
    expect(within(confirmations()).queryByText('Image moved to the trash.')).toBeNull();
  });

  it('cancelling the question deletes nothing and keeps the selection', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 4) });
    fireEvent.click(tile(keyOf(0)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    await user.click(within(toolbar()).getByRole('button', { name: 'Move to trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(main.callsTo('gallery:deleteImages')).toEqual([]);
    expect(selectedKeys()).toEqual([keyOf(0), keyOf(1)]);
  });

  it('picks and unflags the selection as one triage step, which the window’s Undo takes back', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    fireEvent.click(tile(keyOf(0)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(2)), { shiftKey: true });
    const images = [0, 1, 2].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Pick' }));
    // One triage request for them all, as the P key makes.
    await waitFor(() =>
      expect(main.callsTo('triage:apply')).toEqual([
        { images, change: { kind: 'flag', flag: 'pick' } },
      ]),
    );
    await within(confirmations()).findByText('Picked 3 images.');
    for (const n of [0, 1, 2]) {
      expect(within(tile(keyOf(n))).getByRole('img', { name: 'Pick' })).toBeTruthy();
    }
    // Ctrl+Z anywhere outside a text field takes the whole pick back, in main too.
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    fireEvent.keyDown(document.body, { key: 'z', code: 'KeyZ', ctrlKey: true });
    await waitFor(() =>
      expect(main.runtime.core.history.get('seed-000001')?.images[0]?.favourite).toBe(false),
    );
    await waitFor(() =>
      expect(within(tile(keyOf(1))).queryByRole('img', { name: 'Pick' })).toBeNull(),
    );
    await user.click(within(toolbar()).getByRole('button', { name: 'Pick' }));
    await waitFor(() =>
      expect(within(tile(keyOf(1))).getByRole('img', { name: 'Pick' })).toBeTruthy(),
    );
    await user.click(within(toolbar()).getByRole('button', { name: 'Unflag' }));
    await within(confirmations()).findByText('Unflagged 3 images.');
    expect(within(tile(keyOf(1))).queryByRole('img', { name: 'Pick' })).toBeNull();
  });

  it('exports the selection to the folder main asks for, and says where', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    const chosen = join(main.dir, 'Export');
    await mkdir(chosen);
    main.env.PICTOR_E2E_CHOOSE_FOLDER = chosen;
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(4)), { ctrlKey: true });
    await user.click(within(toolbar()).getByRole('button', { name: 'Export…' }));
    expect(main.callsTo('gallery:exportImages')).toEqual([
      { images: [1, 4].map((n) => ({ localId: `seed-00000${String(n)}`, index: 0 })) },
    ]);
    await within(confirmations()).findByText(`2 images copied to ${chosen}.`);
    // The two files, copied into the folder chosen.
    expect((await readdir(chosen)).sort()).toHaveLength(2);
    // The dialog cancelled: nothing is copied, nothing is said.
    main.env.PICTOR_E2E_CHOOSE_FOLDER = undefined;
    await user.click(within(toolbar()).getByRole('button', { name: 'Export…' }));
    expect(main.callsTo('gallery:exportImages')).toHaveLength(2);
    expect(await readdir(chosen)).toHaveLength(2);
  });

  it('says why nothing could be copied when the folder main asked for is gone', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    const gone = join(main.dir, 'Unplugged drive');
    main.env.PICTOR_E2E_CHOOSE_FOLDER = gone;
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    fireEvent.click(tile(keyOf(2)), { ctrlKey: true });
    await user.click(within(toolbar()).getByRole('button', { name: 'Export…' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      `Pictor stopped copying images into ${gone} because that folder does not exist (ENOENT). No image was copied there; choose another folder, then export again.`,
    );
  });

  it('has no serious or critical axe violations with a selection', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 6) });
    fireEvent.click(tile(keyOf(1)), { ctrlKey: true });
    expect(await seriousViolations()).toEqual([]);
  });
});
