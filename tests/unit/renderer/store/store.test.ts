import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../renderer/lib/api';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import type { TaskChange } from '../../../../shared/ipc/contract';
import { interceptWired, type InterceptedApi } from '../../../support/intercepted-api';
import { makeTask } from '../../../support/task-records';
import { startWiredApi, type WiredApi } from '../../../support/wired-api';
import { seedHistory } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';
import { ownAddress } from '../../../support/own-address';

let main: InterceptedApi;
let stop: () => void = () => undefined;
const state = () => useAppStore.getState();
const shared = sharedWiredMain();

/** Until the store has its first page and the settings. */
const loaded = () =>
  waitFor(() => expect(state().tasksLoaded && state().settings !== null).toBe(true));

/**
 * The store over the real main (tests/support/wired-api.ts): the file's shared one, or `own` (a
 * main of the test's own, for a test that changes settings or keys); `prepare` runs before the
 * store starts. The page's side goes through the contract's interceptor
 * (tests/support/intercepted-api.ts), for the faults main cannot be made to produce.
 */
async function startWired(
  prepare: (wired: InterceptedApi) => void = () => undefined,
  own?: WiredApi,
): Promise<void> {
  main = interceptWired(own ?? (await shared()));
  prepare(main);
  (window as { pictor?: unknown }).pictor = main.api;
  stop = initStore();
  await loaded();
}

/** Injects `changes` as main's `tasks:updated` and waits until the page's listeners have had it. */
async function injectTaskChanges(changes: TaskChange[]): Promise<void> {
  let off = (): void => undefined;
  const delivered = new Promise<void>((resolve) => {
    off = main.api.on('tasks:updated', () => resolve());
  });
  main.intercept.event['tasks:updated'].inject(changes);
  await delivered;
  off();
}

/** A main of the test's own, closed after it. */
let owned: WiredApi | null = null;
async function ownMain(): Promise<WiredApi> {
  owned = await startWiredApi();
  return owned;
}

afterEach(async () => {
  stop();
  stop = () => undefined;
  await owned?.close();
  owned = null;
});

describe('compose slice', () => {
  it('starts from the settings defaults and follows them while the field is untouched', async () => {
    await startWired(undefined, await ownMain());
    // Main's settings change (as another window's or the command line's would): the page hears it.
    const defaults = { defaultSize: '1536x1024', defaultQuality: 'ultra', defaultCount: 4 };
    main.runtime.settings.update({ ...defaults, defaultModel: 'm2' });
    await waitFor(() =>
      expect(state().composeDraft).toMatchObject({
        model: 'm2',
        size: '1536x1024',
        sizeCustom: false,
        quality: 'ultra',
        qualityCustom: true,
        count: '4',
      }),
    );
    state().composeSetDraft({ model: 'mine' });
    main.runtime.settings.update({ defaultModel: 'm3' });
    await waitFor(() => expect(state().settings?.defaultModel).toBe('m3'));
    expect(state().composeDraft.model).toBe('mine');
  });

  it('reusePrompt fills the form with an earlier request', async () => {
    await startWired();
    state().reusePrompt({ prompt: 'again', model: 'x', size: '640x480', quality: 'low' });
    expect(state().composeDraft).toMatchObject({
      prompt: 'again',
      model: 'x',
      size: '640x480',
      sizeCustom: true,
      quality: 'low',
      qualityCustom: false,
    });
  });

  it('refuses an invalid draft without a request and names the field', async () => {
    await startWired();
    const outcome = await state().composeSubmit();
    expect(outcome).toEqual({ ok: false, field: 'prompt' });
    expect(state().composeAttempted).toBe(true);
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });

  it('submits count tasks in one request and inserts them at once', async () => {
    // A main of its own: the demo's tasks end after the test, whatever it waited for.
    await startWired(undefined, await ownMain());
    state().composeSetDraft({ prompt: ' a fox ', count: '3', size: '800 x 600', sizeCustom: true });
    const outcome = await state().composeSubmit();
    expect(outcome.ok).toBe(true);
    expect(main.callsTo('tasks:submit')).toEqual([
      {
        request: { prompt: 'a fox', size: '800x600', quality: 'auto' },
        target: { provider: 'pictor', endpoint: 'demo:' },
        count: 3,
      },
    ]);
    expect(selectTaskItems(state())).toHaveLength(3);
    expect(state().tasksTotal).toBe(3);
    expect(state().composeDraft.prompt).toBe('');
  });

  // Fault: tasks:submit refused with a made-up reason.
  it('keeps the prompt and the reason when the submit is refused', async () => {
    await startWired();
    main.intercept.request['tasks:submit'].fail(
      { code: 'failed', message: 'No API key is set. Add one in Settings, then try again.' },
      1,
    );
    state().composeSetDraft({ prompt: 'a fox' });
    const outcome = await state().composeSubmit();
    expect(outcome.ok).toBe(false);
    expect(state().composeSubmitError?.message).toBe(
      'No API key is set. Add one in Settings, then try again.',
    );
    expect(state().composeDraft.prompt).toBe('a fox');
    expect(state().composePending).toBe(0);
  });
});

