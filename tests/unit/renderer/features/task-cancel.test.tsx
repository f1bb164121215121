/**
 * "Cancel on the service" in the window: on a task's row, a batch's tile and its details, while
 * it is asked ("Cancelling…") and after (a sentence for each outcome); "Stop watching" where the
 * service cannot cancel; Delete on a running row and the removal question (Cancel and remove,
 * Remove without cancelling, Keep), for one task and a selection; a selection's cancel as one
 * action with its progress line.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { makeImage } from '../../../support/task-records';
import { useAppStore } from '../../../../renderer/store/app-store';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { startApp } from '../render-app';

type User = Awaited<ReturnType<typeof startApp>>['user'];

const rows = (): HTMLElement[] => screen.getAllByRole('article');
const row = (index: number): HTMLElement => rows()[index]!;
const done = () => screen.getByRole('status', { name: 'Done' });

/** A task queued at fal (or another service), as the engine holds it. */
function running(overrides: Partial<TaskRecord> = {}): Partial<TaskRecord> {
  return {
    status: 'processing',
    provider: 'fal',
    endpoint: 'https://queue.fal.run',
    hold: null,
    finishedAt: null,
    images: [],
    ...overrides,
  };
}

function seeded(builds: Array<Partial<TaskRecord>>) {
  return {
    prepare: (fake: FakePictorApi) => void fake.seedTasks(builds.length, (i) => builds[i]!),
  };
}

/** Holds the service's answer to every cancel until `release` is called. */
function holdAnswers(fake: FakePictorApi): () => void {
  let release: () => void = () => undefined;
  fake.cancels.gate = new Promise<void>((resolve) => (release = resolve));
  return () => release();
}

async function cancelFromRow(user: User, index = 0): Promise<void> {
  await user.click(within(row(index)).getByRole('button', { name: 'Cancel on the service' }));
}

