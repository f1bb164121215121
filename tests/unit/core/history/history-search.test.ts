import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { GalleryItem } from '../../../../shared/domain/gallery-item';
import { makeImage, makeRecord } from './history-fixtures';

let store: HistoryStore;
beforeEach(() => {
  store = HistoryStore.open(':memory:');
});
afterEach(() => store.close());

describe('HistoryStore search', () => {
  const prompts: Record<string, string> = {
    fox: 'A Red Fox jumps over the fence',
    cotton: '100% cotton shirt',
    snake: 'snake_case label',
    percent: '50 percent off, 10 x 5',
    quoted: 'a sign that says "hi" now',
    umlaut: 'Über die Straße',
    operators: 'fox AND (hound OR cat*)',
  };
  beforeEach(() => {
    store.putMany(
      Object.entries(prompts).map(([localId, prompt], n) =>
        makeRecord({ localId, createdAt: n, request: { prompt } }),
      ),
    );
  });
  const search = (text: string) =>
    store
      .list({ search: text })
      .items.map((record) => record.localId)
      .sort();

  it('matches every word anywhere, in any order and any case, parts of words too', () => {
    expect(search('red fox')).toEqual(['fox']);
    expect(search('fox red')).toEqual(['fox']);
    expect(search('fen jum')).toEqual(['fox']);
    expect(search('fox fence hound')).toEqual([]);
    expect(search('RED FOX JUMPS')).toEqual(['fox']);
    expect(search('ence')).toEqual(['fox']);
    expect(search('fox')).toEqual(['fox', 'operators']);
    expect(search('  cotton  ')).toEqual(['cotton']);
    expect(search('über')).toEqual(['umlaut']);
    expect(search('STRASSE')).toEqual([]);
    expect(search('zebra')).toEqual([]);
  });

  it('treats % and _ and quotes and query operators as plain characters', () => {
    expect(search('%')).toEqual(['cotton']);
    expect(search('0%')).toEqual(['cotton']);
    expect(search('0% c')).toEqual(['cotton']);
    expect(search('_')).toEqual(['snake']);
    expect(search('e_c')).toEqual(['snake']);
    expect(search('"hi"')).toEqual(['quoted']);
    expect(search('s "')).toEqual(['quoted']);
    expect(search('cat*')).toEqual(['operators']);
    expect(search('AND (')).toEqual(['operators']);
    // AND and OR are words like any other, not operators: only the prompt that holds them all.
    expect(search('fox AND hound')).toEqual(['operators']);
    expect(search('fox OR shirt')).toEqual([]);
  });

  it('matches queries of one or two characters with a scan', () => {
    expect(search('x')).toEqual(['fox', 'operators', 'percent']);
    expect(search('ER')).toEqual(['fox', 'percent', 'umlaut']);
    expect(search('50')).toEqual(['percent']);
    expect(search('Üb')).toEqual(['umlaut']);
  });

  it('mixes short words (a scan) with indexed ones, in lists and counts alike', () => {
    expect(search('5 percent')).toEqual(['percent']);
    expect(search('x fox')).toEqual(['fox', 'operators']);
    expect(search('ü STR')).toEqual(['umlaut']);
    for (const text of ['5 percent', 'x fox', 'x', 'fox red', 'zebra 5']) {
      expect(store.count({ search: text }), text).toBe(search(text).length);
    }
  });

  it('reads a NUL as a break between words: never a failed read, never a match of everything', () => {
    // SQLite reads LIKE patterns and FTS5 queries as C strings: a NUL ended a short word's
    // pattern (`%` alone: every prompt) or left an indexed word's quote open (the read failed).
    const cases: [text: string, spaced: string][] = [
      ['\u0000x', 'x'],
      ['o\u0000', 'o'],
      ['\u0000\u0000\u0000', ' '],
      ['zeb\u0000', 'zeb'],
      ['f\u0000x', 'f x'],
      ['fox\u0000red', 'fox red'],
      ['\u0000cotton', 'cotton'],
      ['sh\u0000\u0000irt', 'sh irt'],
    ];
    for (const [text, spaced] of cases) {
      expect(search(text), JSON.stringify(text)).toEqual(search(spaced));
      expect(store.count({ search: text }), JSON.stringify(text)).toBe(search(spaced).length);
      const images = store.listImages({ search: text, sort: 'prompt' }).items.length;
      expect(images, JSON.stringify(text)).toBe(
        store.listImages({ search: spaced, sort: 'prompt' }).items.length,
      );
    }
  });

  it('an empty or blank search matches everything', () => {
    expect(search('')).toHaveLength(Object.keys(prompts).length);
    expect(search('   ')).toHaveLength(Object.keys(prompts).length);
  });

  it('follows prompt changes and combines with other filters', () => {
    store.put(
      makeRecord({
        localId: 'fox',
        createdAt: 0,
        request: { prompt: 'a grey wolf' },
        status: 'failed',
      }),
    );
    expect(search('red fox')).toEqual([]);
    expect(search('grey wolf')).toEqual(['fox']);
    expect(store.count({ search: 'wolf', statuses: ['failed'] })).toBe(1);
    expect(store.count({ search: 'wolf', statuses: ['completed'] })).toBe(0);
  });
});

