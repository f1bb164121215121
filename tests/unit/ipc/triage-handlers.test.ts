/**
 * The triage channels over the app's real wiring (main's handlers, core and SQLite history): a
 * change to images answers what it did, each task it wrote sent to the page once, as its triage
 * delta (`tasks:updated`, before the answer) and never as its record, Undo and Redo, words main
 * refuses come back as sentences, boards and smart boards by name, a smart board whose board is
 * gone still lists (its rule reported), the rejects a purge would move, and a page that sends
 * more than the contract allows is refused before core sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  RequestChannel,
  RequestInput,
  Result,
  TaskChange,
} from '../../../shared/ipc/contract';
import { makeImage } from '../../support/task-records';
import { startWiredApi, type WiredApi } from '../../support/wired-api';
import { seedHistory } from '../renderer/render-wired-app';

const opened: WiredApi[] = [];
afterEach(async () => {
  for (const main of opened.splice(0)) await main.close();
});

async function wired(count: number) {
  const main = await startWiredApi();
  opened.push(main);
  seedHistory(main, count, (n) => ({
    images: [makeImage(0, { file: `g/${String(n)}.png`, bytes: 1_000 * (n + 1) })],
  }));
  const invoke = <C extends RequestChannel>(channel: C, input: RequestInput<C>) =>
    main.api.invoke(channel, input) as Promise<Result<unknown>>;
  const ok = async <C extends RequestChannel>(channel: C, input: RequestInput<C>) => {
    const result = await invoke(channel, input);
    if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
    return result.value as never;
  };
  return { main, invoke, ok };
}

const ref = (n: number) => ({ localId: `seed-${String(n).padStart(6, '0')}`, index: 0 });

describe('triage over IPC', () => {
  it('applies a change to images, sends each task once as its triage, and undoes and redoes it', async () => {
    const { main, ok } = await wired(4);
    const heard: TaskChange[] = [];
    main.api.on('tasks:updated', (changes) => heard.push(...changes));
    /** What the page heard since the last call: each task's change and its image's rating. */
    const sent = () =>
      heard
        .splice(0)
        .map((change) =>
          change.change === 'triage'
            ? [change.localId, change.change, change.images[0]?.rating ?? 0]
            : [change.change === 'task' ? change.record.localId : change.localId, change.change],
        )
        .sort();
    const done: { changed: number; canUndo: boolean } = await ok('triage:apply', {
      images: [ref(0), ref(2)],
      change: { kind: 'rating', rating: 4 },
    });
    expect(done).toMatchObject({ changed: 2, canUndo: true });
    // The answer carries no record: the page had each task's triage before it, once.
    expect(done).not.toHaveProperty('items');
    expect(sent()).toEqual([
      ['seed-000000', 'triage', 4],
      ['seed-000002', 'triage', 4],
    ]);
    expect(main.runtime.core.history.get('seed-000002')?.images[0]?.rating).toBe(4);
    const undone: { changed: number; canRedo: boolean } = await ok('triage:undo', undefined);
    expect(undone).toMatchObject({ changed: 2, canRedo: true });
    expect(sent()).toEqual([
      ['seed-000000', 'triage', 0],
      ['seed-000002', 'triage', 0],
    ]);
    expect(main.runtime.core.history.get('seed-000002')?.images[0]?.rating).toBeUndefined();
    await ok('triage:redo', undefined);
    expect(sent()).toEqual([
      ['seed-000000', 'triage', 4],
      ['seed-000002', 'triage', 4],
    ]);
    expect(main.runtime.core.history.get('seed-000000')?.images[0]?.rating).toBe(4);
  });

  it('refuses a bad tag and a board into its own child with main’s sentences', async () => {
    const { invoke, ok } = await wired(2);
    const tag = await invoke('triage:apply', {
      images: [ref(0)],
      change: { kind: 'tag', tag: 'cat\u202Eevil', add: true },
    });
    expect(tag.ok).toBe(false);
    if (!tag.ok) expect(tag.error.sentence?.key).toMatch(/^error\.triage\./);
    await ok('boards:create', { path: 'Clients/Acme' });
    const move = await invoke('boards:move', { path: 'Clients', parent: 'Clients/Acme' });
    expect(move.ok).toBe(false);
    if (!move.ok) expect(move.error.sentence?.key).toBe('error.triage.boardIntoItself');
  });

  it('lists by a smart board’s name, and one whose board is gone still lists, its rule reported', async () => {
    const { ok } = await wired(6);
    await ok('boards:create', { path: 'Clients' });
    await ok('triage:apply', {
      images: [ref(1), ref(3)],
      change: { kind: 'board', path: 'Clients', add: true },
    });
    await ok('triage:apply', { images: [ref(3), ref(4)], change: { kind: 'rating', rating: 5 } });
    await ok('smart:create', {
      name: 'Best',
      rules: {
        match: 'any',
        items: [
          { kind: 'rating', op: '>=', value: 5 },
          { kind: 'board', board: 'Clients' },
        ],
      },
    });
    const listed = async (): Promise<string[]> => {
      const page: { items: { localId: string }[] } = await ok('gallery:list', { smart: 'best' });
      return page.items.map((item) => item.localId).sort();
    };
    expect(await listed()).toEqual(['seed-000001', 'seed-000003', 'seed-000004']);
    expect(await ok('gallery:count', { smart: 'Best' })).toBe(3);
    await ok('boards:delete', { path: 'Clients' });
    // The board is gone: its rule matches nothing, and the board still opens.
    expect(await listed()).toEqual(['seed-000003', 'seed-000004']);
    const library: {
      smart: { name: string; reports: { missing: boolean; problems: { key: string }[] }[] }[];
    } = await ok('triage:library', undefined);
    const [best] = library.smart;
    expect(best?.name).toBe('Best');
    expect(best?.reports.map((report) => report.missing)).toEqual([false, true]);
    expect(best?.reports[1]?.problems[0]?.key).toBe('error.triage.smartBoardMissing');
  });

  it('names the rejects a purge would move, with their size, in a board or in all', async () => {
    const { ok } = await wired(5);
    await ok('boards:create', { path: 'Drafts' });
    await ok('triage:apply', {
      images: [ref(0), ref(2), ref(4)],
      change: { kind: 'flag', flag: 'reject' },
    });
    await ok('triage:apply', {
      images: [ref(2)],
      change: { kind: 'board', path: 'Drafts', add: true },
    });
    const all: { images: unknown[]; bytes: number } = await ok('triage:rejects', {});
    expect(all.images).toHaveLength(3);
    expect(all.bytes).toBe(1_000 + 3_000 + 5_000);
    const drafts: { images: unknown[]; bytes: number } = await ok('triage:rejects', {
      board: 'Drafts',
    });
    expect(drafts).toEqual({ images: [ref(2)], bytes: 3_000 });
    // Among what a filter shows: its own board only, and a filter of another flag shows none.
    const shown = (filter: object) => ok('triage:rejects', { filter });
    expect(await shown({ board: 'Drafts' })).toEqual({ images: [ref(2)], bytes: 3_000 });
    expect(await shown({ flag: 'reject', states: ['saved'] })).toEqual(all);
    expect(await shown({ flag: 'pick' })).toEqual({ images: [], bytes: 0 });
    expect(await shown({ states: ['deleted'] })).toEqual({ images: [], bytes: 0 });
  });

  it('refuses what the contract does not allow before core sees it', async () => {
    const { main, invoke } = await wired(1);
    const both = await invoke('triage:rejects', { board: 'Drafts', filter: {} });
    expect(both.ok).toBe(false);
    const rule = { kind: 'rating', op: '>=', value: 1 } as const;
    const tooMany = await invoke('smart:create', {
      name: 'Too many',
      rules: { match: 'all', items: Array.from({ length: 21 }, () => rule) },
    });
    expect(tooMany.ok).toBe(false);
    const nested = await invoke('smart:create', {
      name: 'Nested',
      rules: {
        match: 'all',
        items: [{ match: 'any', rules: [{ match: 'all', rules: [rule] }] }],
      } as never,
    });
    expect(nested.ok).toBe(false);
    const rating = await invoke('triage:apply', {
      images: [ref(0)],
      change: { kind: 'rating', rating: 9 },
    });
    expect(rating).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(main.runtime.core.history.get('seed-000000')?.images[0]?.rating).toBeUndefined();
    expect(main.runtime.core.smartBoards.list()).toEqual([]);
  });

  it(
    'takes the most refs the contract allows in one step, and refuses one more before core sees it',
    { timeout: 60_000 },
    async () => {
      const { main, invoke, ok } = await wired(3);
      // A page at the contract's bound: two real images among 99,998 refs naming nothing.
      const refs = [ref(0), ref(2)];
      for (let n = 0; refs.length < 100_000; n += 1)
        refs.push({ localId: `gone-${String(n)}`, index: 0 });
      const heard: TaskChange[] = [];
      main.api.on('tasks:updated', (changes) => heard.push(...changes));
      const done: { changed: number; missing?: unknown } = await ok('triage:apply', {
        images: refs,
        change: { kind: 'rating', rating: 2 },
      });
      expect(done.changed).toBe(2);
      // The page heard of the tasks written, not of one per ref it sent.
      expect(heard.map((change) => change.change)).toEqual(['triage', 'triage']);
      expect(main.runtime.core.history.get('seed-000002')?.images[0]?.rating).toBe(2);
      // One step: one Undo takes both back.
      await ok('triage:undo', undefined);
      expect(main.runtime.core.history.get('seed-000000')?.images[0]?.rating).toBeUndefined();
      // The same 100,000 refs for Write metadata: each counted once as not written (refs naming
      // nothing, and the two seeded records, whose files are not on disk), and the event loop
      // turns meanwhile (a page's next request is answered), though no ref reaches the disk.
      let turns = 0;
      let writing = true;
      const turn = (): void => {
        turns += 1;
        if (writing) setImmediate(turn);
      };
      setImmediate(turn);
      const metadata: {
        written: number;
        unchanged: number;
        withCredentials: number;
        failed: number;
      } = await ok('triage:writeMetadata', { images: refs });
      writing = false;
      expect(turns).toBeGreaterThan(1_000);
      expect(metadata).toEqual({ written: 0, unchanged: 0, withCredentials: 0, failed: 100_000 });
      // One over the bound is refused whole.
      const over = await invoke('triage:apply', {
        images: [...refs, ref(1)],
        change: { kind: 'rating', rating: 3 },
      });
      expect(over).toMatchObject({ ok: false, error: { code: 'bad_input' } });
      expect(main.runtime.core.history.get('seed-000001')?.images[0]?.rating).toBeUndefined();
    },
  );
});