describe('tasks slice and events', () => {
  it('loads a small first page, then its count, and the next pages on demand', async () => {
    await startWired((wired) => void seedHistory(wired, 250));
    expect(selectTaskItems(state())).toHaveLength(30);
    await waitFor(() => expect(state().tasksCounted).toBe(true));
    expect(state().tasksTotal).toBe(250);
    expect(main.callsTo('tasks:count')).toEqual([{}]);
    await state().tasksLoadUntil(180);
    expect(selectTaskItems(state()).length).toBeGreaterThan(180);
    // Each page continues where the one before it ended, without a gap or a repeat.
    const ids = selectTaskItems(state()).map((item) => item.record.localId);
    expect(ids).toEqual(ids.map((_, n) => `seed-${String(n).padStart(6, '0')}`));
    const [first, next] = main.callsTo('tasks:list');
    expect(first).toMatchObject({ limit: 30, cursor: null });
    expect(next?.cursor).toEqual(expect.any(String));
    await state().tasksLoadUntil(249);
    expect(selectTaskItems(state())).toHaveLength(250);
    expect(selectTaskItems(state()).at(-1)!.record.localId).toBe('seed-000249');
    expect(state().tasksNextCursor).toBeNull();
  });

  // Fault: tasks:count held back until the filter changed.
  it('shows the rows before the count, and drops a count of an old filter', async () => {
    // More favourites than a first page: the favourites' total is the count's, not the rows'.
    main = interceptWired(await shared());
    seedHistory(main, 200, (i) => ({ favourite: i % 4 === 0 }));
    const counts = main.intercept.request['tasks:count'].hold();
    (window as { pictor?: unknown }).pictor = main.api;
    stop = initStore();
    await waitFor(() => expect(state().tasksLoaded).toBe(true));
    // Before the count: the loaded rows and one placeholder for the rest; no count shown.
    expect(selectTaskItems(state())).toHaveLength(30);
    expect(state().tasksTotal).toBe(31);
    expect(state().tasksCounted).toBe(false);
    state().tasksSetFavouriteOnly(true);
    await waitFor(() => expect(counts.waiting).toBe(2));
    await counts.pass(1);
    await waitFor(() => expect(state().tasksCounted).toBe(true));
    expect(state().tasksTotal).toBe(50);
    // The first filter's count (main's 200) arrives late and is dropped: the page's own
    // continuation runs in the turn after the answer is handed back.
    await counts.pass(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state().tasksTotal).toBe(50);
    expect(main.intercept.request['tasks:count'].inputs).toEqual([{}, { favourite: true }]);
  });

  it('subscribes to each event once and applies task updates in place', async () => {
    let subscriptions: string[] = [];
    // A main of its own: the demo's task ends after the test, whatever it waited for.
    const own = await ownMain();
    await startWired((wired) => {
      seedHistory(wired, 2);
      const on = wired.api.on;
      subscriptions = [];
      vi.spyOn(wired.api, 'on').mockImplementation((channel, listener) => {
        subscriptions.push(channel);
        return on(channel, listener);
      });
    }, own);
    vi.mocked(main.api.on).mockRestore();
    expect(subscriptions.filter((channel) => channel === 'tasks:updated')).toHaveLength(1);
    expect(new Set(subscriptions).size).toBe(subscriptions.length);
    // A task the demo runs: the engine's updates replace its row, at the top, once.
    state().composeSetDraft({ prompt: 'a fox' });
    expect((await state().composeSubmit()).ok).toBe(true);
    const localId = selectTaskItems(state())[0]!.record.localId;
    await waitFor(() => expect(selectTaskItems(state())[0]!.record.status).toBe('completed'));
    expect(selectTaskItems(state())[0]!.record.localId).toBe(localId);
    expect(selectTaskItems(state())[0]!.record.images.length).toBeGreaterThan(0);
    expect(selectTaskItems(state()).map((entry) => entry.record.localId)).toEqual([
      localId,
      'seed-000000',
      'seed-000001',
    ]);
    expect(await state().tasksRemove('seed-000000')).toBe(true);
    await waitFor(() =>
      expect(selectTaskItems(state()).map((entry) => entry.record.localId)).toEqual([
        localId,
        'seed-000001',
      ]),
    );
    expect(state().tasksTotal).toBe(2);
    expect(main.runtime.core.history.get('seed-000000')).toBeUndefined();
  });

  // Fault: the task's update reaches the page before the answer that inserts it (injected
  // through the contract's interceptor).
  it('a task created elsewhere (an event before any answer) appears at the top once', async () => {
    await startWired((wired) => void seedHistory(wired, 2));
    const record = makeTask({ localId: 'new-x', createdAt: Date.UTC(2027, 0, 1) });
    main.runtime.core.history.putMany([record]);
    const processing = {
      ...record,
      status: 'processing' as const,
      updatedAt: record.updatedAt + 1,
    };
    await injectTaskChanges([{ change: 'task', record: processing, live: null }]);
    state().tasksInsert([{ record, live: null }]);
    expect(selectTaskItems(state())[0]!.record).toMatchObject({
      localId: 'new-x',
      status: 'processing',
    });
    expect(state().tasksTotal).toBe(3);
  });

  it('filter changes reload with the query and drop late pages of the old filter', async () => {
    await startWired((wired) => void seedHistory(wired, 20, (i) => ({ favourite: i % 2 === 0 })));
    state().tasksSetFavouriteOnly(true);
    state().tasksToggleGroup('completed');
    await waitFor(() => expect(state().tasksTotal).toBe(10));
    expect(main.callsTo('tasks:list').at(-1)).toMatchObject({
      favourite: true,
      statuses: ['completed'],
    });
    expect(selectTaskItems(state()).every((item) => item.record.favourite)).toBe(true);
    state().tasksClearFilters();
    await waitFor(() => expect(state().tasksTotal).toBe(20));
  });

  // Fault: tasks:resume refused with a sentence and a detail.
  it('row actions report failures as toasts with the sentence and detail', async () => {
    await startWired((wired) => void seedHistory(wired, 1));
    main.intercept.request['tasks:resume'].fail({
      code: 'failed',
      message: 'This task is no longer in the history.',
      detail: 'not found',
    });
    expect(await state().tasksResume('seed-000000')).toBe(false);
    expect(state().statusEntries.map((entry) => ({ ...entry, text: wordsOf(entry.text) }))).toEqual(
      [
        expect.objectContaining({
          kind: 'error',
          text: 'This task is no longer in the history.',
          detail: 'not found',
        }),
      ],
    );
  });

  it('a row action on a task gone from the history says so in a toast', async () => {
    await startWired((wired) => void seedHistory(wired, 1));
    // The task left the history behind the page's back (another window, the command line).
    main.runtime.core.history.delete('seed-000000');
    expect(await state().tasksResume('seed-000000')).toBe(false);
    expect(state().statusEntries.map((entry) => ({ ...entry, text: wordsOf(entry.text) }))).toEqual(
      [expect.objectContaining({ kind: 'error', text: 'That task is not in the history.' })],
    );
  });

  it('network, demo and key events reach the ui', async () => {
    await startWired(undefined, await ownMain());
    expect(state().demo).toBe(true);
    main.send('network:changed', { online: false });
    await waitFor(() => expect(state().offline).toBe(true));
    // A key stored and an address set in main (as the command line would): the demo ends.
    main.runtime.settings.update(ownAddress('https://api.example.com'));
    const status = await main.runtime.vault.setKey('sk-secret-value-123', {
      allowWeakStorage: false,
      baseUrl: 'https://api.example.com',
    });
    await waitFor(() => expect(state().demo).toBe(false));
    expect(status.fingerprint).toBeTruthy();
    await waitFor(() => expect(state().serviceKeys?.pictor?.fingerprint).toBe(status.fingerprint));
  });

  it('menu commands switch screens and ask for focus', async () => {
    await startWired();
    main.send('menu:command', { command: 'open-settings' });
    await waitFor(() => expect(state().view).toBe('settings'));
    main.send('menu:command', { command: 'focus-search' });
    await waitFor(() => expect(state().focusRequest?.target).toBe('search'));
    expect(state().view).toBe('tasks');
    main.send('menu:command', { command: 'show-gallery' });
    await waitFor(() => expect(state().view).toBe('gallery'));
    main.send('menu:command', { command: 'new-prompt' });
    await waitFor(() =>
      expect(state()).toMatchObject({ view: 'tasks', focusRequest: { target: 'prompt' } }),
    );
  });
});

