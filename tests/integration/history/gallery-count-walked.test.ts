/**
 * The gallery's count of the order the history worker walked for its positions (library-reads.ts,
 * position-prebuild.ts): once main holds every anchor of the order, the count is the walk's own
 * (its anchors and the rows after the last one), so opening the gallery asks the worker for no
 * second walk of the library; the models are read right after that walk, and the gallery's ask
 * joins them. Counted work: the worker's calls by operation, on its real thread
 * and the same SQLite file. The count is the worker's count of the same filters, and a change
 * committed since the walk has the count read again.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { HistoryPort } from '../../../electron/core/history/history-port';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { libraryReadsIn } from '../../../electron/core/history/library-reads';
import { GALLERY_FIRST_ORDER } from '../../../electron/core/history/position-prebuild';
import { anchorsOf, record } from './position-fixture';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

/** About 2.5 anchors' worth of images: the count is anchors and a tail. */
const TASKS = 5_000;
const SHOWN = [...VISIBLE_STATES];
let store: HistoryStore;
let port: HistoryPort;
const folder = tempFolderSync('history');

/** The worker's port, its calls counted by operation. */
function countingPort() {
  const calls: string[] = [];
  return {
    calls,
    port: {
      call: ((op, args) => {
        calls.push(op);
        return port.call(op, args);
      }) as HistoryPort['call'],
    },
  };
}

beforeAll(() => {
  const file = join(folder, 'history.sqlite');
  store = HistoryStore.open(file);
  store.putMany(Array.from({ length: TASKS }, (_, n) => record(n)));
  port = new HistoryPort(file);
}, 120_000);
afterAll(async () => {
  await port.dispose();
  store.close();
  removeFolderSync(folder);
});

describe('the gallery’s count after the walk of its order', { timeout: 120_000 }, () => {
  it('is the walk’s own as the app starts: no count walks the library in the worker', async () => {
    const worker = countingPort();
    const reads = libraryReadsIn(worker.port, anchorsOf(store), true);
    // Asked as the hidden gallery loads, while the first order is being walked.
    const count = await reads.count({ states: SHOWN });
    expect(count).toBe(store.countImages({ states: SHOWN }));
    expect(count).toBeGreaterThan(2 * 4096);
    expect(worker.calls).not.toContain('imageCount');
    expect(worker.calls).toContain('positionAnchors');
    expect(await reads.positions(GALLERY_FIRST_ORDER)).toBe(true);
  });

  it('has the models read once, right after the walk as the app starts; the gallery’s ask joins them', async () => {
    const worker = countingPort();
    const reads = libraryReadsIn(worker.port, anchorsOf(store), true);
    // Nobody asked: the models follow the walk of the first order in the worker.
    await vi.waitFor(() => expect(worker.calls).toContain('imageModels'), { timeout: 30_000 });
    expect(worker.calls.indexOf('imageModels')).toBe(
      worker.calls.lastIndexOf('positionAnchors') + 1,
    );
    // The hidden gallery's ask, the library unchanged: no second walk of it.
    expect(await reads.models()).toEqual(store.imageModels());
    expect(worker.calls.filter((op) => op === 'imageModels')).toHaveLength(1);
    expect(worker.calls.filter((op) => op === 'imageCount')).toEqual([]);
  });

  it('has the models walked in slices between the anchors: a count asked meanwhile is answered before they end', async () => {
    const worker = countingPort();
    // A slice per anchor's span: the walk ends in the third.
    const reads = libraryReadsIn(worker.port, anchorsOf(store), true, 1);
    // Joins the walk; the models' first slice is asked as it ends, before this goes on.
    expect(await reads.positions(GALLERY_FIRST_ORDER)).toBe(true);
    const answered: string[] = [];
    const models = reads.models().then((found) => (answered.push('models'), found));
    const count = reads
      .count({ states: SHOWN, model: 'model-b' })
      .then((n) => (answered.push('count'), n));
    expect(await count).toBe(store.countImages({ states: SHOWN, model: 'model-b' }));
    expect(await models).toEqual(store.imageModels());
    expect(answered).toEqual(['count', 'models']);
    const last = worker.calls.lastIndexOf('positionAnchors');
    expect(worker.calls.slice(last + 1)).toEqual([
      'imageModels',
      'imageCount',
      'imageModels',
      'imageModels',
    ]);
  });

  it('is the walk’s own for a filter and either order, and read again after a change', async () => {
    const worker = countingPort();
    const reads = libraryReadsIn(worker.port, anchorsOf(store));
    const filter = { states: SHOWN, model: 'model-b' };
    expect(await reads.positions({ ...filter, sort: 'oldest', limit: 60 })).toBe(true);
    expect(await reads.count(filter)).toBe(store.countImages(filter));
    expect(worker.calls.filter((op) => op === 'imageCount')).toEqual([]);
    // Another filter than the walked one: the worker counts it.
    expect(await reads.count({ states: SHOWN })).toBe(store.countImages({ states: SHOWN }));
    expect(worker.calls.filter((op) => op === 'imageCount')).toHaveLength(1);
    store.putMany([record(TASKS, 9_000_000)]);
    expect(await reads.count(filter)).toBe(store.countImages(filter));
    expect(worker.calls.filter((op) => op === 'imageCount')).toHaveLength(2);
  });
});
