/**
 * The keyboard's place in a large gallery when the view moves far from the focused tile: a page
 * loaded by position for the new place replaces the one that held it, and the tile went with
 * that page, the focus falling to the page (the body), where the arrows mean nothing. The tile is
 * kept at its place instead (store/gallery-kept.ts), focused, its keys working; and when it is no
 * longer in the library the focus goes to the nearest tile, never to the body. Over the app's
 * real wiring (main's handlers and history: gallery-wired.tsx); jsdom lays nothing out, the sizes
 * are the harness's and a scroll set by code fires `scroll`.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { scrollGrid } from './gallery-harness';
import { wiredLargeGallery } from './gallery-wired';

// 1000 × 600 px: 5 columns, rows 195 px apart.
const ROW = 195;
const COLUMNS = 5;

const altTexts = () => Array.from(document.querySelectorAll('img'), (image) => image.alt);
const at = (index: number): HTMLElement =>
  document.querySelector<HTMLElement>(`[role="gridcell"][data-index="${String(index)}"]`)!;
const focusedIndex = (): number | undefined => {
  const cell = document.activeElement?.closest<HTMLElement>('[role="gridcell"]');
  return cell ? Number(cell.dataset['index']) : undefined;
};

/** Shows the image `index` (its row at the view's top) and waits for its page by position. */
async function showAt(index: number): Promise<void> {
  scrollGrid((index / COLUMNS) * ROW);
  await waitFor(() => expect(altTexts()).toContain(`Prompt number ${String(index)}`));
}

describe('the focused tile when the view moves far from it', () => {
  // The history of basics' scrollbar tests (written once a run); files behind the images deleted.
  const renderLarge = wiredLargeGallery(50_000, (index) => index >= 25_000 && index <= 25_010);

  it('stays focused when the page that held it is replaced, and its keys go on working', async () => {
    const { user, main } = await renderLarge();
    await showAt(25_000);
    act(() => at(25_002).focus());
    // Far below, then far above: each a new page by position, neither holding image 25,002.
    for (const far of [40_000, 10_000]) {
      await showAt(far);
      const pages = main.callsTo('gallery:list').filter((call) => call.offset !== undefined);
      const last = pages.at(-1)!;
      expect(25_002 < last.offset! || 25_002 >= last.offset! + last.limit!).toBe(true);
      expect(document.activeElement).not.toBe(document.body);
      expect(focusedIndex()).toBe(25_002);
      expect(altTexts()).toContain('Prompt number 25002');
    }
    // The arrows move from its place: the image beside it is loaded there and takes the focus.
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(focusedIndex()).toBe(25_003));
    expect(altTexts()).toContain('Prompt number 25003');
  });

  it('gives the focus to the nearest tile when it leaves the library while far away', async () => {
    const { user } = await renderLarge({ events: true });
    await showAt(25_000);
    act(() => at(25_004).focus());
    await showAt(40_000);
    expect(focusedIndex()).toBe(25_004);
    const key = at(25_004).dataset['key']!;
    await user.keyboard('{Delete}');
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(document.querySelector(`[data-key="${key}"]`)).toBeNull());
    // A tile of the page in view has the focus, the one nearest the image gone.
    await waitFor(() => expect(focusedIndex()).toBeDefined());
    expect(document.activeElement).not.toBe(document.body);
    const page = useAppStore.getState().galleryJump!;
    expect(focusedIndex()).toBe(page.offset);
  });
});
