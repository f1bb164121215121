/**
 * Undo after a batch delete, by keyboard: the focus goes to the image now where the first deleted
 * one was (or to the grid), never to the page; Ctrl+Z then undoes the delete, and does so from
 * the page too if the focus ended up there; a text field keeps its own Ctrl+Z. And the grid
 * never says "No images yet" while images remain beyond the ones loaded.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GALLERY_PAGE_SIZE } from '../../../../renderer/store/gallery-list-model';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { focusedKey, keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const toolbar = (): HTMLElement => screen.getByRole('toolbar', { name: 'Selected images' });

/** Records whether `text` was ever on the page while `during` runs. */
async function everShown(text: string, during: () => Promise<void>): Promise<boolean> {
  let seen = document.body.textContent?.includes(text) ?? false;
  const observer = new MutationObserver(() => {
    seen ||= document.body.textContent?.includes(text) ?? false;
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  try {
    await during();
  } finally {
    observer.disconnect();
  }
  return seen;
}

describe('deleting by keyboard, and Undo', () => {
  it('never says "No images yet" while images remain past the loaded ones', async () => {
    const { main } = await renderWired({ prepare: (m) => seedGallery(m, 300), events: true });
    const loaded = selectGalleryItems(useAppStore.getState());
    expect(loaded).toHaveLength(GALLERY_PAGE_SIZE);
    // A deleted image, once gone from the list, never comes back (a page read before it went).
    let gone = false;
    let back = false;
    const stop = useAppStore.subscribe((state) => {
      const present = selectGalleryItems(state).some((item) => item.localId === 'seed-000000');
      if (!present) gone = true;
      else if (gone) back = true;
    });
    const shown = await everShown('No images yet', async () => {
      await act(() => useAppStore.getState().galleryDeleteImages(loaded));
      await waitFor(() => expect(tile(keyOf(GALLERY_PAGE_SIZE))).toBeTruthy());
    });
    stop();
    expect(shown).toBe(false);
    expect(back).toBe(false);
    expect(main.callsTo('gallery:deleteImages').flatMap((call) => call.images)).toHaveLength(200);
    await waitFor(() => expect(screen.getByText('100 images')).toBeTruthy());
  });

  it('the focus goes to the next image, and Ctrl+Z there undoes the delete', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 8) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard(' {ArrowRight}{Shift>} {/Shift}');
    expect(toolbar().textContent).toContain('2 selected');
    act(() => within(toolbar()).getByRole('button', { name: 'Move to trash' }).focus());
    await user.keyboard('{Enter}');
    const confirm = await screen.findByRole('alertdialog');
    act(() => within(confirm).getByRole('button', { name: 'Move to trash' }).focus());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(6));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(4)));
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(8));
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
  });

  it('Ctrl+Z from the page undoes a delete that left no tile to focus; a text field keeps its own', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}a{/Control}');
    await user.click(within(toolbar()).getByRole('button', { name: 'Move to trash' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(screen.queryAllByRole('gridcell')).toHaveLength(0));
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(3));
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);

    // In the search field, Ctrl+Z is the field's (its text), never a delete's Undo.
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(2));
    await user.click(screen.getByRole('searchbox', { name: 'Search prompts' }));
    await user.keyboard('{Control>}z{/Control}');
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
  });

  it('an Undo main could not do says main’s own sentence, not a generic one', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    // Main cannot undo the delete (it answers that the image's folder is gone).
    const undo = main.intercept.request['gallery:undoDelete'];
    undo.handle(({ images }) => ({
      items: [],
      failed: images.length,
      problem: 'The image’s folder is no longer in the gallery.',
    }));
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Move to trash' }),
    );
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(2));
    await user.keyboard('{Control>}z{/Control}');
    const shown = await screen.findByText(
      'Could not undo: Image moved to the trash. The image’s folder is no longer in the gallery.',
      { selector: '.message__text' },
    );
    expect(shown).toBeTruthy();
    // The delete stands and its step stays: Ctrl+Z asks main again for the same image.
    expect(useAppStore.getState().undoEntries).toHaveLength(1);
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(undo.inputs).toHaveLength(2));
    expect(undo.inputs[1]).toEqual(undo.inputs[0]);
  });

  it('Delete on a tile of a selection of several asks about the whole selection', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 6) });
    act(() => tile(keyOf(1)).focus());
    await user.keyboard(' {ArrowRight} {ArrowRight}');
    expect(toolbar().textContent).toContain('2 selected');
    // On a tile outside the selection, Delete is about that tile alone.
    await user.keyboard('{Delete}');
    expect((await screen.findByRole('alertdialog')).textContent).toContain(
      'Move this image to the trash?',
    );
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Move 2 images to the trash?');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(screen.getAllByRole('gridcell')).toHaveLength(4));
    expect(main.callsTo('gallery:deleteImages').flatMap((call) => call.images)).toEqual([
      { localId: 'seed-000001', index: 0 },
      { localId: 'seed-000002', index: 0 },
    ]);
  });
});
