/**
 * Triage on the real core (history on disk, engine, sidecars): ratings, flags, tags and boards of
 * many images in one write and one Undo step; the words checked with sentences; two processes
 * (the app and a CLI) on one library never lose each other's change; the history's filter rows
 * follow every write; a star is a pick.
 */
import { readFile } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PictorCore } from '../../../../electron/core/pictor-core';
import { TriageError } from '../../../../electron/core/triage/triage-error';
import { flagOf } from '../../../../shared/domain/triage';
import { ManualClock } from '../../../fakes/manual-clock';
import { makeImage, makeTask } from '../../../support/task-records';
import { offlineCore, offlineDir } from '../../../support/offline-core';

let dir: string;
let clock: ManualClock;

/** An offline core on the test's library and clock. */
const open = () => offlineCore({ dir, clock });

/** `tasks` tasks of `images` saved images each, in the history. */
function seed(core: PictorCore, tasks: number, images = 2): string[] {
  const records = Array.from({ length: tasks }, (_, n) =>
    makeTask({
      localId: `t-${String(n).padStart(5, '0')}`,
      createdAt: 1_700_000_000_000 + n,
      folder: `t-${String(n)}`,
      images: Array.from({ length: images }, (_, i) => makeImage(i)),
    }),
  );
  core.history.putMany(records);
  return records.map((record) => record.localId);
}

const refs = (ids: readonly string[], index = 0) => ids.map((localId) => ({ localId, index }));
const image = (core: PictorCore, localId: string, index = 0) => {
  const found = core.history.get(localId)?.images[index];
  if (!found) throw new Error(`no image ${localId}#${String(index)}`);
  return found;
};
const sentenceOf = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof TriageError) return error.message;
    throw error;
  }
  throw new Error('did not throw');
};

beforeEach(async () => {
  dir = await offlineDir();
  clock = new ManualClock(1_800_000_000_000);
});

