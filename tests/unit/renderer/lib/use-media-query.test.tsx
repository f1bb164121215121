/**
 * useMediaQuery asks the window for a query's list once and reads that live list after: React
 * reads the snapshot at every render and after each commit, and a new `matchMedia` list per read
 * parsed and evaluated the query again each time (the gallery's header asks two at every change
 * the page draws, a star typed included). A change of the list is still drawn, and a window that
 * stands in another `matchMedia` (a test's) is asked again.
 */
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMediaQuery } from '../../../../renderer/lib/use-media-query';

const QUERY = '(max-width: 50rem)';

/** A window whose one list matches as the test says, and tells its listeners. */
function standIn(matches: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    matches,
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
  };
  const matchMedia = vi.fn(() => list);
  vi.stubGlobal('matchMedia', matchMedia);
  return {
    matchMedia,
    change(next: boolean) {
      list.matches = next;
      act(() => listeners.forEach((listener) => listener()));
    },
  };
}

let draw: (() => void) | null = null;

function Narrow() {
  const narrow = useMediaQuery(QUERY);
  const [, setDrawn] = useState(0);
  draw = () => setDrawn((n) => n + 1);
  return <p>{narrow ? 'narrow' : 'wide'}</p>;
}

afterEach(() => {
  vi.unstubAllGlobals();
  draw = null;
});

describe('useMediaQuery', () => {
  it('asks the window once for a query, however often it is drawn', () => {
    const stand = standIn(false);
    render(
      <>
        <Narrow />
        <Narrow />
      </>,
    );
    for (let n = 0; n < 5; n += 1) act(() => draw?.());
    expect(screen.getAllByText('wide')).toHaveLength(2);
    expect(stand.matchMedia).toHaveBeenCalledTimes(1);
  });

  it('draws the list’s change, and asks a window that stands in another matchMedia', () => {
    const first = standIn(false);
    const { unmount } = render(<Narrow />);
    first.change(true);
    expect(screen.getByText('narrow')).toBeTruthy();
    unmount();
    const second = standIn(false);
    render(<Narrow />);
    expect(screen.getByText('wide')).toBeTruthy();
    expect(second.matchMedia).toHaveBeenCalledTimes(1);
  });
});
