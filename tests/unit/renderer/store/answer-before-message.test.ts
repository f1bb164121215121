/**
 * A batch answer (an Undo of deleted images, favourites) carries the records main changed; the
 * page applies them to every list at once, as it applies main's task messages, so what it shows
 * next does not wait for the message: in Electron an answer and an event may arrive in either
 * order. (The task viewer was asked for a restored image its task list still held deleted, and
 * closed.)
 */
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import { installFakeApi } from '../../../fakes/fake-pictor-api';
import { makeImage } from '../../../support/task-records';

let stop: () => void = () => undefined;
afterEach(() => stop());
const state = () => useAppStore.getState();

describe('a batch answer before its task message', () => {
  // Fault: main answers the Undo and never sends the task message that carries the same change.
  it('puts the restored image in the task list and opens the task viewer on it', async () => {
    const fake = installFakeApi();
    const [task] = fake.seedTasks(1, () => ({
      images: [makeImage(0), makeImage(1, { state: 'deleted' }), makeImage(2)],
    }));
    const localId = task!.localId;
    const restored = {
      ...task!,
      images: task!.images.map((image) =>
        image.index === 1 ? makeImage(1, { file: 'g/restored.png' }) : image,
      ),
    };
    fake.handle('gallery:undoDelete', () =>
      Promise.resolve({ items: [{ record: restored, live: null }], failed: 0 }),
    );
    stop = initStore();
    await waitFor(() => expect(state().tasksLoaded).toBe(true));
    // The viewer shows the image after the deleted one; the delete's Undo is offered.
    state().tasksOpenViewer({ localId, index: 2 });
    useAppStore.setState({ galleryUndoable: [{ localId, index: 1 }] });

    await state().galleryUndoDelete();

    const record = selectTaskItems(state()).find((item) => item.record.localId === localId)?.record;
    expect(record?.images[1]).toMatchObject({ state: 'saved', file: 'g/restored.png' });
    expect(state().tasksViewer).toEqual({ localId, index: 1 });
  });
});
