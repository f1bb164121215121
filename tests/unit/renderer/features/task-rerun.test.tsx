/** "Rerun" and "Use this prompt" on completed tasks and in the viewer. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's real history and engine, one runtime for the tests that send nothing. */
const fileMain = sharedWiredMain();
/**
 * A test that sends a task has a main of its own (a task still at work would outlive the shared
 * main's emptying): the demo's tasks take a minute there, so a new one is still at work when
 * the test looks, and its main ends it at the close.
 */
const ownMain = { runtime: { demo: { durationMs: 60_000 } } };

const row = (index: number) => screen.getAllByRole('article')[index]!;
const request = { prompt: 'A heron in fog', model: 'm1', size: '640x480', quality: 'low' };

function startCompleted(options: { main?: typeof fileMain } | typeof ownMain = { main: fileMain }) {
  return startWiredApp({
    ...options,
    prepare: (main) =>
      void seedHistory(main, 1, () => ({ status: 'completed', request, images: [makeImage(0)] })),
  });
}

describe('rerun', () => {
  it('a completed row’s "Rerun" asks main for the task again once, leaving the form alone', async () => {
    const { user, main } = await startCompleted(ownMain);
    const draft = useAppStore.getState().composeDraft;
    const localId = 'seed-000000';
    await user.click(within(row(0)).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    // The page names the task only: main takes its request and its service from the record.
    expect(main.callsTo('tasks:resend')).toEqual([{ localIds: [localId], as: 'each' }]);
    expect(main.callsTo('tasks:submit')).toEqual([]);
    // The new task is main's: the same request, at work on the demo.
    const [made] = main.runtime.core.history.list().items;
    expect(made).toMatchObject({
      request,
      status: expect.stringMatching(/^(submitting|processing)$/),
    });
    expect(within(row(0)).getByText(/^(Sending|Processing)$/)).toBeTruthy();
    expect(useAppStore.getState().composeDraft).toEqual(draft);
  });

  it('"Rerun" in Task details and in the viewer submit the same request', async () => {
    const { user, main } = await startCompleted(ownMain);
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    await user.click(within(details).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(main.callsTo('tasks:resend')).toHaveLength(1));

    await user.click(within(details).getByRole('button', { name: 'Open image 1 of 1' }));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(main.callsTo('tasks:resend')).toHaveLength(2));
    const localId = 'seed-000000';
    expect(main.callsTo('tasks:resend')).toEqual([
      { localIds: [localId], as: 'each' },
      { localIds: [localId], as: 'each' },
    ]);
    await waitFor(() => expect(main.runtime.core.history.list().items).toHaveLength(3));
  });

  // A main of its own: it holds a Black Forest Labs key.
  it('goes to the task’s own service with its model, whatever the form has chosen since', async () => {
    let bfl = { provider: 'bfl' as const, endpoint: '' };
    const { main } = await startWiredApp({
      prepare: async (wired) => {
        // Black Forest Labs at a loopback address (the demo's: it speaks another dialect, so the
        // submit is refused there, after the record is made), with a key bound to it.
        bfl = { provider: 'bfl', endpoint: wired.runtime.demo.url };
        await wired.runtime.updateSettings({ serviceBaseUrls: { bfl: bfl.endpoint } });
        await wired.runtime.setKey('bfl-test-key-1234', true, 'bfl');
        seedHistory(wired, 1, () => ({
          status: 'submit_failed',
          ...bfl,
          request: { prompt: 'A heron', model: 'flux-pro-1.1' },
        }));
      },
    });
    await act(() => useAppStore.getState().composeChooseService('fal'));
    expect(useAppStore.getState().composeDraft.provider).toBe('fal');
    await act(async () => {
      await useAppStore.getState().tasksResend(['seed-000000'], 'each');
    });
    expect(main.callsTo('tasks:resend')).toEqual([{ localIds: ['seed-000000'], as: 'each' }]);
    const made = selectTaskItems(useAppStore.getState()).find(
      (item) => item.record.localId !== 'seed-000000',
    )!.record;
    expect(made).toMatchObject({ ...bfl, request: { prompt: 'A heron', model: 'flux-pro-1.1' } });
    expect(main.runtime.core.history.get(made.localId)).toMatchObject({
      ...bfl,
      request: { prompt: 'A heron', model: 'flux-pro-1.1' },
    });
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });

  it('says main’s refusal in the status area', async () => {
    // A task of Black Forest Labs, whose key main does not hold: main refuses to send it.
    const { main } = await startWiredApp({
      main: fileMain,
      prepare: (wired) =>
        void seedHistory(wired, 1, () => ({
          status: 'completed',
          provider: 'bfl',
          endpoint: 'https://api.bfl.ai',
          request: { prompt: 'A heron', model: 'flux-pro-1.1' },
        })),
    });
    let sent = true;
    await act(async () => {
      sent = await useAppStore.getState().tasksResend(['seed-000000'], 'each');
    });
    expect(sent).toBe(false);
    const toasts = await screen.findByRole('region', { name: 'Errors' });
    expect(within(toasts).getByRole('alert').textContent).toContain('Nothing was sent');
    expect(main.runtime.core.history.list().items).toHaveLength(1);
  });

  it('is offered only on completed tasks in the rows', async () => {
    await startWiredApp({
      main: fileMain,
      prepare: (main) =>
        void seedHistory(main, 2, (i) => ({
          status: i === 0 ? 'completed' : 'processing',
          finishedAt: i === 0 ? Date.UTC(2026, 0, 15) : null,
        })),
    });
    expect(within(row(0)).queryByRole('button', { name: 'Rerun' })).not.toBeNull();
    expect(within(row(1)).queryByRole('button', { name: 'Rerun' })).toBeNull();
  });
});

describe('use this prompt', () => {
  it('a completed row’s "Use this prompt" fills the form and focuses the prompt, without sending', async () => {
    const { user, main } = await startCompleted();
    await user.click(within(row(0)).getByRole('button', { name: 'Use this prompt' }));
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    await waitFor(() => expect(document.activeElement).toBe(prompt));
    expect(prompt).toHaveProperty('value', 'A heron in fog');
    expect(useAppStore.getState().composeDraft).toMatchObject({
      prompt: 'A heron in fog',
      model: 'm1',
      size: '640x480',
      sizeCustom: true,
      quality: 'low',
      qualityCustom: false,
    });
    expect(main.callsTo('tasks:submit')).toEqual([]);
  });
});
