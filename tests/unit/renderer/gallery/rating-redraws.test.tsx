/**
 * What a star typed on a tile draws again: that tile, not the grid's other tiles. A rating
 * changes the gallery's images (the rated one is a new item), so the gallery section and its
 * grid are drawn again; every other tile keeps its props and its memo holds. Before, the tiles'
 * drag handler (board-drop.ts `useDragToBoards`) was made anew whenever the selection's state
 * was, which is every change of the images, so every tile in the grid was drawn again for one
 * star (about 50 at 1280x800, most of the page's script time of the keypress row).
 * Counted, not timed: which tiles were drawn, over main's real handlers and history.
 */
import { act, fireEvent, waitFor } from '@testing-library/react';
import { memo, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type * as GalleryTileModule from '../../../../renderer/features/gallery/gallery-tile';
import type { GalleryTileProps } from '../../../../renderer/features/gallery/gallery-tile';
import { keyOf, tile } from './gallery-harness';
import { seedGallery, wiredGallery } from './gallery-wired';

/** The keys of the tiles drawn, in order (each drawing of the real tile's body). */
const drawn = vi.hoisted(() => ({ keys: [] as string[] }));
vi.mock('../../../../renderer/features/gallery/gallery-tile', async (importOriginal) => {
  const actual = await importOriginal<typeof GalleryTileModule>();
  // The real tile's body behind the same memo: drawn when, and only when, the real one would be.
  const body = (actual.GalleryTile as unknown as { type: (props: GalleryTileProps) => unknown })
    .type;
  const Counted = (props: GalleryTileProps) => {
    drawn.keys.push(props.itemKey);
    // Called as this component's own body: its hooks are this component's.
    return body(props) as ReactNode;
  };
  return { ...actual, GalleryTile: memo(Counted) };
});

const renderWired = wiredGallery();

describe('a star typed on a tile', () => {
  it('draws that tile again, not the other tiles of the grid', async () => {
    await renderWired({ prepare: (m) => seedGallery(m, 12) });
    act(() => tile(keyOf(4)).focus());
    drawn.keys.length = 0;
    fireEvent.keyDown(tile(keyOf(4)), { code: 'Digit3', key: '3' });
    await waitFor(() => expect(tile(keyOf(4)).querySelector('[data-rating="3"]')).not.toBeNull());
    // The status area's "Rated 1 image ★3" and its Undo come with the answer: drawn too.
    await waitFor(() => expect(document.body.textContent).toContain('Rated 1 image'));
    expect(drawn.keys.length).toBeGreaterThan(0);
    expect(new Set(drawn.keys)).toEqual(new Set([keyOf(4)]));
  });
});
