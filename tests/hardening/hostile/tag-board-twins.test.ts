/**
 * Tags and board names that draw nothing extra, and so read as another: `keep\u200b`,
 * `ke\u2060ep`, `keep\u00ad`, `keep\u3164`, `keep\u034f`, `keep\ufe00`, `keep\u{e0041}` were
 * each taken as a tag or board apart from `keep` (shared/domain/triage.ts refused controls, line
 * separators and bidi marks only). From the user, an agent over MCP or the CLI (all through the
 * core's triage, boards and smart boards), such a name is refused now; what real words need
 * stays (emoji sequences, subdivision flags, Mongolian variation selectors, Persian's half space,
 * an Indic half form). What is already stored (a record, a sidecar, a crafted gallery folder's
 * record, a library written by the version before) is read as it is, never dropped: its key is
 * its plain spelling's, so it is that tag or board, merged where lists are de-duplicated.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { refoldKeysV22 } from '../../../electron/core/history/folded-keys-schema';
import { HISTORY_MIGRATIONS } from '../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { TriageError } from '../../../electron/core/triage/triage-error';
import { checkTemplateName } from '../../../shared/domain/prompt-template';
import {
  boardKey,
  checkBoardName,
  checkBoardPath,
  checkSmartBoardName,
  checkTag,
  cleanBoards,
  cleanTags,
  foldName,
  storedBoardPathSchema,
} from '../../../shared/domain/triage';
import { makeImage, makeTask } from '../../support/task-records';
import { offlineCore } from '../../support/offline-core';
import { historyFilePerTest } from '../../unit/core/history/history-fixtures';
import {
  everyInvisible,
  hex,
  REAL_WORDS as REAL,
  TWINS_OF_KEEP as TWINS,
} from '../../support/invisible-words';

/** Every check of a user's name given now: a tag's, a board's, a smart board's, a template's. */
const GIVEN = [checkTag, checkBoardName, checkSmartBoardName, checkTemplateName];
const CHARACTER_SENTENCE = /^error\.(triage\.(tag|board)Character|templateFile\.nameCharacter)$/;

describe('a name given now', () => {
  it('is refused whatever character that draws nothing it holds, at its end or inside', () => {
    const every = everyInvisible();
    expect(every.length).toBeGreaterThan(4_000);
    const letThrough: string[] = [];
    for (const code of every) {
      const c = String.fromCodePoint(code);
      for (const name of [`keep${c}`, `ke${c}ep`]) {
        for (const check of GIVEN) {
          const checked = check(name);
          // Trimmed away (U+FEFF is white space to `trim`): the name is then the plain one.
          if (checked.ok && !checked.name.includes(c)) continue;
          if (checked.ok) letThrough.push(`${hex(code)} ${check.name}`);
          else if (!CHARACTER_SENTENCE.test(checked.problem.key)) {
            letThrough.push(`${hex(code)} ${check.name}: ${checked.problem.key}`);
          }
        }
      }
      if (checkBoardPath(`Clients/ke${c}ep`).ok) letThrough.push(`${hex(code)} path`);
      // A name stored with it is its plain spelling's tag or board.
      if (foldName(`Ke${c}EP`) !== 'keep') letThrough.push(`${hex(code)} key`);
    }
    expect(letThrough).toEqual([]);
  });

  it('names the character in the sentence', () => {
    for (const check of GIVEN) {
      const checked = check('keep\u3164');
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.problem.params).toEqual({ character: 'U+3164' });
    }
  });

  it.each(Object.entries(REAL))('keeps %s, as its own word', (_, word) => {
    for (const check of GIVEN) {
      const checked = check(`${word} x`);
      expect(checked.ok, `${check.name}: ${JSON.stringify(checked)}`).toBe(true);
      if (checked.ok) expect(checked.key).toBe(foldName(`${word} x`));
    }
    const stripped = word.replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu, '');
    expect(foldName(word)).not.toBe(foldName(stripped));
  });

  it.each([
    ['a lone tag character after a flag with no cancel tag', '\u{1f3f4}\u{e0067}'],
    ['a cancel tag alone after a flag', '\u{1f3f4}\u{e007f}'],
    ['a Mongolian selector after a Latin letter', 'a\u180b'],
    ['a joiner between Latin letters', 'a\u200db'],
    ['a non-joiner between Latin letters', 'a\u200cb'],
    ['a joiner after a pictograph, before a letter', '\u{1f468}\u200da'],
    ['a keycap selector with no keycap', '1\ufe0f'],
  ])('refuses %s', (_, name) => {
    expect(checkTag(name).ok).toBe(false);
  });
});

