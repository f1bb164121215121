/**
 * Main decides what the page's views show (electron/ipc/open-views.ts): for the records of a
 * `tasks:updated` batch, where each stands in the task list and the gallery the page has open,
 * found by the very queries main lists them with, over a real SQLite history: search words in
 * any order, a filter a record stops matching, a smart board gone, no view open; and the batch
 * carries it, as the contract takes it (electron/ipc/task-updates.ts).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/core/history';
import type { Emit } from '../../../electron/ipc/ipc-main-bridge';
import { OpenViews } from '../../../electron/ipc/open-views';
import { TaskUpdates } from '../../../electron/ipc/task-updates';
import { silentLogger } from '../../../electron/ports/logger';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { events, type TaskChange } from '../../../shared/ipc/contract';
import { ManualClock } from '../../fakes/manual-clock';
import { makeImage, makeTask } from '../../support/task-records';
import { TempFolders } from '../../support/temp-folders';

const dirs = new TempFolders();
afterEach(() => dirs.removeAll());

function history(): HistoryStore {
  const dir = dirs.makeSync('open-views');
  return HistoryStore.open(join(dir, 'history.sqlite'));
}

const noBoards = {
  rulesOf: (): never => {
    throw new Error('There is no smart board of that name.');
  },
};

const fox = makeTask({
  localId: 'fox',
  prompt: 'A red fox asleep in the snow',
  images: [makeImage(0), makeImage(1, { favourite: true })],
});
const harbour = makeTask({
  localId: 'harbour',
  prompt: 'A harbour at dawn',
  images: [makeImage(0)],
});

describe('where a changed record stands in the open views', () => {
  it("finds it by main's own search: every word, anywhere, in any order", () => {
    const store = history();
    store.put(fox);
    store.put(harbour);
    const views = new OpenViews({ history: store, smartBoards: noBoards });
    views.showTasks({ search: 'fox red' });
    views.showGallery({ search: 'SNOW red', states: VISIBLE_STATES });
    const found = views.membership(['fox', 'harbour']);
    expect(found.get('fox')).toEqual({ tasks: true, gallery: [0, 1] });
    expect(found.get('harbour')).toEqual({ tasks: false, gallery: [] });
  });

  it('says a record left a filtered view when it stops matching', () => {
    const store = history();
    store.put(fox);
    const views = new OpenViews({ history: store, smartBoards: noBoards });
    views.showTasks({ statuses: ['completed'] });
    views.showGallery({ model: 'demo-1', states: VISIBLE_STATES });
    expect(views.membership(['fox']).get('fox')).toEqual({ tasks: true, gallery: [0, 1] });
    store.put({
      ...fox,
      status: 'failed',
      images: [makeImage(0), makeImage(1, { state: 'deleted' })],
      updatedAt: fox.updatedAt + 1,
    });
    expect(views.membership(['fox']).get('fox')).toEqual({ tasks: false, gallery: [0] });
  });

  it('says nothing of a view not open, nor of a gallery whose smart board is gone', () => {
    const store = history();
    store.put(fox);
    const views = new OpenViews({ history: store, smartBoards: noBoards });
    expect(views.membership(['fox']).get('fox')).toEqual({});
    views.showGallery({ smart: 'Best', states: VISIBLE_STATES });
    views.showTasks({});
    expect(views.membership(['fox']).get('fox')).toEqual({ tasks: true });
    expect(views.membership([]).size).toBe(0);
  });

  it('goes with each whole record of a batch, as the contract takes it', () => {
    const store = history();
    store.put(fox);
    const views = new OpenViews({ history: store, smartBoards: noBoards });
    views.showGallery({ search: 'snow fox', states: VISIBLE_STATES });
    const clock = new ManualClock();
    const sent: TaskChange[] = [];
    const emit: Emit = (_channel, payload) => {
      sent.push(...events['tasks:updated'].parse(payload));
    };
    const updates = new TaskUpdates({ clock, emit, logger: silentLogger, views });
    updates.updated({ record: fox, live: null });
    updates.removed('harbour');
    updates.flush();
    expect(sent).toEqual([
      { change: 'task', record: fox, live: null, views: { gallery: [0, 1] } },
      { change: 'removed', localId: 'harbour' },
    ]);
  });
});
