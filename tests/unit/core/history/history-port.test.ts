import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { HistoryError } from '../../../../electron/core/history/history-error';
import { HistoryPort } from '../../../../electron/core/history/history-port';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import type { ImageAt } from '../../../../electron/core/history/history-worker-protocol';
import { runHistoryOp } from '../../../../electron/core/history/history-worker-ops';
import { bundledHistoryPort } from '../../../support/bundled-history-worker';
import { historyFilePerTest, makeImage, makeRecord } from './history-fixtures';
import { removeFolderSync, tempFolderSync } from '../../../support/temp-folders';

const AT = 1_800_000_000_000;

/** Tasks with 10,000 images in all, and a ref to each image. */
function library(file: string): { records: TaskRecord[]; refs: ImageAt[] } {
  const store = HistoryStore.open(file);
  // 2,500 tasks of 4 images; every 7th image starred, every 40th task too.
  const records = Array.from({ length: 2_500 }, (_, n) =>
    makeRecord({
      localId: `local-${n.toString(36).padStart(5, '0')}`,
      createdAt: 1_700_000_000_000 + n * 1_000,
      images: [0, 1, 2, 3].map((index) => makeImage(index, { favourite: (n + index) % 7 === 0 })),
      favourite: n % 40 === 0,
    }),
  );
  store.putMany(records);
  store.close();
  const refs = records.flatMap((r) => r.images.map((_, index) => ({ localId: r.localId, index })));
  return { records, refs: refs.slice(0, 10_000) };
}

/** Resolves once `test` holds, looking on a timer (main's loop turns while it waits). */
async function until(test: () => boolean): Promise<number> {
  let turns = 0;
  while (!test()) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    turns += 1;
  }
  return turns;
}

const ratingsOf = (store: HistoryStore, refs: readonly ImageAt[]) =>
  refs.map((ref) => store.get(ref.localId)?.images[ref.index]?.rating ?? 0);

// The 10,000-image library is written once for the file (minutes on a loaded machine) and each
// case gets a copy of its closed database file of its own, as the file written anew would be.
describe('HistoryPort: the history worker', { timeout: 120_000 }, () => {
  let template: string;
  let templateFile: string;
  const history = historyFilePerTest();
  let data: ReturnType<typeof library>;
  const ports: HistoryPort[] = [];
  const stores: HistoryStore[] = [];
  const open = (at = history.file) => {
    const store = HistoryStore.open(at);
    stores.push(store);
    return store;
  };
  const port = (gate?: SharedArrayBuffer) => {
    const made = new HistoryPort(history.file, {
      ...bundledHistoryPort().historyPort,
      ...(gate ? { gate } : {}),
    });
    ports.push(made);
    return made;
  };

  beforeAll(() => {
    template = tempFolderSync('history');
    templateFile = join(template, 'history.sqlite');
    data = library(templateFile);
  }, 300_000);
  afterAll(() => removeFolderSync(template));
  beforeEach(() => {
    copyFileSync(templateFile, history.file);
  });
  afterEach(async () => {
    await Promise.all(ports.splice(0).map((p) => p.dispose()));
    for (const store of stores.splice(0)) store.close();
  });

  it('commits a 10,000-image rating in the worker while main goes on', async () => {
    const gate = new SharedArrayBuffer(8);
    const cells = new Int32Array(gate);
    const main = open();
    const commit = port(gate).call('triage', {
      parts: [{ refs: data.refs, edit: { kind: 'rating', rating: 4 } }],
      at: AT,
    });
    // The worker is inside its transaction, half of it written: main's timers still fire and
    // main's own connection reads the history as it was (nothing committed yet).
    const turns = await until(() => Atomics.load(cells, 1) === 1);
    expect(turns).toBeGreaterThan(0);
    expect(ratingsOf(main, data.refs).every((rating) => rating === 0)).toBe(true);
    Atomics.store(cells, 0, 1);
    Atomics.notify(cells, 0);
    const written = await commit;
    expect(written.changed).toBe(10_000);
    expect(JSON.parse(written.step)).toHaveLength(10_000);
    expect(ratingsOf(main, data.refs).every((rating) => rating === 4)).toBe(true);
  });

  it('fails a call whose worker ended mid-write, writes none of it, and starts a new worker', async () => {
    // Cell 2 holding 1: the worker ends on the spot half-way through the write (history-worker.ts).
    const gate = new SharedArrayBuffer(12);
    const cells = new Int32Array(gate);
    Atomics.store(cells, 2, 1);
    const ported = port(gate);
    const refs = data.refs.slice(0, 1_000);
    const commit = ported.call('triage', {
      parts: [{ refs, edit: { kind: 'rating', rating: 5 } }],
      at: AT,
    });
    const failed = commit.catch((error: unknown) => error);
    await until(() => Atomics.load(cells, 1) === 1);
    Atomics.store(cells, 0, 1);
    Atomics.notify(cells, 0);
    expect(await failed).toBeInstanceOf(HistoryError);
    expect(await failed).toMatchObject({
      message: expect.stringMatching(/could not save to its history/),
      detail: 'The history worker ended (exit code 1).',
    });
    const main = open();
    expect(ratingsOf(main, refs).every((rating) => rating === 0)).toBe(true);
    const again = await ported.call('triage', {
      parts: [{ refs, edit: { kind: 'rating', rating: 5 } }],
      at: AT,
    });
    expect(again.changed).toBe(1_000);
    expect(ratingsOf(main, refs).every((rating) => rating === 5)).toBe(true);
  });

  it("throws the store's own HistoryError sentence", async () => {
    const bad = { ...data.records[0], localId: '' } as TaskRecord;
    let sync: unknown;
    try {
      open().putMany([bad]);
    } catch (error) {
      sync = error;
    }
    expect(sync).toBeInstanceOf(HistoryError);
    const fromWorker = await port()
      .call('putMany', { records: [bad] })
      .catch((error: unknown) => error);
    expect(fromWorker).toBeInstanceOf(HistoryError);
    expect((fromWorker as HistoryError).message).toBe((sync as HistoryError).message);
    expect((fromWorker as HistoryError).sentence).toEqual((sync as HistoryError).sentence);
  });

  it('warms its worker before any call: started, its store readied over the newest tasks', async () => {
    const main = open();
    const warmed = port();
    // The newest 2,000 of its 2,500 tasks (history-port.ts WARM_TASKS).
    expect(await warmed.warm()).toBe(2_000);
    expect(ratingsOf(main, data.refs).every((rating) => rating === 0)).toBe(true);
    // The warmed worker is the one the calls go to; a worker that cannot start warms nothing.
    const edit = { kind: 'rating', rating: 1 } as const;
    const written = await warmed.call('triage', { parts: [{ refs: data.refs, edit }], at: AT });
    expect(written.changed).toBe(10_000);
    const missing = new HistoryPort(history.file, {
      workerUrl: new URL('file:///nowhere/worker.js'),
    });
    ports.push(missing);
    expect(await missing.warm()).toBe(0);
  });

  it('writes what the synchronous path writes', async () => {
    const copy = join(history.dir, 'copy.sqlite');
    copyFileSync(history.file, copy);
    const refs = data.refs.slice(0, 2_000);
    const edit = { kind: 'flag', flag: 'reject' } as const;
    const main = open();
    const ids = [...new Set(refs.map((ref) => ref.localId))];
    const before = ids.map((id) => main.get(id)?.images);
    const viaWorker = await port().call('triage', { parts: [{ refs, edit }], at: AT });
    const direct = open(copy);
    const viaStore = runHistoryOp(direct, 'triage', { parts: [{ refs, edit }], at: AT });
    expect(viaWorker).toEqual(viaStore);
    expect(ids.map((id) => main.get(id))).toEqual(ids.map((id) => direct.get(id)));
    const undo = await port().call('restoreTriage', {
      step: viaWorker.step,
      side: 'before',
      at: AT + 1,
    });
    expect(undo.changed).toBe(viaWorker.changed);
    expect(ids.map((id) => main.get(id)?.images)).toEqual(before);
  });
});