describe('every writer of the core', () => {
  it('refuses a tag, a board and a smart board named by a twin, and takes the plain name', async () => {
    const core = await offlineCore();
    core.history.putMany([makeTask({ localId: 'a', folder: 'a', images: [makeImage(0)] })]);
    const ref = [{ localId: 'a', index: 0 }];
    for (const twin of TWINS) {
      await expect(core.triage.apply(ref, { kind: 'tag', tag: twin, add: true })).rejects.toThrow(
        TriageError,
      );
      expect(() => core.boards.create(twin)).toThrow(TriageError);
      expect(() => core.boards.ensure(`Clients/${twin}`)).toThrow(TriageError);
      const rules = { match: 'all', items: [{ kind: 'tags', mode: 'any', tags: ['dog'] }] };
      expect(() => core.smartBoards.create(twin, rules)).toThrow(TriageError);
    }
    core.boards.create('keep');
    for (const twin of TWINS) expect(() => core.boards.rename('keep', twin)).toThrow(TriageError);
    await core.triage.apply(ref, { kind: 'tag', tag: 'keep', add: true });
    expect(core.history.get('a')?.images[0]?.tags).toEqual(['keep']);
    expect(core.boards.list().map((board) => board.path)).toEqual(['keep']);
  });
});

describe('a name already stored', () => {
  it('is read as it is, the same tag or board as its plain spelling', () => {
    for (const twin of TWINS) {
      expect(cleanTags([twin])).toEqual({ tags: [twin], dropped: 0 });
      expect(cleanTags(['Keep', twin]).tags).toEqual(['Keep']);
      expect(cleanBoards([`A/${twin}`])).toEqual({ boards: [`A/${twin}`], dropped: 0 });
      expect(cleanBoards(['a/keep', `A/${twin}`]).boards).toEqual(['a/keep']);
      expect(boardKey(`A/${twin}`)).toBe('a/keep');
      expect(storedBoardPathSchema().safeParse(`A/${twin}`).success).toBe(true);
    }
  });

  it('in a record (a sidecar, a gallery folder) is merged with the plain tag, never lost', async () => {
    const core = await offlineCore();
    const tagged = (localId: string, tags: string[], boards: string[]) =>
      makeTask({ localId, folder: localId, images: [{ ...makeImage(0), tags, boards }] });
    core.history.putMany([
      tagged('a', ['keep'], ['Clients']),
      tagged('b', ['keep\u200b', 'KEEP\u3164'], ['Clients\u2060']),
    ]);
    expect(core.history.get('b')?.images[0]?.tags).toEqual(['keep\u200b']);
    const tags = core.history.triage.tags();
    expect(tags.map((row) => [row.key, row.images])).toEqual([['keep', 2]]);
    expect(core.boards.list().map((board) => board.key)).toEqual(['clients']);
    // Removing the plain tag removes its twin: they are one tag.
    await core.triage.apply([{ localId: 'b', index: 0 }], { kind: 'tag', tag: 'keep', add: false });
    expect(core.history.get('b')?.images[0]?.tags ?? []).toEqual([]);
  });

  it('is named as stored by what works on what the library has', async () => {
    const core = await offlineCore();
    const tagged = (localId: string, tags: string[], boards: string[]) =>
      makeTask({ localId, folder: localId, images: [{ ...makeImage(0), tags, boards }] });
    core.history.putMany([tagged('a', ['keep​'], ['Oldㅤ/Inner']), tagged('b', [], [])]);
    const [a, b] = [[{ localId: 'a', index: 0 }], [{ localId: 'b', index: 0 }]];
    // The tag editor offers the library's tags as stored: adding or removing one is that tag.
    await core.triage.apply(b, { kind: 'tag', tag: 'keep​', add: true });
    expect(core.history.triage.tags().map((row) => [row.key, row.images])).toEqual([['keep', 2]]);
    await core.triage.apply(a, { kind: 'tag', tag: 'keep​', add: false });
    expect(core.history.get('a')?.images[0]?.tags ?? []).toEqual([]);
    // A board listed as stored: added to, moved, renamed, deleted by that path.
    await core.triage.apply(b, { kind: 'board', path: 'Oldㅤ/Inner', add: true });
    expect(core.history.get('b')?.images[0]?.boards).toEqual(['Oldㅤ/Inner']);
    core.boards.create('Top');
    core.boards.move('Oldㅤ/Inner', 'Top');
    expect(() => core.boards.rename('Top/Inner', 'Inner​')).toThrow(TriageError);
    core.boards.rename('Oldㅤ', 'Older');
    core.boards.move('Top/Inner', 'Older');
    expect(core.boards.list().map((board) => board.path)).toEqual(['Older', 'Older/Inner', 'Top']);
    expect(core.boards.delete('Older')).toBeGreaterThan(0);
    expect(core.boards.list().map((board) => board.path)).toEqual(['Top']);
  });
});

