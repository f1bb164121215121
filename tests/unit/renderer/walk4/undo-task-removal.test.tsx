/**
 * Undo from the first second, for tasks: removing 300 tasks from the history is undoable while
 * it runs. Ctrl+Z one second in stops it and puts back every task it had removed, as one step;
 * the status area says the removal with its Undo from the start, and a spent Undo is not offered.
 * Main's trash is the slow one of tests/fakes/slow-trash.ts, on a manual clock.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../../../renderer/store/app-store';
import { ManualClock } from '../../../fakes/manual-clock';
import { SlowTrash } from '../../../fakes/slow-trash';
import { startApp } from '../render-app';

const area = (): HTMLElement => document.querySelector<HTMLElement>('.status-area')!;
const said = (): string => area().textContent ?? '';
const undoButton = (): HTMLElement | null => within(area()).queryByRole('button', { name: 'Undo' });
const rows = (): HTMLElement[] => screen.getAllByRole('article');

describe('Undo from the first second of a large removal of tasks', () => {
  // Fault: main's removal held at one second in (the slow trash on a manual clock), to Undo it midway.
  it('Ctrl+Z one second into removing 300 tasks puts all 300 back, as one step', async () => {
    const clock = new ManualClock();
    let trash: SlowTrash | undefined;
    const { user, fake } = await startApp({
      prepare: (f) => {
        f.seedTasks(300);
        trash = new SlowTrash(f, clock);
      },
    });
    act(() => rows()[0]!.focus());
    await user.keyboard('{Control>}a{/Control}');
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    act(() => within(bar).getByRole('button', { name: 'Remove' }).focus());
    await user.keyboard('{Enter}');
    const question = await screen.findByRole('alertdialog');
    expect(question.textContent).toContain('Remove 300 tasks?');
    act(() => within(question).getAllByRole('button').at(-1)!.focus());
    await user.keyboard('{Enter}');

    await waitFor(() => expect(trash!.running).toBe(1));
    await act(() => clock.advance(1_000));
    expect(said()).toContain('Removing 300 tasks…');
    expect(undoButton()).not.toBeNull();
    const left = await fake.own('tasks:selectAll')({});
    expect(left.total).toBeGreaterThan(0);
    expect(left.total).toBeLessThan(300);

    // Over the list (or with the focus nowhere), Ctrl+Z stops the removal under way.
    await user.keyboard('{Control>}z{/Control}');
    expect(undoButton()).toBeNull();
    await act(() => clock.advance(10_000));
    await waitFor(() => expect(trash!.running).toBe(0));
    await waitFor(() => expect(said()).toContain('300 tasks put back.'));
    expect((await fake.own('tasks:selectAll')({})).total).toBe(300);
    await waitFor(() => expect(useAppStore.getState().tasksTotal).toBe(300));
    expect(fake.callsTo('tasks:undoRemove')).toHaveLength(1);
    expect(undoButton()).toBeNull();
    expect(useAppStore.getState().tasksUndoable).toBeNull();
  }, 90_000);
});
