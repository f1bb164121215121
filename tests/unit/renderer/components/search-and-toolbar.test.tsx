import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SearchInput } from '../../../../renderer/components/search-input';
import { Toolbar } from '../../../../renderer/components/toolbar';
import { MAX_SEARCH_CHARS } from '../../../../shared/domain/limits';
import { requests } from '../../../../shared/ipc/contract';

describe('SearchInput', () => {
  it('is labelled, takes no more than a search request may carry, and searches on Enter', async () => {
    const user = userEvent.setup();
    const onEnter = vi.fn();
    const Harness = () => {
      const [text, setText] = useState('');
      return (
        <SearchInput
          className="bar__search"
          label="Search prompts"
          placeholder="Search"
          value={text}
          onChange={setText}
          onEnter={() => onEnter(text)}
        />
      );
    };
    render(<Harness />);
    const field = screen.getByRole('searchbox', { name: 'Search prompts' }) as HTMLInputElement;
    expect(field.closest('.search-input')?.classList.contains('bar__search')).toBe(true);
    expect(field.maxLength).toBe(MAX_SEARCH_CHARS);
    await user.type(field, 'fox{Enter}');
    expect(onEnter).toHaveBeenCalledExactlyOnceWith('fox');
    await user.clear(field);
    await user.paste('y'.repeat(MAX_SEARCH_CHARS + 20));
    expect(field.value).toHaveLength(MAX_SEARCH_CHARS);
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