describe('HistoryPort in the calling thread (the CLI: inThread)', () => {
  const history = historyFilePerTest();
  const closing: { close(): void }[] = [];
  afterEach(() => {
    for (const store of closing.splice(0)) store.close();
  });

  it('writes what the synchronous path writes, throws its HistoryError, and starts no thread', async () => {
    const file = history.file;
    const records = [0, 1].map((n) =>
      makeRecord({ localId: `local-${n}`, images: [makeImage(0), makeImage(1)] }),
    );
    const seed = HistoryStore.open(file);
    seed.putMany(records);
    seed.close();
    const copy = join(history.dir, 'copy.sqlite');
    copyFileSync(file, copy);
    // A worker started from here would find no script and fail the call.
    const missing = new URL('file:///nowhere/history-worker.js');
    const here = new HistoryPort(file, { inThread: true, workerUrl: missing });
    const refs = records.flatMap((r) =>
      r.images.map((_, index) => ({ localId: r.localId, index })),
    );
    const edit = { kind: 'rating', rating: 2 } as const;
    const written = await here.call('triage', { parts: [{ refs, edit }], at: AT });
    const direct = HistoryStore.open(copy);
    const main = HistoryStore.open(file);
    closing.push(direct, main);
    expect(written).toEqual(runHistoryOp(direct, 'triage', { parts: [{ refs, edit }], at: AT }));
    expect(ratingsOf(main, refs)).toEqual([2, 2, 2, 2]);

    const bad = { ...records[0], localId: '' } as TaskRecord;
    const sync = (() => {
      try {
        direct.putMany([bad]);
      } catch (error) {
        return error;
      }
      return null;
    })();
    const thrown = await here.call('putMany', { records: [bad] }).catch((error: unknown) => error);
    expect(sync).toBeInstanceOf(HistoryError);
    expect(thrown).toBeInstanceOf(HistoryError);
    expect((thrown as HistoryError).message).toBe((sync as HistoryError).message);
    expect((thrown as HistoryError).sentence).toEqual((sync as HistoryError).sentence);
    await here.dispose();
  });

  it('warms nothing: no thread started, no file opened', async () => {
    const file = history.file;
    const missing = new URL('file:///nowhere/history-worker.js');
    const here = new HistoryPort(file, { inThread: true, workerUrl: missing });
    expect(await here.warm()).toBe(0);
    expect(existsSync(file)).toBe(false);
    await here.dispose();
  });
});

// A core closing while a background read walks in slices (library-reads.ts: the models' walk
// after the first order's) got the next slice's call after its port's dispose: the port started
// a new worker, which opened the history again after the core had closed it (a test's folder
// removed meanwhile failed with ENOTEMPTY as the worker made the log files).
describe('a disposed HistoryPort', () => {
  const history = historyFilePerTest();

  it.each([
    ['in its worker', {}],
    ['in the calling thread', { inThread: true }],
  ])('fails every later call at once and opens nothing (%s)', async (_, mode) => {
    const file = history.file;
    const port = new HistoryPort(file, { ...bundledHistoryPort().historyPort, ...mode });
    await port.dispose();
    const calls = [port.call('imageModels', {}), port.call('taskCount', { query: {} })];
    for (const call of calls) {
      const error: unknown = await call.catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(HistoryError);
      expect((error as HistoryError).detail).toBe('The history worker was stopped.');
    }
    expect(await port.warm()).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
