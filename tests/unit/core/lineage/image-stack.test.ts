/**
 * An image's stack read from a real history (SQLite in a temp folder): the original found by
 * walking parents up (a library image, or the stored file a first edit was made from), every
 * image made from it walked down oldest first, and every walk bounded: crafted parent cycles,
 * a chain deeper than the bound, a fan-out of thousands, a parent the history lost.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageInputs, InputImage } from '../../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { inputRequests } from '../../../../shared/ipc/inputs-contract';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import {
  MAX_STACK_DEPTH,
  MAX_STACK_IMAGES,
  MAX_STACK_ROWS,
  imageStack,
} from '../../../../electron/core/lineage/image-stack';
import { makeImage, makeTaskRecord } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const T0 = Date.UTC(2026, 5, 1);
const stackOutput = inputRequests['images:stack'].output;

/** A stored input named by the digest of `seed`. */
function input(seed: string): InputImage {
  const sha256 = createHash('sha256').update(seed).digest('hex');
  return { sha256, mime: 'image/png', width: 64, height: 48, bytes: 1_000 };
}

/** A task of `images` images made at `T0 + at` seconds, with `inputs` when given. */
function task(localId: string, at: number, inputs?: Partial<ImageInputs>, images = 1): TaskRecord {
  return makeTaskRecord(
    {
      localId,
      createdAt: T0 + at * 1000,
      request: {
        prompt: `prompt ${localId}`,
        model: 'demo-edit',
        ...(inputs ? { inputs: { operation: 'edit', source: input(localId), ...inputs } } : {}),
      },
      images: Array.from({ length: images }, (_, index) => makeImage(index)),
    },
    T0 + at * 1000,
  );
}

const from = (localId: string, index = 0) => ({ parent: { localId, index } });

let dir: string;
let history: HistoryStore;
beforeEach(async () => {
  dir = await tempFolder('stack');
  history = HistoryStore.open(join(dir, 'history.db'));
});
afterEach(async () => {
  history.close();
  await removeFolder(dir);
});

const ids = (localId: string, index = 0) =>
  imageStack(history, { localId, index })?.entries.map(
    (entry) => `${entry.localId}#${entry.index}`,
  );

describe('a stack', () => {
  it('is the original and every image made from it, oldest first, from any of its images', () => {
    history.putMany([
      task('root', 0, undefined, 2),
      task('edit', 10, from('root')),
      task('upscale', 20, { ...from('edit'), operation: 'upscale', factor: 4 }),
      task('fill', 15, { ...from('root', 1), operation: 'fill', mask: input('m') }),
      task('other', 5, from('elsewhere')),
      task('plain', 1),
    ]);
    const expected = ['root#0', 'edit#0', 'upscale#0'];
    for (const localId of ['root', 'upscale', 'edit']) expect(ids(localId)).toEqual(expected);
    // The root's second image has a stack of its own: what was made from it.
    expect(ids('root', 1)).toEqual(['root#1', 'fill#0']);
    expect(ids('fill')).toEqual(['root#1', 'fill#0']);
    const stack = imageStack(history, { localId: 'upscale', index: 0 })!;
    expect(stackOutput.parse(stack)).toEqual(stack);
    expect(stack.original).toEqual({ kind: 'library', localId: 'root', index: 0 });
    expect(stack.entries[0]).toMatchObject({
      operation: null,
      provider: 'pictor',
      prompt: 'prompt root',
    });
    expect(stack.entries[0]).not.toHaveProperty('parent');
    expect(stack.entries.at(-1)).toMatchObject({
      localId: 'upscale',
      operation: 'upscale',
      factor: 4,
      parent: { localId: 'edit', index: 0 },
      model: 'demo-edit',
      state: 'saved',
      createdAt: T0 + 20_000,
    });
    // An image with nothing made from it is a stack of one.
    expect(ids('plain')).toEqual(['plain#0']);
  });

  it('begins at the stored file when the first edit’s source came from a file', () => {
    const file = input('holiday.jpg');
    history.putMany([
      task('first', 0, { source: file }),
      task('second', 5, { source: file }),
      task('child', 9, from('first')),
      task('unrelated', 3, { source: input('another.png') }),
    ]);
    const stack = imageStack(history, { localId: 'child', index: 0 })!;
    expect(stack.original).toEqual({ kind: 'input', sha256: file.sha256 });
    expect(stack.entries.map((entry) => entry.localId)).toEqual(['first', 'second', 'child']);
    expect(stack.entries.every((entry) => entry.operation === 'edit')).toBe(true);
    expect(stackOutput.parse(stack)).toEqual(stack);
  });

  it('keeps a parent the history lost as its original, with its other children', () => {
    history.putMany([task('a', 1, from('gone')), task('b', 2, from('gone'))]);
    const stack = imageStack(history, { localId: 'b', index: 0 })!;
    expect(stack.original).toEqual({ kind: 'library', localId: 'gone', index: 0 });
    expect(stack.entries.map((entry) => entry.localId)).toEqual(['a', 'b']);
  });

  it('is null for an image the history does not have', () => {
    history.put(task('one', 0));
    expect(imageStack(history, { localId: 'one', index: 1 })).toBeNull();
    expect(imageStack(history, { localId: 'none', index: 0 })).toBeNull();
  });

  it('follows a parent that names an image its task lacks without failing', () => {
    history.putMany([task('one', 0), task('child', 1, from('one', 7))]);
    const stack = imageStack(history, { localId: 'child', index: 0 })!;
    expect(stack.original).toEqual({ kind: 'library', localId: 'one', index: 7 });
    expect(stack.entries.map((entry) => entry.localId)).toEqual(['child']);
  });
});