describe('cancel from a task row', () => {
  it('shows Cancelling… while the service is asked, then the task cancelled and not billed', async () => {
    const { user, fake } = await startApp(
      seeded([
        running({ cost: { source: 'estimated', micros: 3_000, unit: 'USD', basis: 'image' } }),
      ]),
    );
    const release = holdAnswers(fake);
    await cancelFromRow(user);
    expect(within(row(0)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
    expect(within(row(0)).getByText('Cancelling')).toBeTruthy();
    expect(within(row(0)).queryByRole('button', { name: 'Cancel on the service' })).toBeNull();
    release();
    await within(done()).findByText('The task was cancelled on the service.');
    expect(within(row(0)).getByText('Cancelled')).toBeTruthy();
    expect(row(0).textContent).toContain('The task was canceled on the service.');
    expect(fake.task('seed-000000')?.cost).toEqual({ source: 'not_billed' });
    expect(fake.callsTo('tasks:cancel')).toEqual([{ localId: 'seed-000000' }]);
  });

  it('offers no cancel on a task that is not running', async () => {
    await startApp(seeded([{ status: 'completed', images: [makeImage(0)] }, { status: 'failed' }]));
    for (const task of rows()) {
      expect(within(task).queryByRole('button', { name: 'Cancel on the service' })).toBeNull();
    }
  });

  it('says the service finished first, and that its images are kept', async () => {
    const { user, fake } = await startApp(seeded([running()]));
    fake.cancels.answer = { kind: 'finished' };
    await cancelFromRow(user);
    await within(done()).findByText(
      'The service finished the task before it could be cancelled; its images are kept.',
    );
  });

  it('says a refusal with the service’s reason, and the task runs on', async () => {
    const { user, fake } = await startApp(seeded([running()]));
    fake.cancels.answer = { kind: 'refused' };
    await cancelFromRow(user);
    expect(
      await screen.findByText(
        'The task was not cancelled: The service rejected the task query (400): the task is running.',
      ),
    ).toBeTruthy();
    expect(within(row(0)).getByRole('button', { name: 'Cancel on the service' })).toBeTruthy();
  });

  it('a service that is stopping it: the row says Cancelling until it ends', async () => {
    const { user, fake } = await startApp(seeded([running()]));
    fake.cancels.answer = { kind: 'stopping' };
    await cancelFromRow(user);
    await within(done()).findByText(
      'The service is stopping the task; Pictor keeps checking until it ends.',
    );
    expect(within(row(0)).getByText('Cancelling')).toBeTruthy();
    expect(within(row(0)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
  });

  it('a service without cancel says so and offers Stop watching; the id is kept', async () => {
    const { user, fake } = await startApp(
      seeded([running({ provider: 'bfl', endpoint: 'https://api.bfl.ai' })]),
    );
    await cancelFromRow(user);
    const question = await screen.findByRole('alertdialog', { name: 'Stop watching instead?' });
    expect(question.textContent).toContain('Black Forest Labs has no way to cancel a task.');
    await user.click(within(question).getByRole('button', { name: 'Stop watching' }));
    await within(done()).findByText(
      'Pictor stopped watching. The task ids are kept: Resume checks them again.',
    );
    expect(fake.callsTo('tasks:stopWatching')).toEqual([{ localIds: ['seed-000000'] }]);
    expect(within(row(0)).getByText('Stopped watching')).toBeTruthy();
    expect(row(0).textContent).toContain('You stopped watching this task.');
    expect(within(row(0)).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('Keep watching leaves the task as it was', async () => {
    const { user, fake } = await startApp(seeded([running({ provider: undefined })]));
    await cancelFromRow(user);
    const question = await screen.findByRole('alertdialog', { name: 'Stop watching instead?' });
    await user.click(within(question).getByRole('button', { name: 'Keep watching' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.callsTo('tasks:stopWatching')).toEqual([]);
  });
});

describe('cancel from a batch tile and from the details', () => {
  it('each task of a batch has its own cancel', async () => {
    const { user, fake } = await startApp(
      seeded([running({ batchId: 'seed-000000' }), running({ batchId: 'seed-000000' })]),
    );
    const tiles = document.querySelectorAll<HTMLElement>('.task-tile');
    expect(tiles).toHaveLength(2);
    await user.click(within(tiles[1]!).getByRole('button', { name: 'Cancel on the service' }));
    await within(done()).findByText('The task was cancelled on the service.');
    expect(fake.callsTo('tasks:cancel')).toEqual([{ localId: 'seed-000001' }]);
  });

  it('the details have a Cancel on the service button that says Cancelling… while asked', async () => {
    const { user, fake } = await startApp(seeded([running()]));
    await user.click(within(row(0)).getByRole('button', { name: 'Details' }));
    const details = await screen.findByRole('dialog', { name: 'Task details' });
    const release = holdAnswers(fake);
    await user.click(within(details).getByRole('button', { name: 'Cancel on the service' }));
    const busy = within(details).getByRole('button', { name: 'Cancelling…' });
    expect(busy).toHaveProperty('disabled', true);
    release();
    await within(done()).findByText('The task was cancelled on the service.');
    expect(within(details).queryByRole('button', { name: /^Cancel/ })).toBeNull();
  });
});

describe('removing a running task', () => {
  it('Delete on a running row asks "Cancel on the service?"; Cancel and remove cancels, then removes', async () => {
    const { user, fake } = await startApp(seeded([running(), {}]));
    act(() => row(0).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    expect(question.textContent).toContain('This task is still running on fal.ai.');
    expect(
      within(question)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label') ?? button.textContent),
    ).toEqual(['Close', 'Keep', 'Remove without cancelling', 'Cancel and remove']);
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(fake.callsTo('tasks:cancel')).toEqual([{ localId: 'seed-000000' }]);
    expect(fake.callsTo('tasks:remove')).toEqual([{ localId: 'seed-000000' }]);
    expect(fake.calls.findIndex((c) => c.channel === 'tasks:cancel')).toBeLessThan(
      fake.calls.findIndex((c) => c.channel === 'tasks:remove'),
    );
  });

  it('Remove without cancelling tells the service nothing; Keep keeps it', async () => {
    const { user, fake } = await startApp(seeded([running(), running()]));
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    let question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Keep' }));
    expect(rows()).toHaveLength(2);
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Remove without cancelling' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(fake.callsTo('tasks:cancel')).toEqual([]);
  });

  it('a refused cancel keeps the task, with the service’s reason', async () => {
    const { user, fake } = await startApp(seeded([running()]));
    fake.cancels.answer = { kind: 'refused' };
    await user.click(within(row(0)).getByRole('button', { name: 'Remove from history' }));
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    expect(await screen.findByText(/^The task was not cancelled: /)).toBeTruthy();
    expect(rows()).toHaveLength(1);
    expect(fake.callsTo('tasks:remove')).toEqual([]);
  });

  it('a running task whose service cannot cancel is removed with a sentence saying it runs on', async () => {
    const { user } = await startApp(
      seeded([running({ provider: 'bfl', endpoint: 'https://api.bfl.ai' })]),
    );
    act(() => row(0).focus());
    await user.keyboard('{Delete}');
    const question = await screen.findByRole('alertdialog', {
      name: 'Remove this task from the history?',
    });
    expect(question.textContent).toContain(
      'It is still running on Black Forest Labs, which has no way to cancel it',
    );
  });

  it('a selection with running tasks is asked once; refused ones stay, the rest go', async () => {
    const { user, fake } = await startApp(seeded([running(), running(), { status: 'completed' }]));
    fake.cancels.answer = { kind: 'canceled' };
    fake.handle('tasks:cancelMany', async ({ localIds }) => {
      const outcomes = [];
      for (const localId of localIds) {
        fake.cancels.answer = { kind: localId === 'seed-000001' ? 'refused' : 'canceled' };
        outcomes.push(await fake.cancels.cancel(localId));
      }
      return { outcomes };
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Remove' }));
    const question = await screen.findByRole('alertdialog', { name: 'Cancel on the service?' });
    expect(question.textContent).toContain(
      'Some of the selected tasks are still running on their services (2).',
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel and remove' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(row(0).getAttribute('data-local-id')).toBe('seed-000001');
    expect(fake.callsTo('tasks:cancelMany')).toEqual([
      { localIds: ['seed-000000', 'seed-000001'] },
    ]);
    // Said as an error, which stays after the removal's own confirmation has gone.
    const said = useAppStore
      .getState()
      .statusEntries.map((entry) => [entry.kind, wordsOf(entry.text)]);
    expect(said).toContainEqual([
      'error',
      'Cancelled: 1 · Not cancelled: 1 · First reason: The service rejected the task query (400): the task is running.',
    ]);
  });
});

describe('cancel a selection', () => {
  it('is one action with a progress line, then a count of each outcome', async () => {
    const { user, fake } = await startApp(
      seeded([running(), running(), running({ provider: 'bfl' }), { status: 'completed' }]),
    );
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    fake.handle('tasks:cancelMany', async ({ localIds }) => {
      const outcomes = [];
      for (const [index, localId] of localIds.entries()) {
        outcomes.push(await fake.cancels.cancel(localId));
        fake.emit('tasks:cancelProgress', { done: index + 1, total: localIds.length });
        if (index === 1) await answered;
      }
      return { outcomes };
    });
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Cancel on services' }));
    const progress = await screen.findByRole('progressbar', {
      name: 'Cancelling tasks on their services…',
    });
    await waitFor(() => expect(progress.getAttribute('value')).toBe('2'));
    expect(screen.getByText('2 of 4')).toBeTruthy();
    // Answered ones show how they ended; the one still to be asked says Cancelling….
    expect(within(row(0)).getByText('Cancelled')).toBeTruthy();
    expect(within(row(2)).getByRole('status', { name: 'Cancelling…' })).toBeTruthy();
    release();
    await within(done()).findByText(
      'Cancelled: 2 · On a service that cannot cancel: 1 · Not running: 1',
    );
    expect(fake.callsTo('tasks:cancelMany')).toHaveLength(1);
    // The tasks whose service cannot cancel: Stop watching, from the same sentence.
    await user.click(within(done()).getByRole('button', { name: 'Stop watching' }));
    await waitFor(() =>
      expect(fake.callsTo('tasks:stopWatching')).toEqual([{ localIds: ['seed-000002'] }]),
    );
  });

  it('is offered only when a selected task is running', async () => {
    const { user } = await startApp(seeded([{ status: 'completed' }, { status: 'failed' }]));
    act(() => row(0).focus());
    await user.keyboard(' ');
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    expect(within(bar).getByRole('button', { name: 'Cancel on services' })).toHaveProperty(
      'disabled',
      true,
    );
  });
});
