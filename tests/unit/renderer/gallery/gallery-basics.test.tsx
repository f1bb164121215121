/**
 * Gallery basics: thumbnail size, order, whole-image tiles, each kept for the
 * next start; the tiles' actions menu by pointer and keyboard; the viewer's details panel that
 * can be hidden; the filter bar's clear button holding its place; a scrollbar that spans the
 * whole gallery, with the page at a dragged-to position loaded by position.
 */
import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectGalleryItems } from '../../../../renderer/store/record-selectors';
import { loadGalleryDisplay } from '../../../../renderer/store/gallery-display';
import {
  focusedKey,
  keyOf,
  resize,
  screen,
  scrollGrid,
  seriousViolations,
  tile,
} from './gallery-harness';
import { seedGallery, wiredGallery, wiredLargeGallery } from './gallery-wired';

/** Main's own handlers and history, one runtime for the file (the 50,000-image pages: their own). */
const renderWired = wiredGallery();

const STORED = 'pictor.galleryDisplay';
const grid = () => screen.getByRole('grid', { name: 'Images' });
const altTexts = () => Array.from(document.querySelectorAll('img'), (image) => image.alt);
/** The tile at a place in the whole gallery, loaded from the top or by position. */
const at = (index: number): HTMLElement =>
  document.querySelector<HTMLElement>(`[role="gridcell"][data-index="${String(index)}"]`)!;
const focusedIndex = (): number | undefined => {
  const cell = document.activeElement?.closest<HTMLElement>('[role="gridcell"]');
  return cell ? Number(cell.dataset['index']) : undefined;
};
/** Opens the "Display" choices (sort, size, whole images), one Tab stop while closed. */
const openDisplay = (): void => {
  fireEvent.click(screen.getByRole('button', { name: 'Display' }));
};
const tabStops = (): number[] =>
  Array.from(document.querySelectorAll<HTMLElement>('[role="gridcell"][tabindex="0"]'), (cell) =>
    Number(cell.dataset['index']),
  );

describe('display options', () => {
  it('changes the thumbnail size with a three-step slider, and keeps it', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 40) });
    // 1000 px wide: medium tiles (at least 168 px) make 5 columns.
    expect(grid().getAttribute('aria-colcount')).toBe('5');
    expect(screen.queryByRole('slider', { name: 'Thumbnail size' })).toBeNull();
    openDisplay();
    const slider = screen.getByRole('slider', { name: 'Thumbnail size' });
    expect(slider.getAttribute('aria-valuetext')).toBe('Medium');

    fireEvent.change(slider, { target: { value: '2' } });
    expect(grid().getAttribute('aria-colcount')).toBe('3');
    expect(slider.getAttribute('aria-valuetext')).toBe('Large');
    expect(JSON.parse(localStorage.getItem(STORED)!)).toMatchObject({ thumbnailSize: 'large' });

    fireEvent.change(slider, { target: { value: '0' } });
    expect(grid().getAttribute('aria-colcount')).toBe('7');
    expect(loadGalleryDisplay().thumbnailSize).toBe('small');
  });

  it('sorts newest, oldest or by prompt, asking main for that order, and keeps it', async () => {
    const { main, user } = await renderWired({
      prepare: (m) =>
        seedGallery(m, 30, (n) => ({
          request: { prompt: `${['delta', 'alpha', 'Charlie', 'Bravo'][n % 4]!} ${String(n)}` },
        })),
    });
    expect(altTexts()[0]).toBe('delta 0');
    openDisplay();
    const sort = screen.getByRole('combobox', { name: 'Sort' });

    await user.selectOptions(sort, 'Oldest first');
    await waitFor(() => expect(altTexts()[0]).toBe('alpha 29'));
    expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ sort: 'oldest' });

    await user.selectOptions(sort, 'Prompt A–Z');
    // ASCII case ignored ("Bravo" after "alpha"); the same prompt word sorts newest first.
    await waitFor(() => expect(altTexts().slice(0, 2)).toEqual(['alpha 1', 'alpha 13']));
    expect(altTexts().indexOf('Bravo 3')).toBeGreaterThan(altTexts().indexOf('alpha 9'));
    expect(main.callsTo('gallery:list').at(-1)).toMatchObject({ sort: 'prompt' });
    expect(loadGalleryDisplay().sort).toBe('prompt');

    await user.selectOptions(sort, 'Newest first');
    await waitFor(() => expect(altTexts()[0]).toBe('delta 0'));
    // Newest first is the default: main is not told an order.
    expect(main.callsTo('gallery:list').at(-1)).not.toHaveProperty('sort');
  });

  it('starts with the stored choices, and falls back field by field on a bad one', async () => {
    localStorage.setItem(
      STORED,
      JSON.stringify({ thumbnailSize: 'huge', sort: 'oldest', uncropped: true, detailsHidden: 1 }),
    );
    expect(loadGalleryDisplay()).toEqual({
      thumbnailSize: 'medium',
      sort: 'oldest',
      uncropped: true,
      detailsHidden: false,
    });
    localStorage.setItem(STORED, '{not json');
    expect(loadGalleryDisplay().sort).toBe('newest');
  });

  it('shows whole images instead of filling the square, and keeps it', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    expect(tile(keyOf(0)).classList.contains('gallery-tile--uncropped')).toBe(false);
    const display = screen.getByRole('button', { name: 'Display' });
    await user.click(display);
    expect(display.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: 'Show whole images' }));
    // Escape closes the choices and gives the focus back to the button.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('checkbox', { name: 'Show whole images' })).toBeNull();
    expect(document.activeElement).toBe(display);
    for (let n = 0; n < 5; n += 1) {
      expect(tile(keyOf(n)).classList.contains('gallery-tile--uncropped')).toBe(true);
    }
    expect(loadGalleryDisplay().uncropped).toBe(true);
  });

  it('keeps the clear button in place while there is nothing to clear', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    const clear = screen.getByText('Clear filters');
    expect(clear.classList.contains('gallery-filters__clear--idle')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Picks only' }));
    expect(screen.getByText('Clear filters')).toBe(clear);
    expect(clear.classList.contains('gallery-filters__clear--idle')).toBe(false);
  });
});

