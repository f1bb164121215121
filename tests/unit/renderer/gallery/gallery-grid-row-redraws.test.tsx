/**
 * What a scroll of the gallery draws again: the row it brings into the page and the rows whose
 * place in view changed (in view or drawn ahead), not every row in the page. Counted, not timed:
 * how many tiles' images a row looked at for damage (each row does once per tile per drawing).
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { imageProblem } from '../../../../renderer/store/unreadable-image';
import type * as UnreadableImage from '../../../../renderer/store/unreadable-image';
import { scrollGrid } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

vi.mock('../../../../renderer/store/unreadable-image', async (importOriginal) => {
  const actual = await importOriginal<typeof UnreadableImage>();
  return {
    ...actual,
    imageProblem: vi.fn((item: GalleryItem) => actual.imageProblem(item)),
  };
});

const renderWired = wiredGallery();
const looked = vi.mocked(imageProblem);

// 1000 px wide: 5 columns, rows 195 px apart; 600 px tall: rows 0-2 in view, 3-4 drawn ahead.
const ROW = 195;
const COLUMNS = 5;

/** The rows whose tiles were drawn since the count was cleared. */
function rowsDrawn(): number[] {
  const rows = looked.mock.calls.map(([item]) => {
    const number = Number(/(\d+)$/.exec(item.prompt)?.[1]);
    return Math.floor(number / COLUMNS);
  });
  return [...new Set(rows)].sort((a, b) => a - b);
}

describe('a scroll of the gallery by a row', () => {
  afterEach(() => looked.mockClear());

  it('draws the row it brings and those whose place in view changed, not the others', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 100) });
    await waitFor(() => expect(screen.getByAltText('Prompt number 24')).toBeTruthy());
    looked.mockClear();

    scrollGrid(ROW + 20);
    await waitFor(() => expect(screen.getByAltText('Prompt number 34')).toBeTruthy());
    // The view is now 215-815 px: row 0 (16-203) leaves it (drawn above it), rows 3 and 4 come
    // into it, rows 5 and 6 come into the page (drawn ahead); rows 1 and 2 stay as drawn.
    expect(rowsDrawn()).toEqual([0, 3, 4, 5, 6]);
  });
});
