/**
 * Removing tasks by keyboard, and Undo, as in the gallery: the focus goes to the task now where
 * the first removed one was, never to the page; Ctrl+Z there puts the tasks back and the focus
 * goes to the first of them; Ctrl+Z with the focus on the page does it too; Delete on a task
 * asks to remove it, or the selection it is in; a failed Undo says main's own sentence and keeps
 * its step.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WiredApi } from '../../../support/wired-api';
import { englishText, sentence } from '../../../../shared/i18n/sentence';
import { useAppStore } from '../../../../renderer/store/app-store';
import { wordsOf } from '../../../../renderer/store/status-slice';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history and trash (tests/support/wired-api.ts), one runtime for the file. */
const fileMain = sharedWiredMain();

const rows = (): HTMLElement[] => screen.getAllByRole('article');
const focusedPrompt = (): string | undefined =>
  document.activeElement?.closest('article')?.querySelector('.task-row__prompt')?.textContent ??
  undefined;
const seeded = (count: number) => ({
  main: fileMain,
  prepare: (main: WiredApi) => void seedHistory(main, count),
});
const inHistory = (main: WiredApi): string[] =>
  main.runtime.core.history.taskIds({}, Number.MAX_SAFE_INTEGER);

/** Confirms the open question with Enter on its last button (the action). */
async function confirmByKeyboard(user: Awaited<ReturnType<typeof startWiredApp>>['user']) {
  const dialog = await screen.findByRole('alertdialog');
  act(() => within(dialog).getAllByRole('button').at(-1)!.focus());
  await user.keyboard('{Enter}');
}

/** Removes the first of two tasks with its button and the question's Remove. */
async function removeFirstByPointer(user: Awaited<ReturnType<typeof startWiredApp>>['user']) {
  await user.click(within(rows()[0]!).getByRole('button', { name: 'Remove from history' }));
  await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(rows()).toHaveLength(1));
}

describe('removing tasks by keyboard, and Undo', () => {
  it('a removed selection leaves the focus on the next task; Ctrl+Z brings it back, focused', async () => {
    const { user, main } = await startWiredApp(seeded(5));
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
    expect(main.callsTo('tasks:undoRemove')).toHaveLength(1);
    expect(inHistory(main)).toHaveLength(5);
    await waitFor(() => expect(focusedPrompt()).toBe('Prompt number 1'));
  });

  it('Delete on a task asks to remove it; after it, the focus is on the next task', async () => {
    const { user, main } = await startWiredApp(seeded(3));
    act(() => rows()[1]!.focus());
    await user.keyboard('{Delete}');
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Remove this task');
    await confirmByKeyboard(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(main.callsTo('tasks:remove')).toEqual([{ localId: 'seed-000001' }]);
    expect(inHistory(main)).not.toContain('seed-000001');
    await waitFor(() => expect(focusedPrompt()).toBe('Prompt number 2'));
  });

  it('Delete on a selected task asks to remove the whole selection', async () => {
    const { user, main } = await startWiredApp(seeded(4));
    act(() => rows()[0]!.focus());
    await user.keyboard(' {ArrowDown} {Delete}');
    expect((await screen.findByRole('alertdialog')).textContent).toContain('Remove 2 tasks?');
    await confirmByKeyboard(user);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(main.callsTo('tasks:removeMany').flatMap((call) => call.localIds)).toEqual([
      'seed-000000',
      'seed-000001',
    ]);
    expect(inHistory(main).sort()).toEqual(['seed-000002', 'seed-000003']);
  });

  it('Ctrl+Z with the focus on the page puts back the last removal while Tasks is shown', async () => {
    const { user, main } = await startWiredApp(seeded(2));
    await removeFirstByPointer(user);
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(main.callsTo('tasks:undoRemove')).toEqual([{ localIds: ['seed-000000'] }]);
    expect(inHistory(main).sort()).toEqual(['seed-000000', 'seed-000001']);
  });

  it('a failed Undo says main’s own sentence, not a generic one', async () => {
    const { user, main } = await startWiredApp(seeded(2));
    await removeFirstByPointer(user);
    // The removal's time for Undo ends (as at quit or after five minutes): main holds it no more.
    await main.runtime.core.trash.empty();
    const done = screen.getByRole('status', { name: 'Done' });
    await user.click(await within(done).findByRole('button', { name: 'Undo' }));
    const errors = screen.getByRole('region', { name: 'Errors' });
    await waitFor(() => expect(errors.querySelector('.message__text')).not.toBeNull());
    // The sentence itself, naming the step, not "Something went wrong" with it in the details.
    expect(errors.querySelector('.message__text')?.textContent).toBe(
      `Could not undo: 1 task removed. ${englishText(sentence('error.library.taskNoLongerHeld'))}`,
    );
    expect(inHistory(main)).toEqual(['seed-000001']);
    // Nothing is lost: the step stays on the window's Undo, to be asked again.
    expect(useAppStore.getState().undoEntries.map((entry) => wordsOf(entry.label))).toEqual([
      '1 task removed.',
    ]);
  });
});
