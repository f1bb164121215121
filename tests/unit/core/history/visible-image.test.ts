/**
 * "A visible image" has one spelling in the history's SQL (core/history/visible-image.ts, from
 * VISIBLE_STATES): a board's count in the sidebar and the gallery's model filter agree with
 * the gallery's own pages (asked with VISIBLE_STATES), and the tags the tag editor offers with their
 * counts (HistoryTriage.tags: an image in the trash offers none), for an image in every state, and for a state
 * this version does not know, as a newer Pictor may write in the same library: listed nowhere,
 * counted nowhere, its model offered nowhere.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { imageFilter } from '../../../../electron/core/history/history-query';
import { VISIBLE_IMAGE } from '../../../../electron/core/history/visible-image';
import {
  IMAGE_STATES,
  VISIBLE_STATES,
  type ImageState,
} from '../../../../shared/domain/task-record';
import { historyStorePerTest, makeImage, makeRecord } from './history-fixtures';

/** A state a later Pictor might add (this one knows no such word). */
const NEWER_STATE = 'archived';
const STATES = [...IMAGE_STATES, NEWER_STATE];

const history = historyStorePerTest();

/** The state this version writes for `state` (the newer one: saved, rewritten in the row). */
const known = (state: string): ImageState => IMAGE_STATES.find((one) => one === state) ?? 'saved';

/** One task an image state, each image in board "Moodboard" and of a model named by its state. */
function seed(): void {
  history.store.putMany(
    STATES.map((state, n) =>
      makeRecord({
        localId: `t-${state}`,
        createdAt: 1_700_000_000_000 + n,
        request: { prompt: `p ${state}`, model: `model-${state}`, size: '1024x1024' },
        // The newer state is written as a newer Pictor would: into the row, below.
        images: [
          makeImage(0, { state: known(state), boards: ['Moodboard'], tags: ['Shared', state] }),
        ],
      }),
    ),
  );
  const db = new DatabaseSync(history.file);
  try {
    db.prepare('UPDATE images SET state = ? WHERE local_id = ?').run(
      NEWER_STATE,
      `t-${NEWER_STATE}`,
    );
  } finally {
    db.close();
  }
}

describe('a visible image, one test in the history’s SQL', () => {
  it('a board counts the images the gallery lists in it, whatever their states', () => {
    seed();
    const listed = history.store.listImages({
      board: 'Moodboard',
      states: VISIBLE_STATES,
      limit: 100,
    });
    expect(listed.items.map((item) => item.image.state).sort()).toEqual([...VISIBLE_STATES].sort());
    const [board] = history.store.triage.boards();
    expect(board?.images).toBe(listed.items.length);
    expect(board?.images).toBe(
      history.store.countImages({ board: 'Moodboard', states: VISIBLE_STATES }),
    );
  });

  it('the model filter offers the models of the images the gallery lists, and no other', () => {
    seed();
    const listed = history.store.listImages({ states: VISIBLE_STATES, limit: 100 });
    const models = [...new Set(listed.items.map((item) => item.model ?? ''))].sort();
    expect(history.store.imageModels()).toEqual(models);
    expect(models).toEqual(VISIBLE_STATES.map((state) => `model-${state}`).sort());
  });

  it('the tags in use are those of the images the gallery lists, counted as it lists them', () => {
    seed();
    const listed = history.store.listImages({ states: VISIBLE_STATES, limit: 100 });
    const tagged = (key: string) =>
      listed.items.filter((item) =>
        (item.image.tags ?? []).some((tag) => tag.toLowerCase() === key),
      ).length;
    const tags = history.store.triage.tags();
    expect(tags.map((tag) => tag.key)).toEqual(['shared', ...VISIBLE_STATES].sort());
    for (const tag of tags) expect(tag.images, tag.key).toBe(tagged(tag.key));
    expect(tags.find((tag) => tag.key === 'shared')?.images).toBe(VISIBLE_STATES.length);
  });

  it('the gallery’s pages and count ask for it by that one test, whatever order the states come in', () => {
    for (const states of [
      VISIBLE_STATES,
      [...VISIBLE_STATES].reverse(),
      [...VISIBLE_STATES, 'saved'],
    ]) {
      const filter = imageFilter({ states: states as ImageState[] });
      expect(filter.where).toBe(VISIBLE_IMAGE);
      expect(filter.params).toEqual([]);
    }
    // Any other list is a list (the trash's own view asks for `deleted`).
    expect(imageFilter({ states: ['deleted'] })).toEqual({
      where: 'i.state IN (?)',
      params: ['deleted'],
    });
    expect(imageFilter({ states: ['saved', 'pending'] }).params).toEqual(['saved', 'pending']);
  });
});
