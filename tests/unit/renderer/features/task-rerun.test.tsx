/** "Rerun" and "Use this prompt" on completed tasks and in the viewer. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { startApp } from '../render-app';

const row = (index: number) => screen.getAllByRole('article')[index]!;
const request = { prompt: 'A heron in fog', model: 'm1', size: '640x480', quality: 'low' };

function startCompleted() {
  return startApp({
    prepare: (fake) =>
      fake.seedTasks(1, () => ({ status: 'completed', request, images: [makeImage(0)] })),
  });
}

describe('rerun', () => {
  it('a completed row’s "Rerun" asks main for the task again once, leaving the form alone', async () => {
    const { user, fake } = await startCompleted();
    const draft = useAppStore.getState().composeDraft;
    const localId = 'seed-000000';
    await user.click(within(row(0)).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    // The page names the task only: main takes its request and its service from the record.
    expect(fake.callsTo('tasks:submitAgain')).toEqual([{ localId }]);
    expect(fake.callsTo('tasks:submit')).toEqual([]);
    expect(within(row(0)).getByText('Sending')).toBeTruthy();
    expect(useAppStore.getState().composeDraft).toEqual(draft);
  });

  it('"Rerun" in Task details and in the viewer submit the same request', async () => {
    const { user, fake } = await startCompleted();
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    await user.click(within(details).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(fake.callsTo('tasks:submitAgain')).toHaveLength(1));

    await user.click(within(details).getByRole('button', { name: 'Open image 1 of 1' }));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(fake.callsTo('tasks:submitAgain')).toHaveLength(2));
    const localId = 'seed-000000';
    expect(fake.callsTo('tasks:submitAgain')).toEqual([{ localId }, { localId }]);
  });

  it('goes to the task’s own service with its model, whatever the form has chosen since', async () => {
    const bfl = { provider: 'bfl' as const, endpoint: 'https://api.bfl.ai' };
    const { fake } = await startApp({
      prepare: (f) =>
        f.seedTasks(1, () => ({
          status: 'submit_failed',
          ...bfl,
          request: { prompt: 'A heron', model: 'flux-pro-1.1' },
        })),
    });
    await act(() => useAppStore.getState().composeChooseService('fal'));
    expect(useAppStore.getState().composeDraft.provider).toBe('fal');
    await act(async () => {
      await useAppStore.getState().tasksRerun('seed-000000');
    });
    expect(fake.callsTo('tasks:submitAgain')).toEqual([{ localId: 'seed-000000' }]);
    const made = useAppStore
      .getState()
      .tasksItems.find((item) => item.record.localId !== 'seed-000000')!.record;
    expect(made).toMatchObject({ ...bfl, request: { prompt: 'A heron', model: 'flux-pro-1.1' } });
    expect(fake.callsTo('tasks:submit')).toEqual([]);
  });

  it('says main’s refusal in the status area', async () => {
    const { fake } = await startCompleted();
    fake.fail('tasks:submitAgain', {
      code: 'bad_input',
      message: 'Nothing was sent: Pictor has no API key it may send to api.bfl.ai.',
    });
    let sent = true;
    await act(async () => {
      sent = await useAppStore.getState().tasksRerun('seed-000000');
    });
    expect(sent).toBe(false);
    const toasts = await screen.findByRole('region', { name: 'Errors' });
    expect(within(toasts).getByRole('alert').textContent).toContain('Nothing was sent');
  });

  it('is offered only on completed tasks in the rows', async () => {
    await startApp({
      prepare: (fake) =>
        fake.seedTasks(2, (i) => ({
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
    const { user, fake } = await startCompleted();
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
    expect(fake.callsTo('tasks:submit')).toEqual([]);
  });
});
