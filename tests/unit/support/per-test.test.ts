/**
 * tests/support/per-test.ts: a value made for every test and ended when it ends, also when the
 * test failed or a set-up after the value's failed; a folder of the test's own, and one of the
 * file's. The tests of a block run in order: each later
 * one looks at what the one before left; the ones marked `fails` fail on purpose (vitest counts
 * them passed only if they do fail).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fieldsOf, fileFolder, perTest, testFolder } from '../../support/per-test';
import { galleryWithImages } from '../core/trash/trash-fixture';

interface Made {
  readonly id: number;
  readonly label: string;
  ended: boolean;
}

/** The fixture's getter read now: what it returns, or what it throws. */
const read = <T>(get: () => T): T | Error => {
  try {
    return get();
  } catch (error) {
    return error as Error;
  }
};

describe('perTest', () => {
  const made: Made[] = [];
  const ended: string[] = [];
  const fixture = perTest(
    'theFixture',
    () => {
      const value: Made = { id: made.length, label: `value ${made.length}`, ended: false };
      made.push(value);
      return value;
    },
    (value) => {
      value.ended = true;
      ended.push(value.label);
    },
  );
  const atCollection = read(fixture);
  const fields = fieldsOf(fixture, ['id', 'label'], { own: 'kept' });
  const SET_UP_FAILS = 'ends the value when a set-up after it fails (this test never runs)';
  beforeEach(({ task }) => {
    if (task.name === SET_UP_FAILS)
      throw new Error('a set-up after the fixture’s fails on purpose');
  });
  let inAfterEach: Made | Error | undefined;
  afterEach(() => {
    inAfterEach = read(fixture);
  });

  it('has no value while the file is collected, and says which fixture was read', () => {
    expect(atCollection).toBeInstanceOf(Error);
    expect((atCollection as Error).message).toBe('theFixture: read it inside a test');
  });

  it('makes a value for each test, the one its fields read', () => {
    expect(fixture()).toBe(made[1]);
    expect(fixture().ended).toBe(false);
    expect({ ...fields }).toEqual({ own: 'kept', id: 1, label: 'value 1' });
  });

  it('still had it in the file’s afterEach, ended it after, and makes another', () => {
    expect(inAfterEach).toBe(made[1]);
    expect(made[1]!.ended).toBe(true);
    expect(fields.id).toBe(2);
  });

  it.fails('ends the value of a test that fails (this one)', () => {
    expect(fixture().id).toBe(3);
    throw new Error('this test fails on purpose');
  });

  it('ended the failed test’s value', () => {
    expect(made[3]!.ended).toBe(true);
    expect(ended).toEqual(['value 0', 'value 1', 'value 2', 'value 3']);
  });

  it.fails(SET_UP_FAILS, () => {
    expect(fixture().id).toBe(5);
  });

  it('ended that value too', () => {
    expect(made[5]!.ended).toBe(true);
    expect(ended).toContain('value 5');
  });
});

describe('perTest fixtures built on each other', () => {
  const order: string[] = [];
  const outer = perTest(
    'outer',
    () => 'outer',
    (value) => order.push(`end ${value}`, `inner then: ${readInner()}`),
  );
  const inner = perTest(
    'inner',
    () => `inner on ${outer()}`,
    (value) => order.push(`end ${value}`),
  );
  const readInner = (): string => {
    try {
      return inner();
    } catch (error) {
      return (error as Error).message;
    }
  };
  afterEach(() => {
    order.push('afterEach');
  });

  it('makes the later one from the earlier one', () => {
    expect(inner()).toBe('inner on outer');
    expect(order).toEqual([]);
  });

  it('ended them after the file’s afterEach, the later one first, and neither reads after', () => {
    expect(order).toEqual([
      'afterEach',
      'end inner on outer',
      'end outer',
      'inner then: inner: read it inside a test',
    ]);
  });
});

describe('a test’s own folder (testFolder), and the trash fixture’s', () => {
  const made: string[] = [];
  let inAfterEach: boolean[] = [];
  afterEach(() => {
    inAfterEach = made.map((dir) => existsSync(dir));
  });

  it('makes a folder named for its maker, and the trash fixture’s gallery and journal', async () => {
    const own = await testFolder('per-test-own');
    await writeFile(join(own, 'file'), 'kept until the test ends');
    const gallery = await galleryWithImages(2);
    made.push(own, gallery.root, join(gallery.journalDir, '..'));
    expect(basename(own)).toMatch(/^pictor-per-test-own-\w{6}$/);
    expect(made.every((dir) => existsSync(dir))).toBe(true);
  });

  it('kept them through the file’s afterEach and removed them when that test ended', () => {
    // This file removes nothing itself: the making registered the removal.
    expect(inAfterEach).toEqual([true, true, true]);
    expect(made.filter((dir) => existsSync(dir))).toEqual([]);
  });
});

/** The folder {@link fileFolder} made for the block below, for the block after it to look for. */
let fileFolderMade: string | undefined;

describe('a folder of the file’s (fileFolder)', () => {
  let filled = 0;
  const folder = fileFolder('per-test-file', async (made) => {
    filled += 1;
    await writeFile(join(made, 'drawn'), 'once');
  });
  const atCollection = read(folder);

  it('is made and filled before the block’s tests, named for its maker; not while collected', async () => {
    expect((atCollection as Error).message).toBe(
      "per-test-file: read it while the file's tests run",
    );
    fileFolderMade = folder();
    expect(basename(fileFolderMade)).toMatch(/^pictor-per-test-file-\w{6}$/);
    expect(await readFile(join(folder(), 'drawn'), 'utf8')).toBe('once');
    await writeFile(join(folder(), 'left by the first test'), '');
  });

  it('is the same folder for the next test, with what the first left, filled once', () => {
    expect(folder()).toBe(fileFolderMade);
    expect(existsSync(join(folder(), 'left by the first test'))).toBe(true);
    expect(filled).toBe(1);
  });
});

describe('after the block that made a fileFolder', () => {
  it('it was removed when that block’s tests ended', () => {
    expect(fileFolderMade).toBeDefined();
    expect(existsSync(fileFolderMade!)).toBe(false);
  });
});
