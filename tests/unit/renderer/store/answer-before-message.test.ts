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
import { startInterceptedApi, type InterceptedApi } from '../../../support/intercepted-api';
import { okValue } from '../../../support/ipc';

let stop: () => void = () => undefined;
let main: InterceptedApi | null = null;
afterEach(async () => {
  stop();
  await main?.close();
  main = null;
});
const state = () => useAppStore.getState();
const imageOf = (localId: string, index: number) =>
  selectTaskItems(state()).find((item) => item.record.localId === localId)?.record.images[index];

describe('a batch answer before its task message', () => {
  // Fault: main answers the Undo while its task message is held back (the interceptor holds main's
  // `tasks:updated`), so the page has only the answer.
  it('puts the restored image in the task list and opens the task viewer on it', async () => {
    main = await startInterceptedApi({ runtime: { demo: { durationMs: 100, imagesPerTask: 3 } } });
    const [task] = await main.generate(['A lighthouse at dusk']);
    const localId = task!.localId;
    (window as { pictor?: unknown }).pictor = main.api;
    stop = initStore();
    await waitFor(() => expect(state().tasksLoaded).toBe(true));
    okValue(await main.api.invoke('gallery:deleteImage', { localId, index: 1 }));
    await waitFor(() => expect(imageOf(localId, 1)?.state).toBe('deleted'));
    // The viewer shows the image after the deleted one; the delete's Undo is offered.
    state().tasksOpenViewer({ localId, index: 2 });
    useAppStore.setState({ galleryUndoable: [{ localId, index: 1 }] });
    const held = main.intercept.event['tasks:updated'].hold();

    await state().galleryUndoDelete();

    expect(imageOf(localId, 1)).toMatchObject({ state: 'saved' });
    expect(state().tasksViewer).toEqual({ localId, index: 1 });
    held.release();
  });
});
