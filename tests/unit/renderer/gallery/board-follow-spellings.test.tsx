/**
 * The gallery's board filter and the target board follow a board that moved or was renamed
 * (renderer/store/boards-slice.ts), as main moves the paths inside it. Both cut each path at the
 * old path's length in characters, and a path inside may spell the board otherwise (a record's
 * or a sidecar's `STRASSE/Acme` inside the board `Straße`): renaming `Straße` to `Road` made the
 * filter `RoadE/Acme`, a board no one has. Now both count names (shared/domain/triage.ts
 * movedBoardPath); main's side is tests/hardening/hostile/board-path-spellings.test.ts. The app's
 * real main, its boards made by the records as a sidecar spells them.
 */
import { act } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { seedGallery, wiredGallery } from './gallery-wired';

const wired = wiredGallery();

describe('a board renamed', () => {
  it('takes the filter and the target board inside it along, however they spell it', async () => {
    const { main } = await wired({
      prepare: (main) =>
        seedGallery(main, 2, (index) => ({
          images: [
            makeImage(0, {
              file: `g/${String(index)}.png`,
              thumbnail: `g/${String(index)}.thumb.webp`,
              boards: [index === 0 ? 'Straße' : 'STRASSE/Acme/Night'],
            }),
          ],
        })),
    });
    const state = () => useAppStore.getState();
    act(() => {
      state().gallerySetFilters({ board: 'STRASSE/Acme' });
      state().triageSetTarget('STRASSE/Acme/Night');
    });
    await act(() => state().boardsRename('Straße', 'Road'));
    const paths = main.runtime.core.boards.list().map((board) => board.path);
    expect(paths.sort()).toEqual(['Road', 'Road/Acme', 'Road/Acme/Night']);
    expect(state().galleryFilters.board).toBe('Road/Acme');
    expect(state().triageTarget).toBe('Road/Acme/Night');
  });
});
