import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { useAppStore } from '../../../../renderer/store/app-store';
import { makeImage } from '../../../support/task-records';
import { startApp } from '../render-app';
import { startWiredApp } from '../render-wired-app';

const row = (index: number) => screen.getAllByRole('article')[index]!;

function seeded(builds: Array<Partial<TaskRecord>>) {
  return {
    prepare: (
      fake: Parameters<NonNullable<Parameters<typeof startApp>[0]>['prepare'] & object>[0],
    ) => fake.seedTasks(builds.length, (i) => builds[i]!),
  };
}

describe('row actions', () => {
  it('copies the task id through the app', async () => {
    let taskId: string | null = null;
    const { user, main } = await startWiredApp({
      prepare: async (wired) => void ({ taskId } = (await wired.generate(['A heron']))[0]!),
    });
    await user.click(within(row(0)).getByRole('button', { name: 'Copy task id' }));
    expect(taskId).toMatch(/^task_/);
    await waitFor(() => expect(main.os.calls).toContainEqual({ action: 'copyText', arg: taskId }));
    expect(main.callsTo('app:copyText')).toEqual([{ text: taskId }]);
    // Shown, not only spoken: the toast corner's polite region.
    await within(screen.getByRole('status', { name: 'Done' })).findByText('Task id copied.');
  });

  it('cannot copy an id the service never gave', async () => {
    await startApp(seeded([{ taskId: null, status: 'submit_failed' }]));
    expect(within(row(0)).getByRole('button', { name: 'Copy task id' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('resumes a task that timed out', async () => {
    const { user, fake } = await startApp(
      seeded([{ status: 'processing', hold: 'timed_out', finishedAt: null }]),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(row(0)).getByText('Processing')).toBeTruthy());
    expect(fake.callsTo('tasks:resume')).toEqual([{ localId: 'seed-000000' }]);
  });

  it('retries the images that could not be saved', async () => {
    const { user, fake } = await startApp(
      seeded([{ status: 'completed', images: [makeImage(0), makeImage(1, { state: 'invalid' })] }]),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Retry images' }));
    await waitFor(() => expect(within(row(0)).getByText('Saving 1 image…')).toBeTruthy());
    expect(fake.callsTo('tasks:retryImages')).toEqual([{ localId: 'seed-000000' }]);
  });

  it('"Submit again" asks main for an explicit new task of the same record', async () => {
    const request = { prompt: 'A heron', model: 'm1', size: '640x480', quality: 'low' };
    const { user, fake } = await startApp(
      seeded([
        {
          status: 'submit_failed',
          request,
          error: { kind: 'server', message: 'The service failed.' },
        },
      ]),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Submit again' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    // Main takes the request and the service from the record: the page names only the task.
    expect(fake.callsTo('tasks:submitAgain')).toEqual([{ localId: 'seed-000000' }]);
    expect(fake.callsTo('tasks:submit')).toEqual([]);
    expect(useAppStore.getState().tasksItems[0]?.record.request).toEqual(request);
    // The refused task stays as it was; the new one is on top.
    expect(within(row(0)).getByText('Sending')).toBeTruthy();
    expect(within(row(1)).getByText('Not submitted')).toBeTruthy();
  });

  it('marks a favourite (a pressed toggle)', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => void (await wired.generate(['A heron'])),
    });
    const [heron] = main.runtime.core.history.list().items;
    const star = within(row(0)).getByRole('button', { name: 'Favourite' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    await waitFor(() =>
      expect(
        within(row(0)).getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    expect(main.callsTo('tasks:setFavourite')).toEqual([
      { localId: heron!.localId, favourite: true },
    ]);
    expect(main.runtime.core.history.get(heron!.localId)?.favourite).toBe(true);
  });

  it('removes from history only after confirmation', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => void (await wired.generate(['A heron', 'A crane'])),
    });
    const [newest] = main.runtime.core.history.list().items;
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Remove this task from the history?' });
    // The safe choice has the focus.
    expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Cancel' }));
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(main.callsTo('tasks:remove')).toEqual([]);
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
    expect(main.callsTo('tasks:remove')).toEqual([{ localId: newest!.localId }]);
    expect(main.runtime.core.history.get(newest!.localId)).toBeUndefined();
    expect(screen.getByText('1 task')).toBeTruthy();
  });

  it('shows a failed action as an error toast with details', async () => {
    const { user, fake } = await startApp(seeded([{}]));
    fake.fail('tasks:setFavourite', {
      message: 'The history could not be written. Check that the disk has space.',
      detail: 'ENOSPC',
    });
    await user.click(within(row(0)).getByRole('button', { name: 'Favourite' }));
    const toasts = await screen.findByRole('region', { name: 'Errors' });
    const alert = within(toasts).getByRole('alert');
    expect(alert.textContent).toContain('The history could not be written.');
    await user.click(within(alert).getByText('Details'));
    expect(within(alert).getByText('ENOSPC')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(within(toasts).queryByRole('alert')).toBeNull();
  });

  it('the details dialog shows everything and "Use this prompt" fills the form', async () => {
    const request = { prompt: 'A heron in fog', model: 'm1', size: '640x480' };
    const { user } = await startApp(
      seeded([
        {
          request,
          taskId: 'svc-9',
          status: 'failed',
          error: { kind: 'task_failed', message: 'Refused.', detail: 'policy 7' },
        },
      ]),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    expect(within(dialog).getByText('svc-9')).toBeTruthy();
    expect(within(dialog).getByText('Built-in demo service')).toBeTruthy();
    await user.click(within(dialog).getByText('Details'));
    expect(within(dialog).getByText('policy 7')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Use this prompt' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    expect(prompt).toHaveProperty('value', 'A heron in fog');
    expect(document.activeElement).toBe(prompt);
    expect(screen.getByRole('combobox', { name: 'Size' })).toHaveProperty('value', '__custom__');
  });
});

describe('track a task id', () => {
  it('adds a task created elsewhere with its prompt', async () => {
    const { user, fake } = await startApp();
    await user.click(screen.getByRole('button', { name: 'Track a task id' }));
    const dialog = screen.getByRole('dialog', { name: 'Track a task id' });
    const id = within(dialog).getByRole('textbox', { name: 'Task id' });
    expect(document.activeElement).toBe(id);
    await user.click(within(dialog).getByRole('button', { name: 'Track' }));
    expect(within(dialog).getByText('Paste the task id first.')).toBeTruthy();
    await user.type(id, '  svc-77 ');
    await user.type(within(dialog).getByRole('textbox', { name: /Prompt/ }), 'from the CLI');
    await user.click(within(dialog).getByRole('button', { name: 'Track' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fake.callsTo('tasks:track')).toEqual([{ taskId: 'svc-77', prompt: 'from the CLI' }]);
    expect(within(row(0)).getByText('from the CLI')).toBeTruthy();
  });

  it('shows why an id was refused, in the dialog', async () => {
    const { user, fake } = await startApp();
    fake.fail('tasks:track', { code: 'bad_input', message: 'That does not look like a task id.' });
    await user.click(screen.getByRole('button', { name: 'Track a task id' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Task id' }), 'bad id');
    await user.click(within(dialog).getByRole('button', { name: 'Track' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'That does not look like a task id.',
    );
  });
});
