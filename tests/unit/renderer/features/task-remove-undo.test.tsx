/**
 * Removing tasks can be undone, with the gallery's affordance: the confirmation of a removal
 * (one task or a selection) carries Undo, and Ctrl/Cmd+Z over the list asks for the last
 * removal back; the tasks return to the list. A long delete or Undo shows its progress where
 * the Undo was offered, and the window says when quitting waits for it.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startApp } from '../render-app';

const rows = () => screen.getAllByRole('article');
const seeded = (count: number) => ({
  prepare: (fake: { seedTasks(count: number): unknown }) => void fake.seedTasks(count),
});

describe('removing tasks with Undo', () => {
  it('puts a removed task back from the confirmation’s Undo', async () => {
    const { user, fake } = await startApp(seeded(2));
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove from history' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
    const done = screen.getByRole('status', { name: 'Done' });
    await within(done).findByText('1 task removed.');
    await user.click(within(done).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fake.callsTo('tasks:undoRemove')).toEqual([{ localIds: ['seed-000000'] }]);
    await within(done).findByText('Task put back.');
  });

  it('puts back the last removal with Ctrl+Z over the list', async () => {
    const { user, fake } = await startApp(seeded(3));
    await user.click(within(rows()[1]!).getByRole('button', { name: 'Remove from history' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(2));
    rows()[0]!.focus();
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(fake.callsTo('tasks:undoRemove')).toEqual([{ localIds: ['seed-000001'] }]);
    // Nothing more to undo: a second Ctrl+Z asks for nothing.
    await user.keyboard('{Control>}z{/Control}');
    expect(fake.callsTo('tasks:undoRemove')).toHaveLength(1);
  });

  it('shows how far an Undo is, and that quitting waits for it', async () => {
    const { fake } = await startApp(seeded(1));
    act(() =>
      fake.emit('trash:progress', { operation: 'restore', items: 'images', done: 40, total: 200 }),
    );
    const bar = await screen.findByRole('progressbar', {
      name: 'Putting back images: 40 of 200…',
    });
    expect(bar.getAttribute('value')).toBe('40');
    act(() =>
      fake.emit('app:quitting', {
        waitingFor: { operation: 'restore', items: 'images', done: 41, total: 200 },
      }),
    );
    await screen.findByText(/Pictor quits as soon as this is done/);
    act(() =>
      fake.emit('trash:progress', { operation: 'restore', items: 'images', done: 200, total: 200 }),
    );
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});
