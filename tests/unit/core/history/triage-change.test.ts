/**
 * The one comparison of "triage alone changed" (history/triage-change.ts) and the two uses the
 * history makes of it: an edit of triage alone is written as such (the triage columns and the
 * record, never the image rows again), an edit of anything else is written whole, and either way
 * the stored record and its rows say the same.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteConnection } from '../../../../electron/core/history/sqlite-connection';
import { imagesOnly } from '../../../../electron/core/history/triage-change';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeTask } from '../../../support/task-records';
import { historyStorePerTest } from './history-fixtures';

const onlyTriageChanged = (stored: TaskRecord, next: TaskRecord): boolean =>
  imagesOnly(stored, next)?.triageOnly === true;

const task = (): TaskRecord =>
  makeTask({ localId: 'a', prompt: 'a lighthouse', images: [makeImage(0), makeImage(1)] });

describe('whether triage alone changed', () => {
  it('is true of a rating, a flag, a star, tags, boards and the time, also on an equal copy', () => {
    const stored = task();
    const [first, second] = stored.images as [TaskRecord['images'][0], TaskRecord['images'][0]];
    const triaged: TaskRecord = {
      ...stored,
      updatedAt: stored.updatedAt + 1,
      favourite: true,
      images: [
        { ...first, rating: 4, flag: 'reject', tags: ['a'], boards: ['B'], triagedAt: 9 },
        { ...second, favourite: true },
      ],
    };
    expect(onlyTriageChanged(stored, triaged)).toBe(true);
    expect(onlyTriageChanged(stored, stored)).toBe(true);
    // The same values in new objects (a record read again) are no change.
    expect(onlyTriageChanged(stored, structuredClone(triaged))).toBe(true);
  });

  it('is false of anything else, of the task or of an image', () => {
    const stored = task();
    const [first] = stored.images as [TaskRecord['images'][0]];
    const changed: TaskRecord[] = [
      { ...stored, request: { ...stored.request, prompt: 'a harbour' } },
      { ...stored, status: 'failed' },
      { ...stored, images: [first] },
      { ...stored, images: [{ ...first, state: 'deleted' }, stored.images[1]!] },
      { ...stored, images: [{ ...first, error: 'gone' }, stored.images[1]!] },
      { ...stored, images: [{ ...first, file: 'other/0.png' }, stored.images[1]!] },
    ];
    expect(changed.map((next) => onlyTriageChanged(stored, next))).toEqual(
      changed.map(() => false),
    );
  });
});

describe('an edit through the history', () => {
  const history = historyStorePerTest();

  beforeEach(() => {
    history.store.put(task());
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The statements `edit` ran that rewrite the task's image rows. */
  function imageRowWrites(edit: () => void): string[] {
    const run = vi.spyOn(SqliteConnection.prototype, 'run');
    edit();
    const sql = run.mock.calls.map(([statement]) => statement);
    run.mockRestore();
    return sql.filter((statement) => /^(DELETE FROM images|INSERT INTO images)/.test(statement));
  }

  it('of triage alone writes the triage columns, not the image rows', () => {
    const writes = imageRowWrites(() =>
      history.store.editMany(['a'], (stored) => ({
        ...stored,
        updatedAt: stored.updatedAt + 1,
        images: stored.images.map((image, n) => (n === 0 ? { ...image, rating: 5 } : image)),
      })),
    );
    expect(writes).toEqual([]);
    expect(history.store.get('a')!.images[0]!.rating).toBe(5);
    expect(history.store.listImages({ rating: { op: '>=', value: 5 } }).items).toHaveLength(1);
  });

  it('of anything else writes the record whole, its rows with it', () => {
    const writes = imageRowWrites(() =>
      history.store.editMany(['a'], (stored) => ({
        ...stored,
        request: { ...stored.request, prompt: 'a harbour' },
        updatedAt: stored.updatedAt + 1,
        images: stored.images.map((image, n) => (n === 0 ? { ...image, rating: 3 } : image)),
      })),
    );
    expect(writes[0]).toMatch(/^INSERT INTO images/);
    expect(history.store.get('a')!.images[0]!.rating).toBe(3);
    expect(history.store.count({ search: 'harbour' })).toBe(1);
    expect(history.store.listImages({ rating: { op: '>=', value: 3 } }).items).toHaveLength(1);
  });

  it.each([
    ['moved to the trash', { state: 'deleted' as const }],
    ['given another file', { file: 'other/0.png' }],
    ['given an error', { error: 'gone' }],
  ])('of an image %s, the task otherwise as it was, writes its rows too', (_, change) => {
    const writes = imageRowWrites(() =>
      history.store.editMany(['a'], (stored) => ({
        ...stored,
        updatedAt: stored.updatedAt + 1,
        images: stored.images.map((image, n) => (n === 0 ? { ...image, ...change } : image)),
      })),
    );
    expect(writes[0]).toMatch(/^INSERT INTO images/);
    expect(history.store.get('a')!.images[0]).toMatchObject(change);
    const saved = history.store.listImages({ states: ['saved'] }).items.map((item) => item.index);
    expect(saved).toEqual('state' in change ? [1] : [0, 1]);
  });
});