describe('triage of many images', () => {
  it('rates a selection in one write, counts what it did, and Undo and Redo put it back and again', async () => {
    const core = await open();
    const ids = seed(core, 30);
    await core.triage.apply(refs(ids.slice(0, 5)), { kind: 'rating', rating: 2 });
    const outcome = await core.triage.apply(
      [...refs(ids.slice(0, 20)), { localId: 'nope', index: 0 }, { localId: ids[0]!, index: 9 }],
      { kind: 'rating', rating: 4 },
    );
    expect(outcome).toMatchObject({ changed: 20, unchanged: 0, refused: 0 });
    expect(outcome.missing).toEqual([
      { localId: ids[0], index: 9 },
      { localId: 'nope', index: 0 },
    ]);
    expect(ids.slice(0, 20).map((id) => image(core, id).rating ?? 0)).toEqual(Array(20).fill(4));
    // The second image of each task is untouched.
    expect(image(core, ids[0]!, 1).rating).toBeUndefined();
    expect(image(core, ids[0]!).triagedAt).toBe(clock.now());
    // The same rating again changes nothing and is no step of its own.
    expect(
      await core.triage.apply(refs(ids.slice(0, 20)), { kind: 'rating', rating: 4 }),
    ).toMatchObject({
      changed: 0,
      unchanged: 20,
    });
    expect((await core.triage.undo())?.changed).toBe(20);
    expect(ids.slice(0, 6).map((id) => image(core, id).rating ?? 0)).toEqual([2, 2, 2, 2, 2, 0]);
    expect((await core.triage.redo())?.changed).toBe(20);
    expect(image(core, ids[19]!).rating).toBe(4);
    expect((await core.triage.undo())?.changed).toBe(20);
    expect((await core.triage.undo())?.changed).toBe(5);
    expect(await core.triage.undo()).toBeNull();
    expect(image(core, ids[0]!).rating).toBeUndefined();
  });

  it('a pick is the image’s star: the favourites filter lists it, a reject drops it', async () => {
    const core = await open();
    const [a, b] = seed(core, 2);
    await core.triage.apply(refs([a!, b!]), { kind: 'flag', flag: 'pick' });
    expect(image(core, a!)).toMatchObject({ favourite: true });
    expect(image(core, a!).flag).toBeUndefined();
    expect(core.history.get(a!)?.favourite).toBe(true);
    expect(core.history.listImages({ favourite: true }).items).toHaveLength(2);
    await core.triage.apply(refs([a!]), { kind: 'flag', flag: 'reject' });
    expect(flagOf(image(core, a!))).toBe('reject');
    expect(core.history.get(a!)?.favourite).toBe(false);
    expect(core.history.listImages({ favourite: true }).items).toHaveLength(1);
    expect(core.history.listImages({ flag: 'reject' }).items.map((i) => i.localId)).toEqual([a]);
    await core.triage.apply(refs([a!, b!]), { kind: 'flag', flag: 'none' });
    expect([flagOf(image(core, a!)), flagOf(image(core, b!))]).toEqual(['none', 'none']);
  });

  it('tags: checked and folded, at most 64 per image (the rest counted), removed by any case', async () => {
    const core = await open();
    const [a, b] = seed(core, 2);
    await core.triage.apply(refs([a!]), { kind: 'tag', tag: '  Cat ', add: true });
    await core.triage.apply(refs([a!, b!]), { kind: 'tag', tag: 'CAT', add: true });
    expect(image(core, a!).tags).toEqual(['Cat']);
    expect(image(core, b!).tags).toEqual(['CAT']);
    for (let n = 1; n < 64; n += 1) {
      await core.triage.apply(refs([a!]), { kind: 'tag', tag: `t${String(n)}`, add: true });
    }
    const full = await core.triage.apply(refs([a!, b!]), {
      kind: 'tag',
      tag: 'one more',
      add: true,
    });
    expect(full).toMatchObject({ changed: 1, refused: 1 });
    expect(image(core, a!).tags).toHaveLength(64);
    expect(core.history.listImages({ tags: { mode: 'all', keys: ['cat'] } }).items).toHaveLength(2);
    await core.triage.apply(refs([a!, b!]), { kind: 'tag', tag: 'cAt', add: false });
    expect(image(core, b!).tags).toEqual(['one more']);
    expect(core.history.listImages({ tags: { mode: 'any', keys: ['cat'] } }).items).toHaveLength(0);
  });

  it('refuses bad words with a sentence naming what is wrong, before writing anything', async () => {
    const core = await open();
    const [a] = seed(core, 1);
    const tag = (text: string) => () =>
      core.triage.apply(refs([a!]), { kind: 'tag', tag: text, add: true });
    expect(await sentenceOf(tag('   '))).toBe('A tag cannot be empty.');
    expect(await sentenceOf(tag('x'.repeat(65)))).toBe('A tag can have at most 64 characters.');
    expect(await sentenceOf(tag('evil\u202Egnp'))).toBe(
      'A tag cannot contain the character U+202E.',
    );
    expect(await sentenceOf(tag('tab\there'))).toBe('A tag cannot contain the character U+0009.');
    expect(
      await sentenceOf(() => core.triage.apply(refs([a!]), { kind: 'rating', rating: 9 })),
    ).toBe('A rating is a whole number from 0 to 5.');
    expect(
      await sentenceOf(() =>
        core.triage.apply(refs([a!]), { kind: 'board', path: 'Nowhere', add: true }),
      ),
    ).toBe('There is no board “Nowhere”.');
    expect(image(core, a!).tags).toBeUndefined();
    expect(core.triage.canUndo()).toEqual({ undo: false, redo: false });
  });

  it('boards: an image in several, listed by board, unfiled when in none; sidecars carry the paths', async () => {
    const core = await open();
    const [a, b] = seed(core, 2);
    core.boards.create('Clients/Acme');
    core.boards.create('Mood');
    await core.triage.apply(refs([a!]), { kind: 'board', path: 'clients/ACME', add: true });
    await core.triage.apply(refs([a!]), { kind: 'board', path: 'Mood', add: true });
    expect(image(core, a!).boards).toEqual(['Clients/Acme', 'Mood']);
    const listed = (board: string) =>
      core.history.listImages({ board }).items.map((i) => `${i.localId}#${String(i.index)}`);
    expect(listed('clients/acme')).toEqual([`${a!}#0`]);
    expect(core.history.listImages({ unfiled: true }).items).toHaveLength(3);
    expect(core.boards.list().map((row) => [row.path, row.images])).toEqual([
      ['Clients', 0],
      ['Clients/Acme', 1],
      ['Mood', 1],
    ]);
    // Closing writes the sidecars still waiting (they are written a moment after a change).
    await core.close();
    const sidecar = JSON.parse(await readFile(join(dir, 'gallery', `t-0`, 'pictor.json'), 'utf8'));
    expect(sidecar.record.images[0].boards).toEqual(['Clients/Acme', 'Mood']);
    expect(b).toBeDefined();
  });

  it('moves images from one board to another in one step, and one Undo puts them back', async () => {
    const core = await open();
    const [a, b] = seed(core, 2);
    core.boards.create('Inbox');
    core.boards.create('Clients/Acme');
    await core.triage.apply(refs([a!, b!]), { kind: 'board', path: 'Inbox', add: true });
    await core.triage.apply(refs([b!]), { kind: 'board', path: 'Clients', add: true });
    const moved = await core.triage.apply(refs([a!, b!]), {
      kind: 'board',
      path: 'clients/acme',
      add: true,
      from: 'INBOX',
    });
    expect(moved.changed).toBe(2);
    expect(image(core, a!).boards).toEqual(['Clients/Acme']);
    expect(image(core, b!).boards).toEqual(['Clients', 'Clients/Acme']);
    // Leaving the board it joins is no move: the images join it and stay.
    await core.triage.apply(refs([a!]), {
      kind: 'board',
      path: 'Clients',
      add: true,
      from: 'Clients',
    });
    expect(image(core, a!).boards).toEqual(['Clients/Acme', 'Clients']);
    await core.triage.undo();
    await core.triage.undo();
    expect(image(core, a!).boards).toEqual(['Inbox']);
    expect(image(core, b!).boards).toEqual(['Inbox', 'Clients']);
    expect(
      await sentenceOf(() =>
        core.triage.apply(refs([a!]), { kind: 'board', path: 'Inbox', add: true, from: 'Gone' }),
      ),
    ).toBe('There is no board “Gone”.');
  });

  it('renaming and moving a board rewrite its images’ paths; it cannot go inside itself; deleting keeps the images', async () => {
    const core = await open();
    const [a] = seed(core, 1);
    core.boards.create('Clients/Acme/Drafts');
    core.boards.create('Archive');
    await core.triage.apply(refs([a!]), { kind: 'board', path: 'Clients/Acme/Drafts', add: true });
    expect(await sentenceOf(() => core.boards.move('Clients', 'Clients/Acme'))).toBe(
      'A board cannot be moved into itself or into a board inside it.',
    );
    expect(core.boards.rename('Clients/Acme', 'ACME Corp')).toMatchObject({ tasks: 1 });
    expect(image(core, a!).boards).toEqual(['Clients/ACME Corp/Drafts']);
    core.boards.move('Clients/ACME Corp', 'Archive');
    expect(image(core, a!).boards).toEqual(['Archive/ACME Corp/Drafts']);
    expect(core.boards.list().map((row) => row.path)).toEqual([
      'Archive',
      'Archive/ACME Corp',
      'Archive/ACME Corp/Drafts',
      'Clients',
    ]);
    expect(await sentenceOf(() => core.boards.create('Archive/acme corp'))).toBe(
      'There is already a board named “Archive/acme corp” there.',
    );
    expect(await sentenceOf(() => core.boards.create('A/B/C/D/E/F'))).toBe(
      'Boards can be nested at most 5 levels deep.',
    );
    core.boards.delete('Archive');
    expect(image(core, a!).boards).toBeUndefined();
    expect(image(core, a!).state).toBe('saved');
    expect(core.boards.list().map((row) => row.path)).toEqual(['Clients']);
  });

  it('the triage-only write leaves every column as a full write of the same records would', async () => {
    const core = await open();
    const ids = seed(core, 12, 3);
    core.boards.create('B');
    await core.triage.apply(refs(ids.slice(0, 8)), { kind: 'rating', rating: 3 });
    await core.triage.apply(refs(ids.slice(2, 6), 1), { kind: 'flag', flag: 'pick' });
    await core.triage.apply(refs(ids.slice(4, 10), 2), { kind: 'flag', flag: 'reject' });
    await core.triage.apply(refs(ids.slice(0, 5)), { kind: 'tag', tag: 'Cat', add: true });
    await core.triage.apply(refs(ids.slice(3, 9), 1), { kind: 'board', path: 'B', add: true });
    await core.triage.apply(refs(ids.slice(0, 2)), { kind: 'rating', rating: 0 });
    const file = join(dir, 'data', 'history.sqlite');
    const snapshot = () => {
      const db = new DatabaseSync(file);
      try {
        // From v16 the rows are triage's home (the record's JSON holds none, and a rating's
        // time is in task_triage): the rows, the task's star, and the records as read.
        const rows = ['images', 'image_tags', 'image_boards', 'tasks'].map((table) =>
          db
            .prepare(
              table === 'tasks'
                ? 'SELECT local_id, favourite FROM tasks ORDER BY local_id'
                : `SELECT * FROM ${table} ORDER BY local_id, idx`,
            )
            .all(),
        );
        return [...rows, ids.map((id) => core.history.get(id))];
      } finally {
        db.close();
      }
    };
    const fast = snapshot();
    // A write of the records with their triage (as an import writes them).
    core.history.putManyCounted(ids.map((id) => core.history.get(id)!));
    expect(snapshot()).toEqual(fast);
  });

  it('an edit of the images alone is still held to the schema: bad triage values are not stored', async () => {
    const core = await open();
    const [a] = seed(core, 1);
    core.history.editMany([a!], (record) => ({
      ...record,
      images: record.images.map((image, n) =>
        n === 0
          ? { ...image, rating: 9, tags: ['ok', 'x'.repeat(2_000)] }
          : { ...image, flag: 'maybe' as never, boards: ['a//b'] },
      ),
    }));
    expect(image(core, a!)).not.toHaveProperty('rating');
    expect(image(core, a!)).not.toHaveProperty('tags');
    expect(image(core, a!, 1)).not.toHaveProperty('flag');
    expect(image(core, a!, 1)).not.toHaveProperty('boards');
    expect(core.history.listImages({ rating: { op: '>=', value: 1 } }).items).toHaveLength(0);
  });

  it('two processes on one library: each change is made on the other’s, never over it', async () => {
    const app = await open();
    const cli = await open();
    const [a] = seed(app, 1);
    await app.triage.apply(refs([a!]), { kind: 'rating', rating: 5 });
    await cli.triage.apply(refs([a!]), { kind: 'tag', tag: 'from the CLI', add: true });
    await app.triage.apply(refs([a!]), { kind: 'flag', flag: 'pick' });
    expect(image(cli, a!)).toMatchObject({ rating: 5, tags: ['from the CLI'], favourite: true });
  });
});
