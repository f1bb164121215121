/**
 * The gallery's pages by position far down a large library, through the sparse index of
 * positions (position-anchors.ts), on a real SQLite file: every page equals a sort of every image
 * in JavaScript, in both orders that walk the images' index, with a filter, and after the library
 * changes under the anchors (new tasks on top, an image deleted, a task removed, a write by another
 * connection); the rows before a place are walked once, not at every page.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageQuery } from '../../../electron/core/history/history-query';
import { ANCHOR_SPAN } from '../../../electron/core/history/position-anchors';
import { anchorsOf, expected as expectedOf, pageAt as pageOf, record } from './position-fixture';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

/** About 5 anchors' worth of images. */
const TASKS = 10_000;
let store: HistoryStore;
let records: TaskRecord[];
const folder = tempFolderSync('history');
const file = () => join(folder, 'history.sqlite');

const expected = (query: ImageQuery, sort: 'newest' | 'oldest') => expectedOf(records, query, sort);
const anchors = () => anchorsOf(store);
const pageAt = (query: ImageQuery, sort: 'newest' | 'oldest', offset: number) =>
  pageOf(store, query, sort, offset);

beforeAll(() => {
  store = HistoryStore.open(file());
  records = Array.from({ length: TASKS }, (_, n) => record(n));
  store.putMany(records);
});
afterAll(() => {
  store.close();
  removeFolderSync(folder);
});

describe('pages by position far down the library', () => {
  for (const sort of ['newest', 'oldest'] as const) {
    for (const query of [{}, { model: 'model-b' }] as ImageQuery[]) {
      it(`${sort} ${JSON.stringify(query)}: every page at its place, the rows walked once`, () => {
        const want = expected(query, sort);
        expect(want.length).toBeGreaterThan(ANCHOR_SPAN * 2);
        // A drag down: a page at each step, then jumps back and forth, then past the end.
        const steps = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) =>
          Math.floor((want.length * k) / 11),
        );
        for (const offset of steps) {
          expect(pageAt(query, sort, offset)).toEqual(want.slice(offset, offset + 60));
        }
        const walked = anchors().size;
        expect(walked).toBe(Math.floor(steps.at(-1)! / ANCHOR_SPAN));
        for (const offset of [ANCHOR_SPAN - 1, ANCHOR_SPAN, ANCHOR_SPAN + 1, 5, steps[3]!]) {
          expect(pageAt(query, sort, offset)).toEqual(want.slice(offset, offset + 60));
        }
        // The jumps back walked nothing new.
        expect(anchors().size).toBe(walked);
        expect(pageAt(query, sort, want.length - 7)).toEqual(want.slice(-7));
        expect(pageAt(query, sort, want.length)).toEqual([]);
        expect(pageAt(query, sort, want.length + ANCHOR_SPAN * 3)).toEqual([]);
      });
    }
  }

  it('drops the anchors when the library changes under them, and stays right', () => {
    const far = ANCHOR_SPAN * 2 + 17;
    expect(pageAt({}, 'newest', far)).toEqual(expected({}, 'newest').slice(far, far + 60));
    // New tasks on top: every place moves down by their images.
    const fresh = Array.from({ length: 40 }, (_, n) => record(TASKS + n, 9_000_000));
    store.putMany(fresh);
    records = [...records, ...fresh];
    expect(pageAt({}, 'newest', far)).toEqual(expected({}, 'newest').slice(far, far + 60));
    // An image deleted and a task removed above the place.
    const gone = records[TASKS - 5]!;
    store.delete(gone.localId);
    records = records.filter((r) => r.localId !== gone.localId);
    expect(pageAt({}, 'newest', far)).toEqual(expected({}, 'newest').slice(far, far + 60));
    expect(pageAt({}, 'oldest', far)).toEqual(expected({}, 'oldest').slice(far, far + 60));
  });

  it('sees a write by another connection (another process) since the anchors were read', () => {
    const far = ANCHOR_SPAN * 3 + 5;
    expect(pageAt({}, 'newest', far)).toEqual(expected({}, 'newest').slice(far, far + 60));
    const other = HistoryStore.open(file());
    const fresh = Array.from({ length: 25 }, (_, n) => record(TASKS + 100 + n, 9_500_000));
    try {
      other.putMany(fresh);
    } finally {
      other.close();
    }
    records = [...records, ...fresh];
    expect(pageAt({}, 'newest', far)).toEqual(expected({}, 'newest').slice(far, far + 60));
  });
});