describe('the tiles’ actions menu', () => {
  const menuItems = () =>
    within(screen.getByRole('menu', { name: 'Actions for this image' }))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);

  it('opens at the pointer with the image’s actions, each doing what the viewer does', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    fireEvent.contextMenu(tile(keyOf(2)), { clientX: 200, clientY: 150 });
    expect(menuItems()).toEqual([
      'Open',
      'Copy image',
      'Save as…',
      'Show in folder',
      'Pick',
      'Reject',
      'Move to trash',
    ]);
    await user.click(screen.getByRole('menuitem', { name: 'Copy image' }));
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(main.callsTo('gallery:copyImage')).toHaveLength(1));
    expect(main.callsTo('gallery:copyImage')[0]).toEqual({ localId: 'seed-000002', index: 0 });

    fireEvent.contextMenu(tile(keyOf(2)), { clientX: 200, clientY: 150 });
    await user.click(screen.getByRole('menuitem', { name: 'Show in folder' }));
    fireEvent.contextMenu(tile(keyOf(2)), { clientX: 200, clientY: 150 });
    await user.click(screen.getByRole('menuitem', { name: 'Save as…' }));
    fireEvent.contextMenu(tile(keyOf(2)), { clientX: 200, clientY: 150 });
    await user.click(screen.getByRole('menuitem', { name: 'Pick' }));
    await waitFor(() => expect(main.callsTo('triage:apply')).toHaveLength(1));
    expect(main.callsTo('triage:apply')[0]).toEqual({
      images: [{ localId: 'seed-000002', index: 0 }],
      change: { kind: 'flag', flag: 'pick' },
    });
    expect(main.callsTo('gallery:reveal')).toHaveLength(1);
    expect(main.callsTo('gallery:saveAs')).toHaveLength(1);

    fireEvent.contextMenu(tile(keyOf(2)), { clientX: 200, clientY: 150 });
    // Picked: the flags it has not, never the one it has (and never a star).
    await waitFor(() => expect(menuItems()).toContain('Unflag'));
    expect(menuItems()).toContain('Reject');
    expect(menuItems()).not.toContain('Pick');
    await user.click(screen.getByRole('menuitem', { name: 'Move to trash' }));
    expect(await screen.findByRole('alertdialog')).toBeTruthy();

    // Escape answers the question; the menu's Open opens the viewer on that image.
    await user.keyboard('{Escape}');
    fireEvent.contextMenu(tile(keyOf(3)), { clientX: 200, clientY: 150 });
    await user.click(screen.getByRole('menuitem', { name: 'Open' }));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(within(viewer).getByText('Image 4 of 5')).toBeTruthy();
  });

  it('opens from the keyboard (Shift+F10, the Menu key), moves with arrows, and gives the focus back', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 5) });
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{ArrowRight}');
    expect(focusedKey()).toBe(keyOf(1));

    await user.keyboard('{Shift>}{F10}{/Shift}');
    const menu = screen.getByRole('menu', { name: 'Actions for this image' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open'));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Save as…');
    await user.keyboard('{End}');
    expect(document.activeElement?.textContent).toBe('Move to trash');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Open');
    await user.keyboard('{Escape}');
    expect(menu.isConnected).toBe(false);
    expect(focusedKey()).toBe(keyOf(1));

    fireEvent.keyDown(tile(keyOf(1)), { key: 'ContextMenu' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open'));
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Reject');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(main.callsTo('triage:apply')).toHaveLength(1));
    expect(main.callsTo('triage:apply')[0]).toEqual({
      images: [{ localId: 'seed-000001', index: 0 }],
      change: { kind: 'flag', flag: 'reject' },
    });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focusedKey()).toBe(keyOf(1));
    expect(await seriousViolations()).toEqual([]);
  });

  it('closes on a click elsewhere, without acting', async () => {
    const { main, user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    fireEvent.contextMenu(tile(keyOf(0)), { clientX: 10, clientY: 10 });
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(screen.getByRole('heading', { name: 'Gallery' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(main.callsTo('triage:apply')).toHaveLength(0);
  });

  it('stays open through a resize it opened in; a new window size closes it and gives the focus back', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 12) });
    act(() => tile(keyOf(5)).focus());
    await user.keyboard('{Shift>}{F10}{/Shift}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open'));
    // A busy machine says a resize at the next frame, which may come after the menu opened: the
    // window had its new size already, so the menu stays, and the tiles the grid mounts anew at
    // the new width (other rows) leave it alone.
    act(() => void window.dispatchEvent(new Event('resize')));
    resize('.gallery-grid', { width: 700, height: 600 });
    expect(screen.getByRole('menu', { name: 'Actions for this image' })).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Open');
    await user.keyboard('{Escape}');
    expect(focusedKey()).toBe(keyOf(5));

    // The window does change size with the menu open: it closes, the tile has the focus.
    await user.keyboard('{Shift>}{F10}{/Shift}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Open'));
    const width = window.innerWidth;
    try {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width - 200 });
      act(() => void window.dispatchEvent(new Event('resize')));
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focusedKey()).toBe(keyOf(5));
  });
});

