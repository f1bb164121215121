import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS, SearchInput } from '../../../../renderer/components/search-input';
import { Toolbar } from '../../../../renderer/components/toolbar';
import { MAX_SEARCH_CHARS } from '../../../../shared/domain/limits';
import { requests } from '../../../../shared/ipc/contract';

describe('SearchInput', () => {
  /** A field over an applied search held by its parent, as the gallery and Tasks hold theirs. */
  function Harness({ onApply }: { onApply: (text: string) => void }) {
    const [applied, setApplied] = useState('');
    return (
      <>
        <SearchInput
          className="bar__search"
          label="Search prompts"
          placeholder="Search"
          applied={applied}
          onApply={(text) => {
            onApply(text);
            setApplied(text);
          }}
        />
        <button type="button" onClick={() => setApplied('')}>
          Clear filters
        </button>
      </>
    );
  }

  it('is labelled, takes no more than a search request may carry, and searches on Enter', async () => {
    const user = userEvent.setup();
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    const field = screen.getByRole('searchbox', { name: 'Search prompts' }) as HTMLInputElement;
    expect(field.closest('.search-input')?.classList.contains('bar__search')).toBe(true);
    expect(field.maxLength).toBe(MAX_SEARCH_CHARS);
    await user.type(field, 'fox{Enter}');
    expect(onApply).toHaveBeenCalledExactlyOnceWith('fox');
    await user.clear(field);
    await user.paste('y'.repeat(MAX_SEARCH_CHARS + 20));
    expect(field.value).toHaveLength(MAX_SEARCH_CHARS);
  });

  it('applies what it shows when the focus leaves it, before the pause ends, and follows an outside clear', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const onApply = vi.fn();
      render(<Harness onApply={onApply} />);
      const field = screen.getByRole('searchbox', { name: 'Search prompts' }) as HTMLInputElement;
      for (const text of ['heron', '', 'kite']) {
        act(() => field.focus());
        fireEvent.change(field, { target: { value: text } });
        // The user presses a button at once: the field is left well inside the pause.
        act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS / 5));
        act(() => field.blur());
        expect(onApply).toHaveBeenLastCalledWith(text);
      }
      // Leaving again with nothing new typed applies nothing twice; nor does the pause ending.
      const calls = onApply.mock.calls.length;
      act(() => field.focus());
      act(() => field.blur());
      act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2));
      expect(onApply).toHaveBeenCalledTimes(calls);
      fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
      expect(field.value).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops where both searches stop: the longest it takes is a search main accepts, one more is not', () => {
    const longest = 'x'.repeat(MAX_SEARCH_CHARS);
    const over = `${longest}x`;
    const tasks = requests['tasks:list'].input;
    const gallery = requests['gallery:list'].input;
    expect(tasks.safeParse({ search: longest }).success).toBe(true);
    expect(tasks.safeParse({ search: over }).success).toBe(false);
    expect(gallery.safeParse({ search: longest }).success).toBe(true);
    expect(gallery.safeParse({ search: over }).success).toBe(false);
  });
});

describe('Toolbar', () => {
  it('is one tab stop named by its label; the arrow keys move between its controls', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Before</button>
        <Toolbar className="chips" label="Filters">
          <button type="button">Failed</button>
          <button type="button">Favourites</button>
        </Toolbar>
        <button type="button">After</button>
      </>,
    );
    expect(screen.getByRole('toolbar', { name: 'Filters' })).toBeTruthy();
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Failed' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Favourites' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
  });

  it('stays one tab stop when a control inside draws itself in later, the toolbar not drawn again', async () => {
    const user = userEvent.setup();
    let show: (shown: boolean) => void = () => undefined;
    /** A control that comes by its own state (as a count's "Select all" when the count arrives). */
    function Later() {
      const [shown, setShown] = useState(false);
      show = setShown;
      return shown ? <button type="button">Select all</button> : null;
    }
    render(
      <>
        <button type="button">Before</button>
        <Toolbar className="chips" label="Filters">
          <button type="button">Failed</button>
          <Later />
        </Toolbar>
        <button type="button">After</button>
      </>,
    );
    act(() => show(true));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Select all' }).tabIndex).toBe(-1),
    );
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Failed' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'After' }));
    // Arrows still reach it, and Tab comes back to it as the control last used.
    screen.getByRole('button', { name: 'Failed' }).focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Select all' }));
  });
});
