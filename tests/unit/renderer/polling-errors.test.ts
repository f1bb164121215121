/**
 * The renderer setup's element errors (polling-errors.ts): a query that does not match yet while
 * `waitFor` polls makes its error without printing the page; a query outside a wait, and a wait
 * whose deadline passed, still print it, once.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

/** A page whose print is recognisable. */
function page(): void {
  const paragraph = document.createElement('p');
  paragraph.textContent = 'printed-page-marker';
  document.body.append(paragraph);
}

/** How many times the page's text is in `error`'s message. */
function prints(error: unknown): number {
  return (error as Error).message.split('printed-page-marker').length - 1;
}

/** What `run` threw. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return expect.fail('nothing was thrown');
}

describe('element errors while a wait polls', () => {
  afterEach(() => document.body.replaceChildren());

  it('leave the page out of a poll that does not match yet', async () => {
    page();
    let polled: unknown;
    await waitFor(() => {
      polled = thrown(() => screen.getByText('absent'));
    });
    expect((polled as Error).name).toBe('TestingLibraryElementError');
    expect((polled as Error).message).toContain('Unable to find an element with the text: absent');
    expect(prints(polled)).toBe(0);
  });

  it('print the page once into a wait that reached its deadline', async () => {
    page();
    // A deadline of 0: the wait checks once, then gives up at the next turn of the loop.
    const late = await screen.findByText('absent', {}, { timeout: 0 }).catch((error) => error);
    expect((late as Error).message).toContain('Unable to find an element with the text: absent');
    expect(prints(late)).toBe(1);
  });

  it('print the page into a query outside a wait', () => {
    page();
    expect(prints(thrown(() => screen.getByText('absent')))).toBe(1);
  });

  it('keep the elements of a query that found several', async () => {
    page();
    page();
    let polled: unknown;
    await waitFor(() => {
      polled = thrown(() => screen.getByText('printed-page-marker'));
    });
    expect((polled as Error).message).toContain('Found multiple elements');
    expect(prints(polled)).toBeGreaterThanOrEqual(2);
  });
});