describe('HistoryStore.listImages', () => {
  beforeEach(() => {
    store.putMany([
      makeRecord({
        localId: 'old',
        createdAt: 100,
        request: { prompt: 'an old lighthouse', model: 'model-a', size: '512x512' },
        images: [makeImage(0), makeImage(1, { state: 'expired', favourite: true })],
      }),
      makeRecord({
        localId: 'mid',
        taskId: null,
        createdAt: 200,
        request: { prompt: 'a mid-century chair', model: 'model-b' },
        images: [
          makeImage(0, { state: 'pending' }),
          makeImage(1, { state: 'invalid' }),
          makeImage(2),
        ],
      }),
      makeRecord({
        localId: 'new',
        createdAt: 300,
        request: { prompt: 'a new moon' },
        images: [makeImage(0)],
      }),
      makeRecord({ localId: 'none', createdAt: 400, status: 'failed', images: [] }),
    ]);
  });
  const keys = (items: readonly GalleryItem[]) =>
    items.map((item) => `${item.localId}/${item.index}`);

  it('lists every image newest task first, a task in image order, with its task details', () => {
    const page = store.listImages();
    expect(keys(page.items)).toEqual(['new/0', 'mid/0', 'mid/1', 'mid/2', 'old/0', 'old/1']);
    expect(page.nextCursor).toBeNull();
    const old = page.items.at(-1);
    expect(old).toEqual({
      localId: 'old',
      taskId: 'task-old',
      index: 1,
      image: makeImage(1, { state: 'expired', favourite: true }),
      prompt: 'an old lighthouse',
      model: 'model-a',
      size: '512x512',
      createdAt: 100,
    });
    expect(page.items[0]).not.toHaveProperty('model');
  });

  it('pages with a cursor, also inside one task', () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = store.listImages({ limit: 2, cursor });
      seen.push(...keys(page.items));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(['new/0', 'mid/0', 'mid/1', 'mid/2', 'old/0', 'old/1']);
  });

  it('filters by state, favourite, model, date range and search', () => {
    expect(keys(store.listImages({ states: ['saved'] }).items)).toEqual([
      'new/0',
      'mid/2',
      'old/0',
    ]);
    expect(keys(store.listImages({ states: ['pending', 'invalid'] }).items)).toEqual([
      'mid/0',
      'mid/1',
    ]);
    expect(keys(store.listImages({ states: [] }).items)).toEqual([]);
    expect(keys(store.listImages({ favourite: true }).items)).toEqual(['old/1']);
    expect(keys(store.listImages({ favourite: false }).items)).toHaveLength(5);
    expect(keys(store.listImages({ model: 'model-b' }).items)).toEqual(['mid/0', 'mid/1', 'mid/2']);
    expect(keys(store.listImages({ from: 200, to: 300 }).items)).toEqual([
      'new/0',
      'mid/0',
      'mid/1',
      'mid/2',
    ]);
    expect(keys(store.listImages({ to: 199 }).items)).toEqual(['old/0', 'old/1']);
    expect(keys(store.listImages({ search: 'LIGHTHOUSE' }).items)).toEqual(['old/0', 'old/1']);
    expect(keys(store.listImages({ search: 'oo' }).items)).toEqual(['new/0']);
    expect(
      keys(store.listImages({ search: 'chair', states: ['saved'], model: 'model-b' }).items),
    ).toEqual(['mid/2']);
  });

  it('follows a change of an image favourite flag', () => {
    // A star is the user's edit (a write of the record keeps the stored one: image-rows.ts).
    store.editMany(['new'], (stored) => ({
      ...stored,
      images: [{ ...stored.images[0]!, favourite: true }, ...stored.images.slice(1)],
    }));
    expect(keys(store.listImages({ favourite: true }).items)).toEqual(['new/0', 'old/1']);
  });
});
