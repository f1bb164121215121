/**
 * Removing tasks by keyboard, and Undo, as in the gallery: the focus goes to the task now where
 * the first removed one was, never to the page; Ctrl+Z there puts the tasks back and the focus
 * goes to the first of them; Ctrl+Z with the focus on the page does it too; Delete on a task
 * asks to remove it, or the selection it is in; a failed Undo says main's own sentence.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { startApp } from '../render-app';

const rows = (): HTMLElement[] => screen.getAllByRole('article');
const focusedPrompt = (): string | undefined =>
  document.activeElement?.closest('article')?.querySelector('.task-row__prompt')?.textContent ??
  undefined;
const seeded = (count: number) => ({
  prepare: (fake: { seedTasks(count: number): unknown }) => void fake.seedTasks(count),
});

/** Confirms the open question with Enter on its last button (the action). */
async function confirmByKeyboard(user: Awaited<ReturnType<typeof startApp>>['user']) {
  const dialog = await screen.findByRole('alertdialog');
  act(() => within(dialog).getAllByRole('button').at(-1)!.focus());
  await user.keyboard('{Enter}');
}

/** Removes the first of two tasks with its button and the question's Remove. */
async function removeFirstByPointer(user: Awaited<ReturnType<typeof startApp>>['user']) {
  await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove from history' }));
  await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(rows()).toHaveLength(1));
}

describe('removing tasks by keyboard, and Undo', () => {
  it('a removed selection leaves the focus on the next task; Ctrl+Z brings it back, focused', async () => {
    const { user, fake } = await startApp(seeded(5));
    act(() => rows()[1]!.focus());
    await user.keyboard(' {ArrowDown}{Shift>}{ArrowDown}{/Shift}');
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    expect(bar.textContent).toContain('3 selected');
    act(() => within(bar).getByRole('button', { name: 'Remove' }).focus());
    await user.keyboard('{Enter}');
    await confirmByKeyboard(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    // The task now where the first removed one was: Prompt number 4.
    await waitFor(() => expect(focusedPrompt()).toBe('Prompt number 4'));
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(fake.callsTo('tasks:undoRemove')).toHaveLength(1);
    await waitFor(() => expect(focusedPrompt()).toBe('Prompt number 1'));
  });

  it('Delete on a task asks to remove it; after it, the focus is on the next task', async () => {
    const { user, fake } = await startApp(seeded(3));
    act(() => rows()[1]!.focus());
    await user.keyboard('{Delete}');
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Remove this task');
    await confirmByKeyboard(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fake.callsTo('tasks:remove')).toEqual([{ localId: 'seed-000001' }]);
    await waitFor(() => expect(focusedPrompt()).toBe('Prompt number 2'));
  });

  it('Delete on a selected task asks to remove the whole selection', async () => {
    const { user, fake } = await startApp(seeded(4));
    act(() => rows()[0]!.focus());
    await user.keyboard(' {ArrowDown} {Delete}');
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Remove 2 tasks?');
    await confirmByKeyboard(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fake.callsTo('tasks:removeMany').flatMap((call) => call.localIds)).toEqual([
      'seed-000000',
      'seed-000001',
    ]);
  });

  it('Ctrl+Z with the focus on the page puts back the last removal while Tasks is shown', async () => {
    const { user, fake } = await startApp(seeded(2));
    await removeFirstByPointer(user);
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(fake.callsTo('tasks:undoRemove')).toEqual([{ localIds: ['seed-000000'] }]);
  });

  it('a failed Undo says main’s own sentence, not a generic one', async () => {
    const { user, fake } = await startApp(seeded(2));
    fake.handle('tasks:undoRemove', async ({ localIds }) => ({
      items: [],
      failed: localIds.length,
      problem: 'The task’s folder is no longer in the gallery.',
    }));
    await removeFirstByPointer(user);
    const done = screen.getByRole('status', { name: 'Done' });
    await user.click(await within(done).findByRole('button', { name: 'Undo' }));
    const errors = screen.getByRole('region', { name: 'Errors' });
    await waitFor(() => expect(errors.querySelector('.message__text')).not.toBeNull());
    // The sentence itself, not "Something went wrong" with it hidden in the details.
    expect(errors.querySelector('.message__text')?.textContent).toBe(
      'The task’s folder is no longer in the gallery.',
    );
  });
});