describe('a crafted history', () => {
  it('with a cycle of parents: the oldest of the cycle is the original, each image once', () => {
    history.putMany([
      task('a', 3, from('c')),
      task('b', 1, from('a')),
      task('c', 2, from('b')),
      task('d', 4, from('b')),
      task('self', 0, from('self')),
    ]);
    for (const start of ['a', 'b', 'c', 'd']) {
      const stack = imageStack(history, { localId: start, index: 0 })!;
      expect(stack.original).toEqual({ kind: 'library', localId: 'b', index: 0 });
      expect(stack.entries.map((entry) => entry.localId)).toEqual(['b', 'c', 'a', 'd']);
      expect(stack.entries[0]!.operation).toBeNull();
    }
    expect(imageStack(history, { localId: 'self', index: 0 })!.entries).toHaveLength(1);
  });

  it('with a chain deeper than the bound: the walk up stops there', () => {
    const depth = MAX_STACK_DEPTH + 200;
    history.putMany(
      Array.from({ length: depth }, (_, n) =>
        task(`n${n}`, n, n === 0 ? undefined : from(`n${n - 1}`)),
      ),
    );
    const get = vi.spyOn(history, 'get');
    const stack = imageStack(history, { localId: `n${depth - 1}`, index: 0 })!;
    expect(get.mock.calls.length).toBeLessThanOrEqual(MAX_STACK_DEPTH + 1);
    // From n1199, a thousand parents up is n199.
    expect(stack.original).toEqual({ kind: 'library', localId: 'n199', index: 0 });
    expect(stack.entries).toHaveLength(MAX_STACK_IMAGES);
    expect(stackOutput.safeParse(stack).success).toBe(true);
  });

  it('with a huge fan-out: the stack holds the bound, and reads no more rows than its bound', () => {
    const fan = 5_000;
    history.putMany([
      task('hub', 0),
      ...Array.from({ length: fan }, (_, n) =>
        task(`k${String(n).padStart(5, '0')}`, 1 + n, from('hub')),
      ),
    ]);
    const children = vi.spyOn(history.lineage, 'childrenOf');
    const stack = imageStack(history, { localId: 'k04999', index: 0 })!;
    expect(stack.original).toEqual({ kind: 'library', localId: 'hub', index: 0 });
    expect(stack.entries).toHaveLength(MAX_STACK_IMAGES);
    // The oldest children are the ones kept, in order.
    expect(stack.entries[1]!.localId).toBe('k00000');
    expect(stack.entries.at(-1)!.localId).toBe('k00998');
    const read = children.mock.results.reduce(
      (sum, result) => sum + (result.value as unknown[]).length,
      0,
    );
    expect(read).toBeLessThanOrEqual(MAX_STACK_ROWS);
    expect(stackOutput.safeParse(stack).success).toBe(true);
  });

  it('with thousands of imageless children: the rows read stay bounded', () => {
    history.putMany([
      task('hub', 0),
      ...Array.from({ length: 20 }, (_, n) => task(`c${n}`, 1 + n, from('hub'))),
      ...Array.from({ length: 20 * 500 }, (_, n) => task(`e${n}`, 100 + n, from(`c${n % 20}`), 0)),
    ]);
    const children = vi.spyOn(history.lineage, 'childrenOf');
    const stack = imageStack(history, { localId: 'hub', index: 0 })!;
    expect(stack.entries).toHaveLength(21);
    const read = children.mock.results.reduce(
      (sum, result) => sum + (result.value as unknown[]).length,
      0,
    );
    // Unbounded, the walk would read 10,020 rows.
    expect(read).toBe(MAX_STACK_ROWS);
  });
});

describe('the history’s lineage index', () => {
  it('is used for children and file sources (no scan of the tasks)', () => {
    const db = (
      history as unknown as {
        connection: { all(sql: string, p: unknown[]): Array<Record<string, unknown>> };
      }
    ).connection;
    const plan = (sql: string) =>
      db
        .all(`EXPLAIN QUERY PLAN ${sql}`, [])
        .map((row) => String(row['detail']))
        .join('\n');
    expect(
      plan(
        "SELECT record FROM tasks WHERE parent_id = 'x' AND parent_index = 0 ORDER BY created_at, local_id LIMIT 5",
      ),
    ).toMatch(/USING INDEX tasks_parent/);
    expect(
      plan(
        "SELECT record FROM tasks WHERE input_source = 'x' ORDER BY created_at, local_id LIMIT 5",
      ),
    ).toMatch(/USING INDEX tasks_input_source/);
  });

  it('follows a record’s change of inputs (the columns are kept by every write)', () => {
    history.putMany([task('p', 0), task('q', 1), task('c', 2, from('p'))]);
    expect(ids('p')).toEqual(['p#0', 'c#0']);
    history.put(task('c', 2, from('q')));
    expect(ids('p')).toEqual(['p#0']);
    expect(ids('q')).toEqual(['q#0', 'c#0']);
    history.delete('c');
    expect(ids('q')).toEqual(['q#0']);
  });

  it('is filled from the records of a history written before it (the upgrade)', () => {
    history.close();
    const file = join(dir, 'older.db');
    const older = HistoryStore.open(file, { migrations: HISTORY_MIGRATIONS.slice(0, -1) });
    const file1 = input('file');
    older.putMany([
      task('p', 0),
      task('c', 1, from('p')),
      task('f', 2, { source: file1 }),
      task('g', 3, from('f')),
    ]);
    older.close();
    history = HistoryStore.open(file);
    expect(history.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(ids('p')).toEqual(['p#0', 'c#0']);
    expect(imageStack(history, { localId: 'g', index: 0 })).toMatchObject({
      original: { kind: 'input', sha256: file1.sha256 },
      entries: [{ localId: 'f' }, { localId: 'g' }],
    });
  });
});
