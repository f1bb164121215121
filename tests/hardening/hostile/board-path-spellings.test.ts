/**
 * A board is found by its folded key (shared/domain/triage.ts's boardKey): `STRASSE` is the board
 * `Straße`, `FILES` is `ﬁles`, `clients\u200b` is `Clients`, as the window, the CLI, "Generate
 * into" and an agent's add_to_board name it. Two holes where a path spelled so was kept as spelled:
 *
 * - A board made inside one the library has (`pictor boards create STRASSE/Acme`, "Generate
 *   into" or add_to_board naming a new board, Boards.ensure) was stored as `STRASSE/Acme` under the
 *   parent `Straße`, and since session 45 (parents read as stored may hold what draws nothing) as
 *   `Clients\u200b/Acme`: a character the rule refuses in a name given now, stored from one.
 * - A board moved or renamed cut each path inside it at the old path's length in characters, so a
 *   path spelling the board otherwise (one made so, or read so from a record, a sidecar, a library
 *   keyed again by v22) came out cut in the wrong place: renaming `Straße` to `Road` made
 *   `STRASSE/Acme` the board `RoadE/Acme` (and a board `RoadE`), its images with it.
 *
 * And a board stored before the rule of what draws nothing (`Old\u3164`) could be renamed but not
 * moved, nor could a board be moved into it: the move checked the whole new path as given.
 */
import { describe, expect, it } from 'vitest';
import { TriageError } from '../../../electron/core/triage/triage-error';
import { movedBoardPath } from '../../../shared/domain/triage';
import { makeImage, makeTask } from '../../support/task-records';
import { offlineCore, type OfflineCore } from '../../support/offline-core';

/** A board as the user made it, and the same board spelled otherwise (in fewer or more units). */
const SPELLINGS = [
  ['Straße', 'STRASSE'],
  ['MASSE', 'maße'],
  ['ﬁles', 'FILES'],
  ['Clients', ' clients\u200b '],
] as const;

/** Records of images in these boards, one task each, as a sidecar or a crafted folder has them. */
function putInBoards(core: OfflineCore, boards: Record<string, string>): void {
  core.history.putMany(
    Object.entries(boards).map(([localId, board]) =>
      makeTask({ localId, folder: localId, images: [{ ...makeImage(0), boards: [board] }] }),
    ),
  );
}

const pathsOf = (core: OfflineCore): string[] =>
  core.boards
    .list()
    .map((board) => board.path)
    .sort();

const boardsOfImage = (core: OfflineCore, localId: string) =>
  core.history.get(localId)?.images[0]?.boards;

describe('a board made inside one the library has', () => {
  it('is stored under that board as it is stored, however the path spells it', async () => {
    const core = await offlineCore();
    for (const [stored] of SPELLINGS) core.boards.create(stored);
    const made: Record<string, string[]> = {};
    for (const [stored, spelled] of SPELLINGS) {
      made[stored] = [
        core.boards.create(`${spelled}/Acme`),
        // "Generate into" and add_to_board: made when missing, found when there.
        core.boards.ensure(`${spelled}/Beta/Night`),
        core.boards.ensure(`${spelled}/BETA/night`),
      ];
    }
    expect(made).toEqual(
      Object.fromEntries(
        SPELLINGS.map(([stored]) => [
          stored,
          [`${stored}/Acme`, `${stored}/Beta/Night`, `${stored}/Beta/Night`],
        ]),
      ),
    );
    // Every board's path begins with its parent's as stored.
    const paths = new Set(pathsOf(core));
    const orphans = core.boards
      .list()
      .filter((board) => board.parent !== null && !paths.has(board.parent));
    expect(orphans.map((board) => board.path)).toEqual([]);
  });

  it('is under a board stored before the rule of what draws nothing as that one is stored', async () => {
    const core = await offlineCore();
    putInBoards(core, { a: 'Old\u3164' });
    expect(core.boards.create('old/Acme')).toBe('Old\u3164/Acme');
    expect(core.boards.ensure('Old/Beta')).toBe('Old\u3164/Beta');
    // A name new to the library is given: what draws nothing in it is refused, as before.
    expect(() => core.boards.create('Old/Acme\u3164x')).toThrow(TriageError);
    expect(() => core.boards.create('New\u200b/Acme')).toThrow(TriageError);
    expect(pathsOf(core)).toEqual(['Old\u3164', 'Old\u3164/Acme', 'Old\u3164/Beta']);
  });
});

describe('a board moved or renamed', () => {
  it('keeps the names below it of each board and image inside, however they spell it', async () => {
    const core = await offlineCore();
    putInBoards(core, {
      a: 'Straße',
      b: 'STRASSE/Acme',
      c: 'ﬁles',
      d: 'FILES/Raw/Night',
      e: 'Clients',
      // A library keyed again by v22 keeps such a twin's path as it was stored.
      f: 'Clients\u200b/Acme',
    });
    core.boards.rename('Straße', 'Road');
    core.boards.move('ﬁles', 'Road');
    core.boards.rename('Clients', 'Customers');
    expect(pathsOf(core)).toEqual(
      [
        'Customers',
        'Customers/Acme',
        'Road',
        'Road/Acme',
        'Road/ﬁles',
        'Road/ﬁles/Raw',
        'Road/ﬁles/Raw/Night',
      ].sort(),
    );
    expect(['b', 'd', 'f'].map((localId) => boardsOfImage(core, localId))).toEqual([
      ['Road/Acme'],
      ['Road/ﬁles/Raw/Night'],
      ['Customers/Acme'],
    ]);
  });

  it('follows in the window as in main: by names, not by the old path’s length', () => {
    // renderer/store/boards-slice.ts moves the gallery's board filter and the target board so.
    expect(movedBoardPath('STRASSE/Acme', 'Straße', 'Road')).toBe('Road/Acme');
    expect(movedBoardPath('FILES/Raw', 'ﬁles', 'Road/ﬁles')).toBe('Road/ﬁles/Raw');
    expect(movedBoardPath('Straße', 'Straße', 'Road')).toBe('Road');
    expect(movedBoardPath('A/b/C', 'a/B', 'X')).toBe('X/C');
  });

  it('takes a board stored before the rule of what draws nothing with its name, and into it', async () => {
    const core = await offlineCore();
    putInBoards(core, { a: 'Old\u3164', b: 'Plain' });
    core.boards.create('Top');
    expect(core.boards.move('Old\u3164', 'Top').to).toBe('Top/Old\u3164');
    expect(core.boards.move('Plain', 'Top/Old\u3164').to).toBe('Top/Old\u3164/Plain');
    expect(boardsOfImage(core, 'b')).toEqual(['Top/Old\u3164/Plain']);
    // A name given now is still held to the rule.
    expect(() => core.boards.rename('Top/Old\u3164', 'New\u3164')).toThrow(TriageError);
    expect(() => core.boards.moveTo('Top/Old\u3164/Plain', 'Top/Plain\u200b')).toThrow(TriageError);
    expect(pathsOf(core)).toEqual(['Top', 'Top/Old\u3164', 'Top/Old\u3164/Plain']);
  });
});
