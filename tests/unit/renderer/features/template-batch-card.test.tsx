/**
 * A template's batch card, over the app's real wiring: its tasks in the order the template
 * expanded them (the history lists one submit's tasks by their random local ids), its head naming
 * the template and its number of prompts (the prompts a click away, in that order) rather than one
 * of them; its Rerun sends each task's own prompt, once, as one new batch shown the same way; and
 * "Use this prompt" says its count with the catalogue's plural.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { DEMO_ENDPOINT } from '../../../../shared/domain/submit-target';
import { makeImage } from '../../../support/task-records';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp } from '../render-wired-app';

const PROMPTS = ['at dawn', 'at noon', 'at dusk'].flatMap((time) =>
  ['sketch', 'poster'].map((kind) => `A red fox on a hill ${time}, ink ${kind}`),
);
const TEMPLATE = {
  id: '5b1e0c3a-9d2f-4e61-8a7b-3c4d5e6f7a80',
  name: 'Fox studies',
  version: 1,
  values: { subject: 'red fox' },
  mode: 'combinatorial',
} as const;
/** Each seeded task's place in the batch: the local ids (the history's order) say another. */
const PLACES = [3, 0, 5, 1, 4, 2];

/** One run of the template on the built-in demo: six prompts, one task each, one moment. */
function seedTemplateBatch(main: WiredApi): TaskRecord[] {
  return seedHistory(main, 6, (n) => ({
    batchId: 'seed-fox-batch',
    batchIndex: PLACES[n]!,
    request: { prompt: PROMPTS[PLACES[n]!]!, size: '64x64' },
    endpoint: DEMO_ENDPOINT,
    createdAt: Date.UTC(2026, 0, 15, 12),
    status: 'completed',
    images: [makeImage(0)],
    template: TEMPLATE,
  }));
}

const cards = (): HTMLElement[] => [...document.querySelectorAll<HTMLElement>('.task-batch')];
const names = (card: HTMLElement): (string | null)[] =>
  within(card)
    .getAllByRole('article')
    .map((tile) => tile.getAttribute('aria-label'));

describe('a template’s batch card', () => {
  it('lists its tasks in the order the template expanded them, under the template’s name', async () => {
    const { user } = await startWiredApp({ prepare: (main) => void seedTemplateBatch(main) });
    const [card] = cards();
    expect(names(card!)).toEqual(PROMPTS);
    // Their positions in the feed follow what is shown, so the keyboard walks the same order.
    const positions = within(card!)
      .getAllByRole('article')
      .map((tile) => tile.getAttribute('aria-posinset'));
    expect(positions).toEqual(['1', '2', '3', '4', '5', '6']);
    const head = card!.querySelector<HTMLElement>('.task-batch__head')!;
    const heading = within(head).getByRole('button', { name: 'Template “Fox studies”, 6 prompts' });
    expect(within(head).queryByText(PROMPTS[0]!)).toBeNull();
    expect(head.textContent).toContain('6 tasks');
    await user.click(heading);
    const list = within(within(card!).getByRole('note')).getAllByRole('listitem');
    expect(list.map((item) => item.textContent)).toEqual(PROMPTS);
  });

  it('says its count in "Use this prompt" with the plural form', async () => {
    await startWiredApp({ prepare: (main) => void seedTemplateBatch(main) });
    const reuse = within(cards()[0]!).getByRole('button', { name: 'Use this prompt' });
    expect(reuse.getAttribute('title')).toBe(
      'Puts the request, its service and 1 task back in the form.',
    );
    const rerun = within(cards()[0]!).getByRole('button', { name: 'Rerun' });
    expect(rerun.getAttribute('title')).toBe(
      'Sends each task’s request again as a new batch of 6 tasks, on the same service.',
    );
  });

  // A main of its own: the six new tasks on the built-in demo are still running when it ends.
  it('reruns as a new batch of the six prompts, each once, shown in the same order', async () => {
    let seeded: TaskRecord[] = [];
    const { user, main } = await startWiredApp({
      prepare: (wired) => void (seeded = seedTemplateBatch(wired)),
    });
    const shown = within(cards()[0]!)
      .getAllByRole('article')
      .map((tile) => tile.dataset['localId']);
    await user.click(within(cards()[0]!).getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(main.callsTo('tasks:resend')).toEqual([{ localIds: shown, as: 'batch' }]);
    const fresh = cards()[0]!;
    expect(names(fresh)).toEqual(PROMPTS);
    expect(
      within(fresh).getByRole('button', { name: 'Template “Fox studies”, 6 prompts' }),
    ).toBeTruthy();
    expect(await screen.findByText('Sent again as a new batch of 6 tasks.')).toBeTruthy();
    // Main made six new tasks of one new batch; the seeded ones are as they were.
    const made = within(fresh)
      .getAllByRole('article')
      .map((tile) => main.runtime.core.history.get(tile.dataset['localId']!)!);
    expect(made.map((record) => record.request.prompt)).toEqual(PROMPTS);
    expect(new Set(made.map((record) => record.batchId))).toEqual(new Set([made[0]!.localId]));
    expect(made.every((record) => record.template?.name === 'Fox studies')).toBe(true);
    for (const record of seeded) {
      expect(main.runtime.core.history.get(record.localId)).toEqual(record);
    }
  });
});
