/**
 * One favourite: a task's star and its images' stars are one concept, so the
 * task list's and the gallery's Favourites filters agree, and histories written before (task and
 * image stars apart) are brought to the rule when the file is opened.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import {
  isFavouriteTask,
  withFavourites,
  withTaskFavourite,
} from '../../../../shared/domain/favourites';
import { HISTORY_MIGRATIONS } from '../../../../electron/core/history/history-schema';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { historyFilePerTest, makeImage, makeRecord } from './history-fixtures';

const history = historyFilePerTest();

const twoImages = () => [makeImage(0), makeImage(1)];
/** Image `index` picked or not, as core/triage's flag writes it. */
const withImageStar = (record: TaskRecord, index: number, favourite: boolean): TaskRecord => ({
  ...record,
  images: record.images.map((image) => (image.index === index ? { ...image, favourite } : image)),
});
const favouriteTasks = (store: HistoryStore) =>
  store
    .list({ favourite: true })
    .items.map((record) => record.localId)
    .sort();
const favouriteImages = (store: HistoryStore) =>
  store
    .listImages({ favourite: true })
    .items.map((item) => `${item.localId}/${String(item.index)}`)
    .sort();

describe('the one-favourite rule', () => {
  it('starring a task stars every image; unstarring clears them all', () => {
    const record = makeRecord({ localId: 'a', images: twoImages() });
    const starred = withTaskFavourite(record, true);
    expect(starred.favourite).toBe(true);
    expect(starred.images.map((image) => image.favourite)).toEqual([true, true]);
    const cleared = withTaskFavourite(starred, false);
    expect(cleared.images.map((image) => image.favourite)).toEqual([false, false]);
    expect(isFavouriteTask(cleared)).toBe(false);
  });

  it('a task follows its images: starred with the first, unstarred with the last', () => {
    const record = makeRecord({ localId: 'a', images: twoImages() });
    const one = withImageStar(record, 1, true);
    expect(isFavouriteTask(one)).toBe(true);
    expect(isFavouriteTask(withImageStar(withImageStar(one, 0, true), 1, false))).toBe(true);
    expect(isFavouriteTask(withImageStar(one, 1, false))).toBe(false);
  });

  it('a task without images keeps its own star, which its images take when they arrive', () => {
    const running = withTaskFavourite(makeRecord({ localId: 'a', images: [] }), true);
    expect(isFavouriteTask(running)).toBe(true);
    expect(withFavourites(running)).toBe(running);
    const arrived = withFavourites({ ...running, images: twoImages() });
    expect(arrived.images.map((image) => image.favourite)).toEqual([true, true]);
  });
});

describe('the Favourites filters of the history', () => {
  it('list the same tasks: a starred image lists its task, a starred task lists its images', () => {
    const store = HistoryStore.open(':memory:');
    store.putMany([
      withTaskFavourite(
        makeRecord({ localId: 'task-star', createdAt: 3, images: twoImages() }),
        true,
      ),
      withImageStar(
        makeRecord({ localId: 'image-star', createdAt: 2, images: twoImages() }),
        1,
        true,
      ),
      makeRecord({ localId: 'none', createdAt: 1, images: twoImages() }),
    ]);
    expect(favouriteTasks(store)).toEqual(['image-star', 'task-star']);
    expect(favouriteImages(store)).toEqual(['image-star/1', 'task-star/0', 'task-star/1']);
    expect(store.count({ favourite: true })).toBe(2);
    store.close();
  });

  it('stars the images of a task starred while it ran, when they are stored', () => {
    const store = HistoryStore.open(':memory:');
    const running = withTaskFavourite(
      makeRecord({ localId: 'r', status: 'processing', images: [] }),
      true,
    );
    store.put(running);
    expect(favouriteTasks(store)).toEqual(['r']);
    // The engine adds the images with no star of their own, as it always has.
    store.put({ ...running, status: 'completed', images: twoImages() });
    expect(favouriteImages(store)).toEqual(['r/0', 'r/1']);
    expect(store.get('r')?.images.every((image) => image.favourite)).toBe(true);
    store.close();
  });
});

describe('migrating a history written with two kinds of star', () => {
  /** A version 2 file with the stars as an earlier Pictor wrote them (no rule applied). */
  function legacyFile(): void {
    const old = HistoryStore.open(history.file, { migrations: HISTORY_MIGRATIONS.slice(0, 2) });
    old.putMany([
      makeRecord({ localId: 'old-task-star', createdAt: 4, images: twoImages() }),
      makeRecord({ localId: 'old-image-star', createdAt: 3, images: twoImages() }),
      makeRecord({ localId: 'old-no-images', createdAt: 2, status: 'failed', images: [] }),
      makeRecord({ localId: 'plain', createdAt: 1, images: twoImages() }),
    ]);
    old.close();
    const db = new DatabaseSync(history.file);
    const setRecord = db.prepare(
      "UPDATE tasks SET favourite = ?, record = json_set(record, '$.favourite', json(?)) WHERE local_id = ?",
    );
    setRecord.run(1, 'true', 'old-task-star');
    setRecord.run(1, 'true', 'old-no-images');
    db.prepare(
      "UPDATE tasks SET record = json_set(record, '$.images[1].favourite', json('true')) WHERE local_id = 'old-image-star'",
    ).run();
    db.exec("UPDATE images SET favourite = 1 WHERE local_id = 'old-image-star' AND idx = 1");
    db.close();
  }

  it('shows the same favourites in both filters after the upgrade', () => {
    legacyFile();
    const before = HistoryStore.open(history.file, { migrations: HISTORY_MIGRATIONS.slice(0, 2) });
    // The bug being fixed: each filter saw only its own kind of star.
    expect(favouriteTasks(before)).toEqual(['old-no-images', 'old-task-star']);
    expect(favouriteImages(before)).toEqual(['old-image-star/1']);
    before.close();

    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(favouriteTasks(store)).toEqual(['old-image-star', 'old-no-images', 'old-task-star']);
    expect(favouriteImages(store)).toEqual([
      'old-image-star/1',
      'old-task-star/0',
      'old-task-star/1',
    ]);
    // The records say the same as the columns the filters read.
    expect(store.get('old-task-star')?.images.map((image) => image.favourite)).toEqual([
      true,
      true,
    ]);
    expect(store.get('old-image-star')?.favourite).toBe(true);
    expect(store.get('old-image-star')?.images[0]?.favourite).toBe(false);
    expect(store.get('plain')?.favourite).toBe(false);
    store.close();
  });

  it('leaves a row it cannot read as it is, and still upgrades', () => {
    legacyFile();
    const db = new DatabaseSync(history.file);
    db.exec("UPDATE tasks SET record = '{not json' WHERE local_id = 'old-task-star'");
    db.close();
    const store = HistoryStore.open(history.file);
    expect(store.schemaVersion).toBe(HISTORY_MIGRATIONS.length);
    expect(favouriteImages(store)).toEqual(['old-image-star/1']);
    store.close();
  });
});
