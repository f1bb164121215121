/**
 * Batch rows show their content: every result is reachable (buttons at the strip's ends when it
 * holds more than it shows), the prompt is not cut to a few words (two lines, and all of it on a
 * click), and each result has a task's own actions (favourite, details, remove).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeImage, type FakePictorApi } from '../../../fakes/fake-pictor-api';
import { giveOverflow, startApp } from '../render-app';

const PROMPT = `A lighthouse keeper's cat watching the storm from the lantern room, ${'rain on glass, '.repeat(8)}oil painting`;

function seedBatch(fake: FakePictorApi): void {
  fake.seedTasks(10, () => ({
    batchId: 'seed-000000',
    prompt: PROMPT,
    createdAt: Date.UTC(2026, 0, 15, 12, 0, 0),
    status: 'completed',
    images: [makeImage(0)],
  }));
}

const batch = (): HTMLElement => document.querySelector<HTMLElement>('.task-batch')!;

afterEach(() => {
  delete (HTMLElement.prototype as { scrollBy?: unknown }).scrollBy;
});

describe('a batch row', () => {
  it('offers its hidden results with buttons at the strip’s ends, and only when some are hidden', async () => {
    const scrolled: unknown[] = [];
    HTMLElement.prototype.scrollBy = function (options?: ScrollToOptions | number) {
      scrolled.push(options);
    } as HTMLElement['scrollBy'];
    giveOverflow('.task-batch__tiles');
    const { user } = await startApp({ prepare: seedBatch });
    const later = within(batch()).getByRole('button', { name: 'Show later results of this batch' });
    // At the start: nothing earlier to show.
    expect(
      within(batch()).getByRole('button', { name: 'Show earlier results of this batch' }),
    ).toHaveProperty('disabled', true);
    await user.click(later);
    expect(scrolled).toEqual([expect.objectContaining({ left: expect.any(Number) })]);
    expect((scrolled[0] as ScrollToOptions).left).toBeGreaterThan(0);
  });

  it('has no such buttons when every result shows', async () => {
    await startApp({ prepare: seedBatch });
    expect(within(batch()).queryByRole('button', { name: /results of this batch/ })).toBeNull();
  });

  it('shows the whole prompt on a click, and hides it on Escape', async () => {
    const { user } = await startApp({ prepare: seedBatch });
    const toggle = within(batch()).getByRole('button', { name: PROMPT });
    expect(toggle.getAttribute('title')).toBe(PROMPT);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const full = within(batch()).getByRole('note');
    expect(full.textContent).toBe(PROMPT);
    await user.keyboard('{Escape}');
    expect(within(batch()).queryByRole('note')).toBeNull();
  });

  it('gives each result a task’s own actions', async () => {
    const { user, fake } = await startApp({ prepare: seedBatch });
    const tiles = within(batch()).getAllByRole('article');
    expect(tiles).toHaveLength(10);
    const third = tiles[2]!;
    const localId = third.dataset['localId']!;
    await user.click(within(third).getByRole('button', { name: 'Favourite' }));
    await waitFor(() => expect(fake.task(localId)?.favourite).toBe(true));
    expect(
      within(third).getByRole('button', { name: 'Favourite' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await user.click(within(third).getByRole('button', { name: 'Remove from history' }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(fake.task(localId)).toBeUndefined());
    expect(within(batch()).getAllByRole('article')).toHaveLength(9);
  });
});
