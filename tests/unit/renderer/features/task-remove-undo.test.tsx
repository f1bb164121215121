/**
 * Removing tasks can be undone, with the gallery's affordance: the confirmation of a removal
 * (one task or a selection) carries Undo, and Ctrl/Cmd+Z over the list asks for the last
 * removal back; the tasks return to the list. A long delete or Undo shows its progress where
 * the Undo was offered, and the window says when quitting waits for it. Removing 300 tasks is
 * undoable from its first second: Ctrl+Z stops it and puts back every task it had removed, as
 * one step (main's own trash on the slow disk of tests/support/slow-disk.ts, on a manual clock).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { useAppStore } from '../../../../renderer/store/app-store';
import { ManualClock } from '../../../fakes/manual-clock';
import { okValue } from '../../../support/ipc';
import { slowDisk, type SlowDisk } from '../../../support/slow-disk';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';

const rows = () => screen.getAllByRole('article');

/** The window over main's real history and trash, with `count` tasks made on the demo. */
async function withTasks(count: number) {
  let made: TaskRecord[] = [];
  const prompts = Array.from({ length: count }, (_, i) => `Prompt number ${String(i)}`);
  const prepare = async (main: WiredApi) => void (made = await main.generate(prompts));
  const app = await startWiredApp({ prepare });
  // Newest first, as the list shows them.
  return { ...app, rowIds: made.map((record) => record.localId).reverse() };
}

describe('removing tasks with Undo', () => {
  it('puts a removed task back from the confirmation’s Undo', async () => {
    const { user, main, rowIds } = await withTasks(2);
    await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove from history' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(1));
    const done = screen.getByRole('status', { name: 'Done' });
    await within(done).findByText('1 task removed.');
    await user.click(within(done).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(main.callsTo('tasks:undoRemove')).toEqual([{ localIds: [rowIds[0]] }]);
    await within(done).findByText('Task put back.');
    expect(main.runtime.core.history.get(rowIds[0]!)).toBeDefined();
  });

  it('puts back the last removal with Ctrl+Z over the list', async () => {
    const { user, main, rowIds } = await withTasks(3);
    await user.click(within(rows()[1]!).getByRole('button', { name: 'Remove from history' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }),
    );
    await waitFor(() => expect(rows()).toHaveLength(2));
    rows()[0]!.focus();
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(main.callsTo('tasks:undoRemove')).toEqual([{ localIds: [rowIds[1]] }]);
    // Nothing more to undo: a second Ctrl+Z asks for nothing.
    await user.keyboard('{Control>}z{/Control}');
    expect(main.callsTo('tasks:undoRemove')).toHaveLength(1);
  });

  it('shows how far an Undo is, and that quitting waits for it', async () => {
    // The wiring's progress events and the host's quitting notice, sent as a long Undo of 200
    // images would send them (a real one is over before the window could see it).
    const { main } = await startWiredApp({ prepare: (wired) => void seedHistory(wired, 1) });
    await act(async () =>
      main.send('trash:progress', { operation: 'restore', items: 'images', done: 40, total: 200 }),
    );
    const bar = await screen.findByRole('progressbar', {
      name: 'Putting back images: 40 of 200…',
    });
    expect(bar.getAttribute('value')).toBe('40');
    await act(async () =>
      main.send('app:quitting', {
        waitingFor: { operation: 'restore', items: 'images', done: 41, total: 200 },
      }),
    );
    await screen.findByText(/Pictor quits as soon as this is done/);
    await act(async () =>
      main.send('trash:progress', { operation: 'restore', items: 'images', done: 200, total: 200 }),
    );
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});

const area = (): HTMLElement => document.querySelector<HTMLElement>('.status-area')!;
const said = (): string => area().textContent ?? '';
const undoButton = (): HTMLElement | null => within(area()).queryByRole('button', { name: 'Undo' });

describe('Undo from the first second of a large removal of tasks', () => {
  it('Ctrl+Z one second into removing 300 tasks puts all 300 back, as one step', async () => {
    // Main's own trash on a slow disk (its writes wait on a manual clock), to Undo it midway.
    const clock = new ManualClock();
    let disk: SlowDisk | undefined;
    const { user, main } = await startWiredApp({
      prepare: (wired) => {
        seedHistory(wired, 300);
        disk = slowDisk(wired.runtime.core, clock);
      },
    });
    const total = async () => okValue(await main.api.invoke('tasks:selectAll', {})).total;
    act(() => rows()[0]!.focus());
    await user.keyboard('{Control>}a{/Control}');
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    act(() => within(bar).getByRole('button', { name: 'Remove' }).focus());
    await user.keyboard('{Enter}');
    const question = await screen.findByRole('alertdialog');
    expect(question.textContent).toContain('Remove 300 tasks?');
    act(() => within(question).getAllByRole('button').at(-1)!.focus());
    await user.keyboard('{Enter}');

    await waitFor(() => expect(disk!.waiting).toBe(1));
    await act(() => disk!.elapse(1_000));
    expect(said()).toContain('Removing 300 tasks…');
    expect(undoButton()).not.toBeNull();
    const left = await total();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(300);

    // Over the list (or with the focus nowhere), Ctrl+Z stops the removal under way.
    await user.keyboard('{Control>}z{/Control}');
    expect(undoButton()).toBeNull();
    await act(() => disk!.elapse(10_000));
    await waitFor(() => expect(said()).toContain('300 tasks put back.'));
    expect(disk!.waiting).toBe(0);
    expect(await total()).toBe(300);
    await waitFor(() => expect(useAppStore.getState().tasksTotal).toBe(300));
    expect(main.callsTo('tasks:undoRemove')).toHaveLength(1);
    expect(undoButton()).toBeNull();
    expect(useAppStore.getState().tasksUndoable).toBeNull();
  }, 90_000);
});
