/** "Rerun" and "Use this prompt" on completed tasks and in the viewer. */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../fakes/fake-pictor-api';
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
  it('a completed row’s "Rerun" submits the same request once, leaving the form alone', async () => {
    const { user, fake } = await startCompleted();
    const draft = useAppStore.getState().composeDraft;
    await user.click(within(row(0)).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(fake.callsTo('tasks:submit')).toEqual([{ request, count: 1 }]);
    expect(within(row(0)).getByText('Sending')).toBeTruthy();
    expect(useAppStore.getState().composeDraft).toEqual(draft);
  });

  it('"Rerun" in Task details and in the viewer submit the same request', async () => {
    const { user, fake } = await startCompleted();
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    await user.click(within(details).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(fake.callsTo('tasks:submit')).toHaveLength(1));

    await user.click(within(details).getByRole('button', { name: 'Open image 1 of 1' }));
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' });
    await user.click(within(viewer).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(fake.callsTo('tasks:submit')).toHaveLength(2));
    expect(fake.callsTo('tasks:submit')).toEqual([
      { request, count: 1 },
      { request, count: 1 },
    ]);
  });

  it('is checked as the compose form checks: a refused request is never sent', async () => {
    const { fake } = await startCompleted();
    let sent = true;
    await act(async () => {
      sent = await useAppStore.getState().tasksRerun({ prompt: '   ', size: '0x5' });
    });
    expect(sent).toBe(false);
    expect(fake.callsTo('tasks:submit')).toEqual([]);
    const toasts = await screen.findByRole('region', { name: 'Errors' });
    expect(within(toasts).getByRole('alert').textContent).toContain('Write a prompt first');
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