describe('ui slice', () => {
  it('shows the demo banner again when the app goes back to the demo', () => {
    state().uiSetDemo(true);
    state().dismissDemoBanner();
    state().uiSetDemo(true);
    expect(state().demoBannerDismissed).toBe(true);
    state().uiSetDemo(false);
    state().uiSetDemo(true);
    expect(state().demoBannerDismissed).toBe(false);
  });

  it('keeps a few errors, newest last, without repeating the same sentence', () => {
    for (const message of ['One.', 'Two.', 'Two.', 'Three.', 'Four.', 'Five.'])
      state().showError(new ApiError('failed', message));
    const words = () => state().statusEntries.map((entry) => wordsOf(entry.text));
    expect(words()).toEqual(['Two.', 'Three.', 'Four.', 'Five.']);
    state().dismissStatus(state().statusEntries[0]!.id);
    expect(words()).toEqual(['Three.', 'Four.', 'Five.']);
  });

  it('a confirmation does not queue: what comes after it takes its place for good', () => {
    state().showError(new ApiError('failed', 'Broken.'));
    state().confirm('Saved.');
    state().confirm(() => 'Copied.');
    expect(state().statusEntries.map((entry) => wordsOf(entry.text))).toEqual([
      'Broken.',
      'Copied.',
    ]);
    state().showError(new ApiError('failed', 'Also broken.'));
    expect(state().statusEntries.map((entry) => wordsOf(entry.text))).toEqual([
      'Broken.',
      'Also broken.',
    ]);
  });

  it('a focus request is consumed once', () => {
    state().requestFocus('key:pictor');
    const seq = state().focusRequest!.seq;
    state().consumeFocusRequest(seq + 1);
    expect(state().focusRequest).not.toBeNull();
    state().consumeFocusRequest(seq);
    expect(state().focusRequest).toBeNull();
  });
});
