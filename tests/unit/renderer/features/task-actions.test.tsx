import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { useAppStore } from '../../../../renderer/store/app-store';
import { selectTaskItems } from '../../../../renderer/store/record-selectors';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's real history and engine, one runtime for the tests that send nothing. */
const fileMain = sharedWiredMain();
/**
 * A test that sends a task to the demo has a main of its own (a task at work would outlive the
 * shared main's emptying), where the demo's tasks take a minute: a new one is still at work
 * when the test looks.
 */
const ownMain = { runtime: { demo: { durationMs: 60_000 } } };

const row = (index: number) => screen.getAllByRole('article')[index]!;

/** `builds` written into main's history (tasks in states the engine reaches over time). */
function seeded(builds: Array<Partial<TaskRecord>>, options: object = { main: fileMain }) {
  return {
    ...options,
    prepare: (main: WiredApi) => void seedHistory(main, builds.length, (i) => builds[i]!),
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
    await startWiredApp(seeded([{ taskId: null, status: 'submit_failed' }]));
    expect(within(row(0)).getByRole('button', { name: 'Copy task id' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('resumes a task that timed out', async () => {
    // A demo task whose watch ran out while the demo still works on it (a minute from now).
    const { user, main } = await startWiredApp(
      seeded(
        [{ status: 'processing', hold: 'timed_out', finishedAt: null, createdAt: Date.now() }],
        ownMain,
      ),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(row(0)).getByText('Processing')).toBeTruthy());
    expect(main.callsTo('tasks:resume')).toEqual([{ localId: 'seed-000000' }]);
    // Watched again: the engine's live record (its next poll writes it to the history).
    await waitFor(() =>
      expect(main.runtime.core.engine.get('seed-000000')).toMatchObject({
        status: 'processing',
        hold: null,
      }),
    );
  });

  it('retries the images that could not be saved', async () => {
    // A real demo task of two images, the second one's link found expired when it was fetched
    // (main retries expired and pending images; an invalid one it does not fetch again).
    let heron: TaskRecord | undefined;
    const { user, main } = await startWiredApp({
      runtime: { demo: { durationMs: 100, imagesPerTask: 2 } },
      prepare: async (wired) => {
        const [made] = await wired.generate(['A heron']);
        const [first, second] = made!.images;
        const { file: _file, thumbnail: _thumbnail, ...unsaved } = second!;
        const expired = { ...unsaved, state: 'expired' as const, error: 'The link expired.' };
        // Through the engine, as its own changes are written: nothing of its overwrites it.
        heron = wired.runtime.core.engine.edit(made!.localId, (record) => ({
          ...record,
          images: [first!, expired],
        }));
      },
    });
    await user.click(within(row(0)).getByRole('button', { name: 'Retry images' }));
    await waitFor(() =>
      expect(main.callsTo('tasks:retryImages')).toEqual([{ localId: heron!.localId }]),
    );
    // Main fetched it again from the demo and saved it.
    await waitFor(() =>
      expect(main.runtime.core.history.get(heron!.localId)?.images[1]?.state).toBe('saved'),
    );
    // The page hears of it with main's next task message, after the history has it.
    await waitFor(() => expect(row(0).textContent).toContain('2 images'));
    expect(within(row(0)).queryByRole('button', { name: 'Retry images' })).toBeNull();
  });

  it('"Submit again" asks main for an explicit new task of the same record', async () => {
    const request = { prompt: 'A heron', model: 'm1', size: '640x480', quality: 'low' };
    const { user, main } = await startWiredApp(
      seeded(
        [
          {
            status: 'submit_failed',
            request,
            error: { kind: 'server', message: 'The service failed.' },
          },
        ],
        ownMain,
      ),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Submit again' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    // Main takes the request and the service from the record: the page names only the task.
    expect(main.callsTo('tasks:resend')).toEqual([{ localIds: ['seed-000000'], as: 'each' }]);
    expect(main.callsTo('tasks:submit')).toEqual([]);
    expect(selectTaskItems(useAppStore.getState())[0]?.record.request).toEqual(request);
    expect(main.runtime.core.history.list().items[0]?.request).toEqual(request);
    // The refused task stays as it was; the new one is on top, at work on the demo.
    expect(within(row(0)).getByText(/^(Sending|Processing)$/)).toBeTruthy();
    expect(within(row(1)).getByText('Not submitted')).toBeTruthy();
  });

  it('marks a favourite (a pressed toggle)', async () => {
    const { user, main } = await startWiredApp({
      prepare: async (wired) => void (await wired.generate(['A heron'])),
    });
    const [heron] = main.runtime.core.history.list().items;
    const star = within(row(0)).getByRole('button', { name: 'Pick' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    await waitFor(() =>
      expect(
        within(row(0)).getByRole('button', { name: 'Pick' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    // A task with images picks them as one triage step, which the window's Undo takes back.
    expect(main.callsTo('triage:apply')).toEqual([
      { tasks: [heron!.localId], change: { kind: 'flag', flag: 'pick' } },
    ]);
    expect(main.runtime.core.history.get(heron!.localId)?.favourite).toBe(true);
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    fireEvent.keyDown(document.body, { key: 'z', code: 'KeyZ', ctrlKey: true });
    await waitFor(() =>
      expect(main.runtime.core.history.get(heron!.localId)?.favourite).toBe(false),
    );
    await waitFor(() =>
      expect(
        within(row(0)).getByRole('button', { name: 'Pick' }).getAttribute('aria-pressed'),
      ).toBe('false'),
    );
    // Pressed again it is picked; pressed once more its picked images are unpicked, one step.
    await user.click(within(row(0)).getByRole('button', { name: 'Pick' }));
    await waitFor(() =>
      expect(main.runtime.core.history.get(heron!.localId)?.favourite).toBe(true),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Pick' }));
    await waitFor(() =>
      expect(main.runtime.core.history.get(heron!.localId)?.favourite).toBe(false),
    );
    expect(main.callsTo('tasks:setFavouriteMany')).toEqual([]);
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

  // Fault: tasks:setFavouriteMany fails (the disk full), through the contract's interceptor.
  it('shows a failed action as an error toast with details', async () => {
    const { user, main } = await startWiredApp(seeded([{}]));
    main.intercept.request['tasks:setFavouriteMany'].fail({
      code: 'failed',
      message: 'The history could not be written. Check that the disk has space.',
      detail: 'ENOSPC',
    });
    await user.click(within(row(0)).getByRole('button', { name: 'Pick' }));
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
    const { user } = await startWiredApp(
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

  it('names a task of the demo in another dialect (a compare’s demo:fal) as the demo', async () => {
    const { user } = await startWiredApp(
      seeded([{ request: { prompt: 'A fox' }, endpoint: 'demo:fal', provider: 'fal' }]),
    );
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Task details' });
    expect(within(dialog).getByText('Built-in demo service')).toBeTruthy();
    expect(within(dialog).queryByText('fal.ai')).toBeNull();
  });
});

describe('track a task id', () => {
  // A main of its own: main watches the tracked task on the demo.
  it('adds a task created elsewhere with its prompt', async () => {
    const { user, main } = await startWiredApp();
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
    expect(main.callsTo('tasks:track')).toEqual([{ taskId: 'svc-77', prompt: 'from the CLI' }]);
    expect(within(row(0)).getByText('from the CLI')).toBeTruthy();
    expect(main.runtime.core.history.list().items[0]).toMatchObject({
      taskId: 'svc-77',
      request: { prompt: 'from the CLI' },
    });
  });

  it('shows why main refused an id, in the dialog', async () => {
    const { user, main } = await startWiredApp({ main: fileMain });
    await user.click(screen.getByRole('button', { name: 'Track a task id' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: 'Task id' }), 'bad id');
    await user.click(within(dialog).getByRole('button', { name: 'Track' }));
    const alert = await within(dialog).findByRole('alert');
    // Main's own refusal, and nothing tracked.
    expect(alert.textContent).toContain(
      'The task id contains spaces. Check the task id and paste it again.',
    );
    expect(main.callsTo('tasks:track')).toEqual([{ taskId: 'bad id' }]);
    expect(main.runtime.core.history.list().items).toEqual([]);
  });
});
