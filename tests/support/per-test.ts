/**
 * The one home of the tests' per-test fixtures (a library, a history file or store, a gallery,
 * export folders): a value made before every test of the file or describe block that asks for it,
 * ended when that test ends, and read through a getter that throws outside a test; a temp
 * folder of the running test's own ({@link testFolder}); and one of the file's ({@link fileFolder}).
 */
import { beforeAll, beforeEach, onTestFinished } from 'vitest';
import { removeFolder, tempFolder } from './temp-folders';

/**
 * For every test of the file (or describe block) that calls this: `make` runs in a beforeEach (in
 * the order the caller's hooks were registered, so a beforeEach registered after this one may
 * finish the value's set-up), and `end` runs on what it made when the test ends: after the file's
 * own afterEach hooks, which may still use it, also when the test or a later beforeEach failed
 * (vitest's onTestFinished, the hooks of one test last registered first). The getter returns the
 * test's value; read while the file is collected, or after its test ended, it throws, naming `name`.
 */
export function perTest<T>(
  name: string,
  make: () => T | Promise<T>,
  end: (value: T) => unknown,
): () => T {
  let current: { readonly value: T } | undefined;
  beforeEach(async () => {
    const value = await make();
    current = { value };
    onTestFinished(async () => {
      current = undefined;
      await end(value);
    });
  });
  return () => {
    if (current === undefined) throw new Error(`${name}: read it inside a test`);
    return current.value;
  };
}

/**
 * `onto` (default a new object) with `keys` that read the same fields of `get()` each time they are
 * read: a fixture's fields for a test to name (`library.root`), always those of the test that reads
 * them, beside what `onto` has of its own (a method, a value of the whole file).
 */
export function fieldsOf<T extends object, K extends keyof T, O extends object = object>(
  get: () => T,
  keys: readonly K[],
  onto: O = {} as O,
): O & Pick<T, K> {
  for (const key of keys) {
    Object.defineProperty(onto, key, { enumerable: true, get: () => get()[key] });
  }
  return onto as O & Pick<T, K>;
}

/**
 * A new temp folder `pictor-<name>-…` of the running test's own (made inside the test or its
 * beforeEach), removed when that test ends: after the file's own afterEach hooks, which may still
 * look into it, and after the test's later onTestFinished hooks (a core opened on it closes
 * first). Its removal is registered by the making itself, so no caller can forget it: the trash's
 * unit fixture kept its folders in one module-level list that every importing file had to empty
 * in an afterEach of its own, and a file that did not (settled-writes) left its folders in every run.
 */
export async function testFolder(name: string): Promise<string> {
  const dir = await tempFolder(name);
  onTestFinished(() => removeFolder(dir));
  return dir;
}

/**
 * A new temp folder `pictor-<name>-…` for the tests of the file (or describe block) that calls
 * this, for a fixture too slow to make for every test (images drawn, links laid out): made and
 * handed to `fill` before them (a beforeAll), removed after them, also when `fill` failed. Its
 * removal is registered by the making, as {@link testFolder}'s is: each file removed its own in an
 * afterAll of its own. The getter returns it; read before it is made or after it is removed, it
 * throws, naming `name`.
 */
export function fileFolder(
  name: string,
  fill: (folder: string) => unknown = () => undefined,
): () => string {
  let made: string | undefined;
  beforeAll(async () => {
    const folder = await tempFolder(name);
    const remove = async (): Promise<void> => {
      made = undefined;
      await removeFolder(folder);
    };
    try {
      await fill(folder);
    } catch (error) {
      await remove();
      throw error;
    }
    made = folder;
    return remove;
  });
  return () => {
    if (made === undefined) throw new Error(`${name}: read it while the file's tests run`);
    return made;
  };
}
