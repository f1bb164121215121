/**
 * A part loaded when opened (components/lazy-part.tsx): while its chunk loads, a polite status
 * names what is loading; then the part itself, with its props. Once loaded (or preloaded), a new
 * showing draws it at once. A chunk that fails to load shows the view's error, whose "Try again"
 * loads it again.
 */
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { lazyPart } from '../../../../renderer/components/lazy-part';
import { ViewErrorBoundary } from '../../../../renderer/components/error-boundary';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

/** A load the test settles: `resolve` hands over the component, `reject` fails it. */
function heldLoad() {
  const held: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const load = vi.fn(
    () =>
      new Promise<typeof Greeting>((resolve, reject) => {
        held.push({ resolve: () => resolve(Greeting), reject });
      }),
  );
  return { load, held };
}

describe('a part loaded when opened', () => {
  it('says what is loading until its code is there, then shows it with its props', async () => {
    const { load, held } = heldLoad();
    const part = lazyPart(load, 'settings.loading');
    render(<part.Part name="Ada" />);
    const status = await screen.findByRole('status');
    expect(status.textContent).toBe('Loading settings…');
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByText('Hello Ada')).toBeNull();
    await act(async () => held[0]?.resolve());
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('draws at once once preloaded, loading its code only once', async () => {
    const { load, held } = heldLoad();
    const part = lazyPart(load, 'common.loading');
    const preloaded = part.preload();
    void part.preload();
    held[0]?.resolve();
    await preloaded;
    render(<part.Part name="Grace" />);
    // Synchronously: no loading state in between.
    expect(screen.getByText('Hello Grace')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('shows the view error when its code fails to load, and loads it again on Try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    const { load, held } = heldLoad();
    const part = lazyPart(load, 'common.loading');
    render(
      <ViewErrorBoundary>
        <part.Part name="Lin" />
      </ViewErrorBoundary>,
    );
    await screen.findByRole('status');
    await act(async () => held[0]?.reject(new Error('chunk missing')));
    const again = await screen.findByRole('button', { name: 'Try again' });
    await user.click(again);
    expect(load).toHaveBeenCalledTimes(2);
    await act(async () => held[1]?.resolve());
    expect(await screen.findByText('Hello Lin')).toBeTruthy();
  });

  it('preloads without rejecting when the code fails to load', async () => {
    const { load, held } = heldLoad();
    const part = lazyPart(load, 'common.loading');
    const preloaded = part.preload();
    held[0]?.reject(new Error('chunk missing'));
    await expect(preloaded).resolves.toBeUndefined();
  });
});
