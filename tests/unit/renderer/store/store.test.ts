import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../../shared/domain/settings';
import { ApiError } from '../../../../renderer/lib/api';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { initStore, useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { installFakeApi } from '../../../fakes/fake-pictor-api';
import { makeTask } from '../../../support/task-records';

let fake: FakePictorApi;
let stop: () => void = () => undefined;
const state = () => useAppStore.getState();

async function start(prepare: (api: FakePictorApi) => void = () => undefined): Promise<void> {
  fake = installFakeApi();
  prepare(fake);
  stop = initStore();
  await waitFor(() => expect(state().tasksLoaded && state().settings !== null).toBe(true));
}

afterEach(() => stop());

describe('compose slice', () => {
  beforeEach(() => start());

  it('starts from the settings defaults and follows them while the field is untouched', () => {
    fake.emit('settings:changed', {
      ...DEFAULT_SETTINGS,
      defaultModel: 'm2',
      defaultSize: '1536x1024',
      defaultQuality: 'ultra',
      defaultCount: 4,
    });
    expect(state().composeDraft).toMatchObject({
      model: 'm2',
      size: '1536x1024',
      sizeCustom: false,
      quality: 'ultra',
      qualityCustom: true,
      count: '4',
    });
    state().composeSetDraft({ model: 'mine' });
    fake.emit('settings:changed', {
      ...DEFAULT_SETTINGS,
      defaultModel: 'm3',
      defaultSize: '1536x1024',
      defaultQuality: 'ultra',
      defaultCount: 4,
    });
    expect(state().composeDraft.model).toBe('mine');
  });

  it('reusePrompt fills the form with an earlier request', () => {
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
    const outcome = await state().composeSubmit();
    expect(outcome).toEqual({ ok: false, field: 'prompt' });
    expect(state().composeAttempted).toBe(true);
    expect(fake.callsTo('tasks:submit')).toEqual([]);
  });

  it('submits count tasks in one request and inserts them at once', async () => {
    state().composeSetDraft({ prompt: ' a fox ', count: '3', size: '800 x 600', sizeCustom: true });
    const outcome = await state().composeSubmit();
    expect(outcome.ok).toBe(true);
    expect(fake.callsTo('tasks:submit')).toEqual([
      {
        request: { prompt: 'a fox', size: '800x600', quality: 'auto' },
        target: { provider: 'pictor', endpoint: 'demo:' },
        count: 3,
      },
    ]);
    expect(state().tasksItems).toHaveLength(3);
    expect(state().tasksTotal).toBe(3);
    expect(state().composeDraft.prompt).toBe('');
  });

  // Fault: tasks:submit refused with a made-up reason.
  it('keeps the prompt and the reason when the submit is refused', async () => {
    fake.fail(
      'tasks:submit',
      { message: 'No API key is set. Add one in Settings, then try again.' },
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
    await start((api) => api.seedTasks(250));
    expect(state().tasksItems).toHaveLength(30);
    await waitFor(() => expect(state().tasksCounted).toBe(true));
    expect(state().tasksTotal).toBe(250);
    expect(fake.callsTo('tasks:count')).toEqual([{}]);
    await state().tasksLoadUntil(180);
    expect(state().tasksItems.length).toBeGreaterThan(180);
    expect(fake.callsTo('tasks:list').at(-1)!.cursor).toBe('seed-000029');
    await state().tasksLoadUntil(249);
    expect(state().tasksItems).toHaveLength(250);
    expect(state().tasksNextCursor).toBeNull();
  });

  // Fault: tasks:count held back until the filter changed.
  it('shows the rows before the count, and drops a count of an old filter', async () => {
    fake = installFakeApi();
    fake.seedTasks(100, (i) => ({ favourite: i % 4 === 0 }));
    const gates: (() => void)[] = [];
    fake.handle('tasks:count', async (input) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return { total: input.favourite ? 25 : 100 };
    });
    stop = initStore();
    await waitFor(() => expect(state().tasksLoaded).toBe(true));
    // Before the count: the loaded rows and one placeholder for the rest; no count shown.
    expect(state().tasksItems).toHaveLength(30);
    expect(state().tasksTotal).toBe(31);
    expect(state().tasksCounted).toBe(false);
    state().tasksSetFavouriteOnly(true);
    await waitFor(() => expect(gates).toHaveLength(2));
    gates[1]!();
    await waitFor(() => expect(state().tasksCounted).toBe(true));
    expect(state().tasksTotal).toBe(25);
    // The first filter's count arrives late and is dropped.
    gates[0]!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(state().tasksTotal).toBe(25);
  });

  it('subscribes to each event once and applies task updates in place', async () => {
    await start((api) => api.seedTasks(3, () => ({ status: 'processing', finishedAt: null })));
    expect(fake.listenerCount('tasks:updated')).toBe(1);
    fake.updateTask('seed-000001', { status: 'completed' });
    expect(state().tasksItems[1]!.record.status).toBe('completed');
    fake.emit('tasks:updated', [{ change: 'removed', localId: 'seed-000000' }]);
    expect(state().tasksItems.map((entry) => entry.record.localId)).toEqual([
      'seed-000001',
      'seed-000002',
    ]);
    expect(state().tasksTotal).toBe(2);
  });

  // Fault: the task's update reaches the page before the answer that inserts it.
  it('a task created elsewhere (an event before any answer) appears at the top once', async () => {
    await start((api) => api.seedTasks(2));
    const record = makeTask({ localId: 'new-x', createdAt: Date.UTC(2027, 0, 1) });
    fake.addTasks([record]);
    fake.updateTask('new-x', { status: 'processing' });
    state().tasksInsert([{ record, live: null }]);
    expect(state().tasksItems[0]!.record).toMatchObject({ localId: 'new-x', status: 'processing' });
    expect(state().tasksTotal).toBe(3);
  });

  it('filter changes reload with the query and drop late pages of the old filter', async () => {
    await start((api) => api.seedTasks(20, (i) => ({ favourite: i % 2 === 0 })));
    state().tasksSetFavouriteOnly(true);
    state().tasksToggleGroup('completed');
    await waitFor(() => expect(state().tasksTotal).toBe(10));
    expect(fake.callsTo('tasks:list').at(-1)).toMatchObject({
      favourite: true,
      statuses: ['completed'],
    });
    state().tasksClearFilters();
    await waitFor(() => expect(state().tasksTotal).toBe(20));
  });

  // Fault: tasks:resume refused with a sentence and a detail.
  it('row actions report failures as toasts with the sentence and detail', async () => {
    await start((api) => api.seedTasks(1));
    fake.fail('tasks:resume', {
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

  it('network, demo and key events reach the ui', async () => {
    await start();
    expect(state().demo).toBe(true);
    fake.setOnline(false);
    expect(state().offline).toBe(true);
    fake.emit('app:demoChanged', { demo: false });
    expect(state().demo).toBe(false);
    fake.emit('key:changed', {
      state: 'ready',
      fingerprint: 'abc',
      backend: 'keychain',
      weak: false,
      message: null,
    });
    expect(state().keyStatus?.fingerprint).toBe('abc');
  });

  it('menu commands switch screens and ask for focus', async () => {
    await start();
    fake.emit('menu:command', { command: 'open-settings' });
    expect(state().view).toBe('settings');
    fake.emit('menu:command', { command: 'focus-search' });
    expect(state().view).toBe('tasks');
    expect(state().focusRequest?.target).toBe('search');
    fake.emit('menu:command', { command: 'show-gallery' });
    expect(state().view).toBe('gallery');
    fake.emit('menu:command', { command: 'new-prompt' });
    expect(state()).toMatchObject({ view: 'tasks', focusRequest: { target: 'prompt' } });
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
    state().requestFocus('key');
    const seq = state().focusRequest!.seq;
    state().consumeFocusRequest(seq + 1);
    expect(state().focusRequest).not.toBeNull();
    state().consumeFocusRequest(seq);
    expect(state().focusRequest).toBeNull();
  });
});
