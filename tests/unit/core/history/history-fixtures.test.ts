/**
 * The history tests' per-test file and store (history-fixtures.ts): a folder and a store of each
 * test's own, both still there in the test file's afterEach hooks, and gone once the test ends.
 * The tests of a block run in order: each later one looks at what the one before left.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryStore } from '../../../../electron/core/history/history-store';
import { historyFilePerTest, historyStorePerTest, makeRecord } from './history-fixtures';

const thrown = (read: () => unknown): unknown => {
  try {
    return read();
  } catch (error) {
    return error;
  }
};

describe('historyFilePerTest', () => {
  const history = historyFilePerTest();
  const atCollection = thrown(() => history.dir);
  const seen: string[] = [];

  it('has no folder while the file is collected', () => {
    expect(atCollection).toBeInstanceOf(Error);
    expect((atCollection as Error).message).toMatch(/inside a test/);
  });

  it('is a folder of the test’s own, with history.sqlite in it and not yet made', () => {
    seen.push(history.dir);
    expect(existsSync(history.dir)).toBe(true);
    expect(history.file).toBe(join(history.dir, 'history.sqlite'));
    expect(existsSync(history.file)).toBe(false);
  });

  it('is removed when the test ends, and the next test has another', () => {
    expect(existsSync(seen[0]!)).toBe(false);
    expect(history.dir).not.toBe(seen[0]);
    expect(existsSync(history.dir)).toBe(true);
  });
});

describe('historyStorePerTest', () => {
  const history = historyStorePerTest();
  const atCollection = thrown(() => history.store);
  const left: { store: HistoryStore; dir: string }[] = [];
  let countInAfterEach: unknown;
  afterEach(() => {
    countInAfterEach = thrown(() => existsSync(history.dir) && history.store.count());
  });

  it('has no store while the file is collected', () => {
    expect(atCollection).toBeInstanceOf(Error);
    expect((atCollection as Error).message).toMatch(/inside a test/);
  });

  it('opens a store on the test’s file', () => {
    history.store.put(makeRecord({ localId: 'a' }));
    expect(existsSync(history.file)).toBe(true);
    left.push({ store: history.store, dir: history.dir });
  });

  it('is still open in the file’s afterEach, then closed and its folder removed', () => {
    expect(countInAfterEach).toBe(1);
    expect(() => left[0]!.store.count()).toThrow();
    expect(existsSync(left[0]!.dir)).toBe(false);
    expect(history.store.get('a')).toBeUndefined();
  });

  it('reopens another file in the store’s place, closing the one before', () => {
    const first = history.store;
    const other = join(history.dir, 'other.sqlite');
    const reopened = history.reopen(other);
    expect(history.store).toBe(reopened);
    expect(() => first.count()).toThrow();
    reopened.put(makeRecord({ localId: 'b' }));
    expect(existsSync(other)).toBe(true);
    left.push({ store: reopened, dir: history.dir });
  });

  it('closes the reopened store when the test ends', () => {
    expect(() => left[1]!.store.count()).toThrow();
    expect(existsSync(left[1]!.dir)).toBe(false);
  });
});
