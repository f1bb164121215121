/**
 * The task list's Service filter offers the built-in demo as a service of its own and filters
 * by the service each row names (shared/domain/service-id.ts): the demo's tasks, which their rows
 * name "Built-in demo service", are found under it and no longer under "Image task service",
 * whatever dialect the demo spoke. Main's real history answers (core/history/service-filter.ts).
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedHistory, startWiredApp } from '../render-wired-app';

const DEMO = 'Built-in demo service';
const OWN = 'Image task service';
const ENDPOINTS = ['https://images.example.test', 'demo:', 'demo:fal'] as const;

/** The prompts of the rows the list shows. */
const shownPrompts = () =>
  screen
    .getAllByRole('article')
    .map((row) => /task (\d)/.exec(row.textContent ?? '')?.[0])
    .sort();

describe('the task list’s Service filter', () => {
  it('offers the built-in demo and finds its tasks there, not under the service it stood in for', async () => {
    const { user, main } = await startWiredApp({
      prepare: (wired) =>
        void seedHistory(wired, 3, (i) => ({
          prompt: `task ${i}`,
          endpoint: ENDPOINTS[i]!,
          ...(i === 2 ? { provider: 'fal' as const } : {}),
        })),
    });
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3), {
      timeout: 10_000,
    });
    const bar = screen.getByRole('toolbar', { name: 'Filter by status' });
    const filter = within(bar).getByRole('combobox', { name: 'Service' });
    expect(within(filter).getByRole('option', { name: DEMO })).toBeTruthy();

    await user.selectOptions(filter, within(filter).getByRole('option', { name: DEMO }));
    await waitFor(() =>
      expect(main.callsTo('tasks:list').at(-1)).toMatchObject({ provider: 'demo' }),
    );
    await waitFor(() => expect(shownPrompts()).toEqual(['task 1', 'task 2']), { timeout: 10_000 });

    await user.selectOptions(filter, within(filter).getByRole('option', { name: OWN }));
    await waitFor(() => expect(shownPrompts()).toEqual(['task 0']), { timeout: 10_000 });
  });
});
