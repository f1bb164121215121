import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { focusedKey, keyOf, resize, scrollGrid, seriousViolations, tile } from './gallery-harness';
import { seedGallery, wiredGallery, wiredLargeGallery } from '../gallery/gallery-wired';

/** Main's own handlers and history (tests/support/wired-api.ts), one runtime for the file. */
const renderWired = wiredGallery();

// 1000 px wide: 5 columns of 187 px tiles, rows 195 px apart; 600 px tall: about 3 rows in view.
const ROW = 195;
const COLUMNS = 5;

function images(): HTMLImageElement[] {
  return Array.from(document.querySelectorAll('img'));
}

describe('the gallery grid', () => {
  describe('over 50,000 images', () => {
    // One history of 50,000 tasks, written once (it takes seconds); no files: nothing is opened.
    const renderLarge = wiredLargeGallery(50_000, () => false);

    it('keeps only a window of 50,000 images in the page and pages in more by cursor', async () => {
      const { main } = await renderLarge();
      expect(selectGalleryItems(useAppStore.getState())).toHaveLength(200);
      const first = main.callsTo('gallery:list')[0]!;
      expect(first).toMatchObject({
        limit: 200,
        states: ['pending', 'saved', 'expired', 'invalid'],
      });
      expect(first).not.toHaveProperty('cursor');
      expect(images().length).toBeGreaterThan(0);
      expect(images().length).toBeLessThanOrEqual(12 * COLUMNS);

      // Scroll to the end of what is loaded, five times over.
      for (let page = 1; page <= 5; page += 1) {
        scrollGrid(Math.ceil((200 * page) / COLUMNS) * ROW);
        await waitFor(() =>
          expect(selectGalleryItems(useAppStore.getState())).toHaveLength(200 * (page + 1)),
        );
        // Each page continues from main's cursor after the last one loaded, without a gap.
        const asked = main.callsTo('gallery:list')[page]!;
        expect(asked.cursor).toEqual(expect.any(String));
        expect(asked).not.toHaveProperty('offset');
        const items = selectGalleryItems(useAppStore.getState());
        expect(items[200 * page]?.prompt).toBe(`Prompt number ${String(200 * page)}`);
        expect(images().length).toBeLessThanOrEqual(12 * COLUMNS);
      }
      const grid = screen.getByRole('grid', { name: 'Images' });
      // Every image counted has its row, loaded or not: the scrollbar spans the whole gallery.
      expect(grid.getAttribute('aria-rowcount')).toBe(String(50_000 / COLUMNS));
      // The images in the page are the ones at the scroll position (and the row holding the tab
      // stop), with the prompt as alt text.
      const shown = images().map((image) => image.alt);
      expect(shown).toContain('Prompt number 1000');
      expect(shown).not.toContain('Prompt number 500');
      expect(shown).toContain('Prompt number 0');
    });
  });

  it('loads thumbnails from the gallery protocol in fixed-size squares, those in view first', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 50) });
    const image = screen.getByAltText('Prompt number 1');
    expect(image.getAttribute('src')).toBe('pictor-gallery://gallery/g/1.thumb.webp');
    // Only the rows in view and two around them are drawn: each is wanted now, not lazily.
    expect(image.getAttribute('loading')).toBeNull();
    expect(image.getAttribute('decoding')).toBe('async');
    // 600 px tall, rows 195 px apart after 16 px of padding: rows 0-2 are in view, 3-4 drawn ahead.
    expect(image.getAttribute('fetchpriority')).toBe('high');
    expect(screen.getByAltText('Prompt number 14').getAttribute('fetchpriority')).toBe('high');
    expect(screen.getByAltText('Prompt number 15').getAttribute('fetchpriority')).toBe('low');
    expect(screen.getByAltText('Prompt number 24').getAttribute('fetchpriority')).toBe('low');
    expect(image.getAttribute('width')).toBe('187');
    expect(image.getAttribute('height')).toBe('187');
    expect(tile(keyOf(1)).style.width).toBe('187px');
  });

  it('sizes its columns to the width of the window', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 40) });
    const grid = screen.getByRole('grid');
    expect(grid.getAttribute('aria-colcount')).toBe('5');
    resize('.gallery-grid', { width: 520, height: 600 });
    expect(grid.getAttribute('aria-colcount')).toBe('2');
    expect(within(screen.getAllByRole('row')[0]!).getAllByRole('gridcell')).toHaveLength(2);
    resize('.gallery-grid', { width: 1600, height: 900 });
    expect(grid.getAttribute('aria-colcount')).toBe('8');
    expect(within(screen.getAllByRole('row')[0]!).getAllByRole('gridcell')).toHaveLength(8);
    expect(grid.getAttribute('aria-rowcount')).toBe('5');
  });

  it('keeps the focus on its tile when a new width changes the columns', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 40) });
    act(() => tile(keyOf(7)).focus());
    // 5 columns to 2 and on to 8: the tile moves to another row, which mounts it anew.
    for (const width of [520, 1600]) {
      resize('.gallery-grid', { width, height: 600 });
      await waitFor(() => expect(focusedKey()).toBe(keyOf(7)));
    }
    // The focus is given back only to the tile that had it: a focus elsewhere stays there.
    act(() => screen.getByRole('grid').focus());
    resize('.gallery-grid', { width: 1000, height: 600 });
    expect(document.activeElement).toBe(screen.getByRole('grid'));
  });

  it('gives the focus back to its tile when the menu closes after the tile was mounted anew', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 40) });
    act(() => tile(keyOf(7)).focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = screen.getByRole('menu', { name: 'Actions for this image' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open'));
    // 5 columns to 2 while the menu is open: the tile moves to another row, a new element.
    const opener = tile(keyOf(7));
    resize('.gallery-grid', { width: 520, height: 600 });
    await waitFor(() => expect(opener.isConnected).toBe(false));
    await user.keyboard('{Escape}');
    expect(menu.isConnected).toBe(false);
    expect(focusedKey()).toBe(keyOf(7));
  });

  it('moves one tab stop with the arrow keys, Home, End and the page keys', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 200) });
    const tabbable = () => document.querySelectorAll('[role="gridcell"][tabindex="0"]');
    expect(tabbable()).toHaveLength(1);
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{ArrowRight}');
    expect(focusedKey()).toBe(keyOf(1));
    await user.keyboard('{ArrowDown}');
    expect(focusedKey()).toBe(keyOf(1 + COLUMNS));
    await user.keyboard('{ArrowLeft}{ArrowUp}');
    expect(focusedKey()).toBe(keyOf(0));
    await user.keyboard('{PageDown}');
    expect(focusedKey()).toBe(keyOf(3 * COLUMNS));
    await user.keyboard('{PageUp}');
    expect(focusedKey()).toBe(keyOf(0));
    await user.keyboard('{End}');
    await waitFor(() => expect(focusedKey()).toBe(keyOf(199)));
    expect(tabbable()).toHaveLength(1);
    await user.keyboard('{Home}');
    await waitFor(() => expect(focusedKey()).toBe(keyOf(0)));
  });

  it('opens, picks (a flag named Pick) and asks before deleting from the keyboard', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 20) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('f');
    await waitFor(() =>
      expect(main.callsTo('triage:apply')).toEqual([
        {
          images: [{ localId: 'seed-000002', index: 0 }],
          change: { kind: 'flag', flag: 'pick' },
        },
      ]),
    );
    await waitFor(() =>
      expect(within(tile(keyOf(2))).getByRole('img', { name: 'Pick' })).toBeTruthy(),
    );

    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm.textContent).toContain('Move this image to the trash?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(main.callsTo('gallery:deleteImages')).toHaveLength(0);
    expect(focusedKey()).toBe(keyOf(2));

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Image viewer' })).toBeTruthy();
  });

  it('deletes after confirmation and hands the focus to the next image', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 20) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() =>
      expect(main.callsTo('gallery:deleteImages')).toEqual([
        { images: [{ localId: 'seed-000002', index: 0 }] },
      ]),
    );
    await waitFor(() => expect(document.querySelector(`[data-key="${keyOf(2)}"]`)).toBeNull());
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));
    expect(await screen.findByText('Image moved to the trash.')).toBeTruthy();
  });

  it('undoes a delete with Ctrl+Z in the grid: the image is back and has the focus', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 20) });
    act(() => tile(keyOf(2)).focus());
    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(focusedKey()).toBe(keyOf(3)));
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() =>
      expect(main.callsTo('gallery:undoDelete')).toEqual([
        { images: [{ localId: 'seed-000002', index: 0 }] },
      ]),
    );
    await waitFor(() => expect(focusedKey()).toBe(keyOf(2)));
    expect(await screen.findByText('Image restored.')).toBeTruthy();
    // Nothing more to undo: a second Ctrl+Z asks main for nothing.
    await user.keyboard('{Control>}z{/Control}');
    expect(main.callsTo('gallery:undoDelete')).toHaveLength(1);
  });

  it('undoes a delete with the toast’s Undo button', async () => {
    const { user, main } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    act(() => tile(keyOf(1)).focus());
    await user.keyboard('{Delete}');
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Move to trash',
      }),
    );
    const done = screen.getByRole('status', { name: 'Done' });
    await user.click(await within(done).findByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(main.callsTo('gallery:undoDelete')).toHaveLength(1));
    await waitFor(() => expect(tile(keyOf(1))).toBeTruthy());
    await waitFor(() => expect(focusedKey()).toBe(keyOf(1)));
  });

  it('has no serious or critical axe violations', async () => {
    await renderWired({
      prepare: (m) => {
        seedGallery(m, 30);
        const { history } = m.runtime.core;
        const record = history.get('seed-000001')!;
        history.put({ ...record, images: [{ ...record.images[0]!, state: 'expired' }] });
      },
    });
    expect(await seriousViolations()).toEqual([]);
  });
});

// A gallery tile shows only its picture: its prompt is said on hover (the tile's tooltip).
describe('a gallery tile', () => {
  it('says its prompt on hover', async () => {
    await renderWired({
      prepare: (m) => seedGallery(m, 2, (i) => ({ prompt: `A long prompt number ${i}, in full` })),
    });
    expect(tile(keyOf(1)).getAttribute('title')).toBe('A long prompt number 1, in full');
  });
});
