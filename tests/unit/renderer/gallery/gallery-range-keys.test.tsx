/**
 * Shift with a key that moves extends the gallery's selection, as Shift+click does: from the
 * anchor (the tile the focus left, when nothing anchors yet) to where the focus goes, with the
 * arrows, Home and End. Shift+End before the last page is loaded takes the whole set from the
 * anchor on ("all but the images before it"), loaded or not; Ctrl+Shift adds the range.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { focusedKey, keyOf, tile } from '../gallery/gallery-harness';
import { seedGallery, wiredGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

const selectedKeys = (): string[] =>
  screen
    .getAllByRole('gridcell')
    .filter((cell) => cell.getAttribute('aria-selected') === 'true')
    .map((cell) => cell.dataset['key'] ?? '');
const toolbar = (): HTMLElement => screen.getByRole('toolbar', { name: 'Selected images' });

describe('Shift and the keys that move in the gallery grid', () => {
  it('Shift+Right and Shift+Left take the range from the tile the focus left', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 8) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Shift>}{ArrowRight}{ArrowRight}{/Shift}');
    expect(selectedKeys()).toEqual([2, 3, 4].map(keyOf));
    expect(focusedKey()).toBe(keyOf(4));
    expect(toolbar().textContent).toContain('3 selected');
    // Back past the anchor: the range turns around it.
    await user.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{/Shift}');
    expect(selectedKeys()).toEqual([1, 2].map(keyOf));
    // A plain arrow moves on and leaves the selection as it is.
    await user.keyboard('{ArrowRight}');
    expect(selectedKeys()).toEqual([1, 2].map(keyOf));
  });

  it('Shift+Home and Shift+End reach the first and the last image', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 6) });
    act(() => tile(keyOf(3)).focus());
    await user.keyboard(' ');
    await user.keyboard('{Shift>}{Home}{/Shift}');
    expect(selectedKeys()).toEqual([0, 1, 2, 3].map(keyOf));
    await user.keyboard('{Shift>}{End}{/Shift}');
    expect(selectedKeys()).toEqual([3, 4, 5].map(keyOf));
    expect(focusedKey()).toBe(keyOf(5));
  });

  it('Ctrl+Shift+arrow adds the range to what was selected', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 8) });
    act(() => tile(keyOf(0)).focus());
    await user.keyboard(' ');
    act(() => tile(keyOf(4)).focus());
    await user.keyboard('{Control>} {/Control}');
    await user.keyboard('{Control>}{Shift>}{ArrowRight}{/Shift}{/Control}');
    expect(selectedKeys()).toEqual([0, 4, 5].map(keyOf));
  });

  it('Shift+End before the last page is loaded takes every image from the anchor on', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 450) });
    await waitFor(() => expect(useAppStore.getState().galleryTotal).toBe(450));
    expect(selectGalleryItems(useAppStore.getState()).length).toBeLessThan(450);
    act(() => tile(keyOf(3)).focus());
    await user.keyboard('{Shift>}{End}{/Shift}');
    // Images 3 to 449: the whole set but the three before the anchor.
    await waitFor(() => expect(within(toolbar()).getByText('All 447 images')).toBeTruthy());
    await user.click(within(toolbar()).getByRole('button', { name: 'Pick' }));
    await waitFor(() => expect(main.callsTo('triage:apply')).toHaveLength(1));
    const sent = main.callsTo('triage:apply')[0]!;
    expect(sent).toMatchObject({ change: { kind: 'flag', flag: 'pick' } });
    const refs = 'images' in sent ? sent.images : [];
    expect(refs).toHaveLength(447);
    expect(refs.map((ref) => ref.localId)).not.toContain('seed-000002');
    expect(refs.map((ref) => ref.localId)).toContain('seed-000449');
  });
});