describe('the viewer', () => {
  it('hides and shows its details panel (button and I key), remembered for the next image and start', async () => {
    const { user } = await renderWired({ prepare: (m) => seedGallery(m, 3) });
    await user.click(screen.getByAltText('Prompt number 0'));
    const dialog = await screen.findByRole('dialog', { name: 'Image viewer' });
    const hide = within(dialog).getByRole('button', { name: 'Hide details' });
    expect(hide.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(hide.getAttribute('aria-controls')!)!;
    expect(panel.hidden).toBe(false);

    await user.click(hide);
    expect(panel.hidden).toBe(true);
    const show = within(dialog).getByRole('button', { name: 'Show details' });
    expect(show.getAttribute('aria-expanded')).toBe('false');
    expect(loadGalleryDisplay().detailsHidden).toBe(true);

    await user.keyboard('{ArrowRight}');
    expect(within(dialog).getByText('Image 2 of 3')).toBeTruthy();
    expect(panel.hidden).toBe(true);

    await user.keyboard('i');
    expect(panel.hidden).toBe(false);
    expect(loadGalleryDisplay().detailsHidden).toBe(false);
    expect(await seriousViolations()).toEqual([]);
  });
});

describe('a scrollbar as long as the gallery', () => {
  // One history of 50,000 tasks for the three, written once; files behind the images the
  // keys act on (25,000–25,010). The End test runs before the one that deletes an image.
  const renderLarge = wiredLargeGallery(50_000, (index) => index >= 25_000 && index <= 25_010);
  // 1000 px wide: 5 columns, rows 195 px apart.
  it('spans every image, and loads the page at a position dragged to', async () => {
    const { main } = await renderLarge();
    expect(useAppStore.getState().galleryTotal).toBe(50_000);
    expect(screen.getByText('50,000 images')).toBeTruthy();
    const rows = document.querySelector<HTMLElement>('.gallery-grid__rows')!;
    expect(parseFloat(rows.style.height)).toBeGreaterThan((50_000 / 5) * 195);

    // The middle: row 5,000, image 25,000.
    scrollGrid(5_000 * 195);
    await waitFor(() => expect(altTexts()).toContain('Prompt number 25000'));
    const jump = main.callsTo('gallery:list').find((call) => call.offset !== undefined)!;
    expect(jump.offset).toBeGreaterThan(24_000);
    expect(jump.offset).toBeLessThanOrEqual(25_000);
    expect(jump).not.toHaveProperty('cursor');
    // A page by position is the rows in view (four of 195 px in 600) and four rows above and
    // below, five images each: what a drag asks for at each frame stays small.
    expect(jump.limit).toBe((4 + 2 * 4) * 5);
    // Only the first page was loaded from the top: nothing in between was read.
    expect(selectGalleryItems(useAppStore.getState())).toHaveLength(200);

    // An image there opens in the viewer at its place in the whole gallery.
    fireEvent.click(screen.getByAltText('Prompt number 25001'));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    expect(within(viewer).getByText('Image 25,002 of 50,000')).toBeTruthy();
    // Next and previous walk the images around it.
    fireEvent.keyDown(viewer, { key: 'ArrowRight' });
    expect(within(viewer).getByText('Image 25,003 of 50,000')).toBeTruthy();
    expect(within(viewer).getByText('Prompt number 25002')).toBeTruthy();
  });

  it('End goes to the last image of the whole gallery, loading it, and focuses it there', async () => {
    const { user } = await renderLarge();
    act(() => at(0).focus());
    await user.keyboard('{End}');
    // The last image was not loaded until the grid went there.
    await waitFor(() => expect(focusedIndex()).toBe(49_999));
    expect(altTexts()).toContain('Prompt number 49999');
    expect(tabStops()).toEqual([49_999]);
    await user.keyboard('{Home}');
    await waitFor(() => expect(focusedIndex()).toBe(0));
  });

  it('a tile loaded there holds the tab stop and takes the keys itself, never the first image', async () => {
    const { user, main } = await renderLarge({ events: true });
    scrollGrid(5_000 * 195);
    await waitFor(() => expect(altTexts()).toContain('Prompt number 25000'));
    // Only the first page came from the top: image 25,000 was loaded by position.
    expect(selectGalleryItems(useAppStore.getState())).toHaveLength(200);
    act(() => at(25_000).focus());
    expect(tabStops()).toEqual([25_000]);

    // Arrows move from its own place: right, then down a row of five.
    await user.keyboard('{ArrowRight}');
    expect(focusedIndex()).toBe(25_001);
    await user.keyboard('{ArrowDown}');
    expect(focusedIndex()).toBe(25_006);
    expect(tabStops()).toEqual([25_006]);

    // Its keys act on it: f picks it (its favourite star), Delete asks about it and deletes it.
    const localId = at(25_006).dataset['key']!.split('/')[0]!;
    await user.keyboard('f');
    await waitFor(() =>
      expect(main.callsTo('triage:apply')).toEqual([
        { images: [{ localId, index: 0 }], change: { kind: 'flag', flag: 'pick' } },
      ]),
    );
    // The tile there shows its star (the page loaded by position follows the task's update).
    await waitFor(() => expect(within(at(25_006)).getByRole('img', { name: 'Pick' })).toBeTruthy());
    expect(focusedIndex()).toBe(25_006);
    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() =>
      expect(main.callsTo('gallery:deleteImages')).toEqual([{ images: [{ localId, index: 0 }] }]),
    );
    // Gone from the page loaded there; the image after it takes its place and the focus.
    await waitFor(() => expect(document.querySelector(`[data-key="${localId}/0"]`)).toBeNull());
    await waitFor(() => expect(focusedIndex()).toBe(25_006));
    // The refresh that follows a delete loads that page again, as large as it was asked for.
    const byPosition = () =>
      main.callsTo('gallery:list').filter((call) => call.offset !== undefined);
    await waitFor(() => expect(byPosition().length).toBeGreaterThan(1));
    expect(byPosition().at(-1)).toMatchObject({
      offset: byPosition()[0]!.offset,
      limit: byPosition()[0]!.limit,
    });
  });
});
