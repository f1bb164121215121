/**
 * Sending again has one way from the window: a task's "Submit again", a batch's Rerun and the
 * selection's "Submit again" each name their tasks on `tasks:resend` (never another channel), and
 * main (the real one) prices them, asks its own over-cap dialog before a hard cap, and refuses
 * with the cap's sentence when the user says no; the window shows that refusal the same way for
 * all three, and nothing is stored or sent.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { OverCapPrompts, OverCapQuestion } from '../../../../electron/ports/user-prompts';
import { makeImage } from '../../../support/task-records';
import { seedHistory, startWiredApp } from '../render-wired-app';

const FAL = { provider: 'fal', endpoint: 'https://queue.fal.run' } as const;
const PRICE = { provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 20_000 } as const;
/** Less than one task: every send again passes it. */
const HARD = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1_000 } as const;
const CAP_SENTENCE = /^Nothing was submitted: this would pass your daily spending cap/;

function refusingDialog() {
  const asked: OverCapQuestion[] = [];
  const port: OverCapPrompts = {
    confirmOverHardCap: async (question) => {
      asked.push(question);
      return false;
    },
  };
  return { asked, port };
}

describe('sending again, one way', () => {
  it('Submit again, a batch’s Rerun and the selection’s go through tasks:resend and meet the cap alike', async () => {
    const dialog = refusingDialog();
    const { user, main } = await startWiredApp({
      overCapPrompts: dialog.port,
      prepare: (wired) => {
        // The newest first: one failed task alone, then a batch of three completed ones.
        seedHistory(wired, 4, (i) => ({
          ...FAL,
          request: { prompt: `Prompt number ${String(i)}`, model: 'fal-ai/flux/dev' },
          ...(i === 0
            ? { status: 'failed', error: { kind: 'server', message: 'The service failed.' } }
            : { status: 'completed', batchId: 'seed-000001', images: [makeImage(0)] }),
        }));
        wired.runtime.core.costs.setPrice(PRICE);
        wired.runtime.core.costs.setCap(HARD);
      },
    });
    const history = main.runtime.core.history;
    const before = history.count({});
    const shownRefusals: string[] = [];
    const refusedAgain = async (times: number) => {
      await waitFor(() => expect(dialog.asked).toHaveLength(times));
      const toasts = await screen.findByRole('region', { name: 'Errors' });
      await waitFor(() =>
        expect(within(toasts).getAllByRole('alert').at(-1)?.textContent).toMatch(CAP_SENTENCE),
      );
      shownRefusals.push(within(toasts).getAllByRole('alert').at(-1)!.textContent!);
    };

    const failedRow = screen.getAllByRole('article')[0]!;
    await user.click(within(failedRow).getByRole('button', { name: 'Submit again' }));
    await refusedAgain(1);

    const batch = document.querySelector<HTMLElement>('.task-batch')!;
    await user.click(within(batch).getByRole('button', { name: 'Rerun' }));
    await refusedAgain(2);

    await user.click(within(failedRow).getByText('Prompt number 0'));
    const bar = screen.getByRole('toolbar', { name: 'Selected tasks' });
    await user.click(within(bar).getByRole('button', { name: 'Submit again' }));
    await refusedAgain(3);

    const batchIds = ['seed-000001', 'seed-000002', 'seed-000003'];
    expect(main.callsTo('tasks:resend')).toEqual([
      { localIds: ['seed-000000'], as: 'each' },
      { localIds: expect.arrayContaining(batchIds), as: 'batch' },
      { localIds: ['seed-000000'], as: 'each', onlyFailed: true },
    ]);
    // Main's dialog asked each time with the cap and the tasks it would add.
    expect(dialog.asked.map((question) => question.tasks)).toEqual([1, 3, 1]);
    expect(dialog.asked.every((question) => question.caps[0]?.micros === HARD.micros)).toBe(true);
    // Shown alike (only the figures may differ), and nothing was stored.
    expect(new Set(shownRefusals.map((text) => text.replace(/\d|\$|\./g, ''))).size).toBe(1);
    expect(history.count({})).toBe(before);
  });
});
