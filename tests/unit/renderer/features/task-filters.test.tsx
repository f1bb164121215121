import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../../../renderer/components/search-input';
import { useAppStore } from '../../../../renderer/store/app-store';
import { seedHistory, startWiredApp } from '../render-wired-app';

const search = () => screen.getByRole('searchbox', { name: 'Search prompts' });

describe('search and filters', () => {
  afterEach(() => vi.useRealTimers());

  it('searches by prompt once typing pauses (debounced)', async () => {
    // Thirty finished tasks in main's real history, a third of them about foxes.
    const { main } = await startWiredApp({
      prepare: (wired) =>
        void seedHistory(wired, 30, (i) => ({
          prompt: i % 3 === 0 ? `red fox ${i}` : `blue whale ${i}`,
        })),
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Keystrokes closer together than the debounce: nothing is asked while typing.
    for (const text of ['f', 'fo', 'fox']) {
      fireEvent.change(search(), { target: { value: text } });
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 10));
    }
    expect(main.callsTo('tasks:list')).toHaveLength(1);
    act(() => vi.advanceTimersByTime(20));
    expect(main.callsTo('tasks:list')).toHaveLength(2);
    expect(main.callsTo('tasks:list')[1]).toMatchObject({ search: 'fox', cursor: null });
    vi.useRealTimers();
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    expect(screen.getByText('10 tasks')).toBeTruthy();
  });

  it('filters by status chips (several at once) and by favourite', async () => {
    // Twelve tasks of four states in main's real history: the filters are main's queries.
    const { user, main } = await startWiredApp({
      prepare: (wired) =>
        void seedHistory(wired, 12, (i) => ({
          status: (['completed', 'failed', 'processing', 'submit_failed'] as const)[i % 4],
          favourite: i < 3,
        })),
    });
    const failed = screen.getByRole('button', { name: 'Failed' });
    await user.click(failed);
    expect(failed.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(main.callsTo('tasks:list').at(-1)).toMatchObject({ statuses: ['failed', 'not_found'] });
    await user.click(screen.getByRole('button', { name: 'In progress' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(6));
    expect(main.callsTo('tasks:list').at(-1)!.statuses).toEqual([
      'failed',
      'not_found',
      'submitting',
      'processing',
    ]);
    await user.click(screen.getByRole('button', { name: 'Picks' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(main.callsTo('tasks:list').at(-1)).toMatchObject({ favourite: true });
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(useAppStore.getState().tasksFilter).toEqual({
      search: '',
      groups: [],
      favourite: false,
      provider: '',
    });
  });

  it('menu "focus search" focuses the task search', async () => {
    const { main } = await startWiredApp();
    act(() => main.send('menu:command', { command: 'focus-search' }));
    await waitFor(() => expect(document.activeElement).toBe(search()));
  });
});
