/**
 * A triage key pressed right after the answer of a change of more than MAX_ANSWERED_TASKS tasks
 * acts on the images as that change left them: main answers such a change at its commit and its
 * tasks follow, so the page keeps the change laid over what keys read until main says it sent them
 * all (`triage:settled`, renderer/store/pending-triage.ts). 5 on the whole selection, then 5 again
 * as soon as the first is answered, takes the rating back. Over main's real handlers and history,
 * main's `tasks:updated` (and so the `triage:settled` answer that follows them) held at the
 * interceptor until both keys were sent: a main slow to send thousands of tasks.
 */
import { act, fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ratingOf } from '../../../../shared/domain/triage';
import { MAX_ANSWERED_TASKS } from '../../../../shared/ipc/triage-contract';
import { useAppStore } from '../../../../renderer/store/app-store';
import { afterEachTest } from '../../../support/after-each-test';
import { interceptWired } from '../../../support/intercepted-api';
import { startWiredApi } from '../../../support/wired-api';
import { keyOf, mountGallery, tile } from './gallery-harness';
import { seedGallery } from './gallery-wired';

const COUNT = MAX_ANSWERED_TASKS + 50;

const mains: Array<{ close(): Promise<void> }> = [];
afterEachTest(async () => {
  while (mains.length > 0) await mains.pop()?.close();
});

describe('a triage key right after a large change', () => {
  it('reads the images as the change left them: 5 then 5 sends 5 then 0', async () => {
    const main = interceptWired(await startWiredApi());
    mains.push(main);
    seedGallery(main, COUNT);
    (window as { pictor?: unknown }).pictor = main.api;
    const { user } = await mountGallery(true);
    act(() => tile(keyOf(0)).focus());
    await user.keyboard('{Control>}a{/Control}');
    const five = () => fireEvent.keyDown(tile(keyOf(0)), { code: 'Digit5', key: '5' });

    // Main slow to send the change's tasks: they, and the answer that comes after them, held.
    const tasks = main.intercept.event['tasks:updated'].hold();
    const settled = main.intercept.request['triage:settled'].hold();
    five();
    await waitFor(() => expect(useAppStore.getState().triageCanUndo).toBe(true));
    five();
    await waitFor(() => expect(main.callsTo('triage:apply')).toHaveLength(2));
    expect(main.callsTo('triage:apply').map((input) => input.change)).toEqual([
      { kind: 'rating', rating: 5 },
      { kind: 'rating', rating: 0 },
    ]);
    act(() => tasks.release());
    act(() => settled.release());
    // Both written: the last image's rating taken back in main's history.
    const last = `seed-${String(COUNT - 1).padStart(6, '0')}`;
    await waitFor(() => {
      const image = main.runtime.core.history.get(last)?.images[0];
      expect(image && ratingOf(image)).toBe(0);
    });
  }, 60_000);
});