describe('a library written by the version before', () => {
  const history = historyFilePerTest();
  const before = HISTORY_MIGRATIONS.slice(0, HISTORY_MIGRATIONS.indexOf(refoldKeysV22));

  it('has its twins keyed again and merged with their plain spelling, none lost', () => {
    const older = HistoryStore.open(history.file, { migrations: before });
    const tagged = (localId: string, tags: string[], boards: string[]) =>
      makeTask({ localId, folder: localId, images: [{ ...makeImage(0), tags, boards }] });
    older.putMany([
      tagged('a', ['keep'], ['Clients']),
      tagged('b', ['keep\u200b'], ['Clients\u200b/Acme']),
      tagged('c', ['keep', 'keep\u3164'], ['Clients', 'clients\u3164']),
    ]);
    older.close();
    // The version before keyed a twin as itself (NFC, case folded): write its rows so.
    const db = new DatabaseSync(history.file);
    const oldKey = (name: string) => name.normalize('NFC').toUpperCase().toLowerCase();
    db.prepare("DELETE FROM image_tags WHERE local_id = 'c'").run();
    db.prepare("DELETE FROM image_boards WHERE local_id = 'c'").run();
    const tag = db.prepare(
      'INSERT OR REPLACE INTO image_tags (local_id, idx, tag_key, tag, pos) VALUES (?, 0, ?, ?, ?)',
    );
    const inBoard = db.prepare(
      'INSERT OR REPLACE INTO image_boards (local_id, idx, board_key, path, pos) VALUES (?, 0, ?, ?, ?)',
    );
    db.prepare("DELETE FROM image_tags WHERE local_id = 'b'").run();
    db.prepare("DELETE FROM image_boards WHERE local_id = 'b'").run();
    tag.run('b', oldKey('keep\u200b'), 'keep\u200b', 0);
    tag.run('c', 'keep', 'keep', 0);
    tag.run('c', oldKey('keep\u3164'), 'keep\u3164', 1);
    inBoard.run('b', oldKey('Clients\u200b/Acme'), 'Clients\u200b/Acme', 0);
    inBoard.run('c', 'clients', 'Clients', 0);
    inBoard.run('c', oldKey('clients\u3164'), 'clients\u3164', 1);
    db.prepare('DELETE FROM boards').run();
    const board = db.prepare('INSERT INTO boards (key, path, created_at) VALUES (?, ?, 1)');
    for (const path of ['Clients', 'Clients\u200b', 'Clients\u200b/Acme', 'clients\u3164']) {
      board.run(oldKey(path), path);
    }
    db.close();

    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(store.triage.tags().map((row) => [row.key, row.images])).toEqual([['keep', 3]]);
    expect(store.triage.boards().map((row) => [row.key, row.path])).toEqual([
      ['clients', 'Clients'],
      ['clients/acme', 'Clients\u200b/Acme'],
    ]);
    expect(store.triage.treeKeys('clients').sort()).toEqual(['clients', 'clients/acme']);
    expect(store.triage.tasksInTree('clients').sort()).toEqual(['a', 'b', 'c']);
    store.close();
  });
});
