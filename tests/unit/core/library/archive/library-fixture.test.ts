/**
 * The archive tests' libraries (library-fixture.ts): `useLibrary`'s, one for each test, and those
 * `useLibraries` makes in a test, each still open in the file's afterEach, closed and removed once
 * its test ends. The tests of a block run in order: each later one looks at what the one before left.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { addTask, useLibraries, useLibrary, type Library } from './library-fixture';

/** The count of `library`'s history: throws once it is closed. */
const countOf = (library: Library): number => library.history.count({});

/** The library's own fields, as they are now. */
const snapshot = (library: Library): Library => ({ ...library });

describe('useLibrary', () => {
  const library = useLibrary();
  const seen: Library[] = [];
  let countInAfterEach: number | undefined;
  afterEach(() => {
    countInAfterEach = existsSync(library.root) ? countOf(library) : undefined;
  });

  it('is a library of the test’s own, its history open and its gallery there', async () => {
    await addTask(library);
    expect(library.history.count({})).toBe(1);
    seen.push(snapshot(library));
  });

  it('was still open in the file’s afterEach, then closed and removed; this test has another', () => {
    expect(countInAfterEach).toBe(1);
    expect(() => countOf(seen[0]!)).toThrow();
    expect(existsSync(seen[0]!.dir)).toBe(false);
    expect(library.dir).not.toBe(seen[0]!.dir);
    expect(library.history.count({})).toBe(0);
  });
});

describe('useLibraries', () => {
  const makeLibrary = useLibraries();
  const made: Library[] = [];
  let countsInAfterEach: (number | undefined)[] = [];
  afterEach(() => {
    countsInAfterEach = made.map((library) =>
      existsSync(library.dir) ? countOf(library) : undefined,
    );
  });

  it('makes as many libraries as the test asks for, each of its own', async () => {
    made.push(await makeLibrary(), await makeLibrary());
    expect(made[0]!.dir).not.toBe(made[1]!.dir);
  });

  it('kept them open for the file’s afterEach, then closed and removed them', () => {
    expect(countsInAfterEach).toEqual([0, 0]);
    for (const library of made) expect(() => countOf(library)).toThrow();
    expect(made.map((library) => existsSync(library.dir))).toEqual([false, false]);
  });
});
