/**
 * What a task cost, on its row and in its details: the amount in its unit and where Pictor learned
 * it (reported, estimate, not billed, unknown); a task from before costs shows none.
 */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { TaskCost } from '../../../../shared/domain/task-cost';
import { seedHistory, startWiredApp } from '../render-wired-app';
import { sharedWiredMain } from '../shared-wired-main';

/** Main's own history (tests/support/wired-api.ts), one runtime for the file. */
const main = sharedWiredMain();

const COSTS: (TaskCost | undefined)[] = [
  { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
  { source: 'estimated', micros: 2_500_000, unit: 'credits', basis: 'megapixel' },
  { source: 'not_billed' },
  { source: 'unknown' },
  undefined,
];

async function seeded() {
  return startWiredApp({
    main,
    prepare: (wired) =>
      void seedHistory(wired, COSTS.length, (index) => {
        const cost = COSTS[index];
        return { status: 'completed', ...(cost ? { cost } : {}) };
      }),
  });
}

it('shows each row’s cost with its source, and nothing for a task from before costs', async () => {
  await seeded();
  const metas = screen
    .getAllByRole('article')
    .map((row) => row.querySelector('.task-row__meta')?.textContent ?? '');
  expect(metas[0]).toContain('$0.04 (reported)');
  expect(metas[1]).toContain('2.5 credits (estimate)');
  expect(metas[2]).toContain('not billed');
  expect(metas[3]).toContain('cost unknown');
  expect(metas[4]).not.toMatch(/\$|credits|billed|unknown/);
});

it('says in the details where the cost comes from', async () => {
  const { user } = await seeded();
  const costOf = async (index: number) => {
    const row = screen.getAllByRole('article')[index]!;
    await user.click(within(row).getByRole('button', { name: 'Details' }));
    const details = screen.getByRole('dialog', { name: 'Task details' });
    const text = within(details).queryByText('Cost')?.nextElementSibling?.textContent ?? null;
    await user.keyboard('{Escape}');
    return text;
  };
  // In words; the field the service said it in is on hover (features/task-details-service.test.tsx).
  expect(await costOf(0)).toBe('$0.04, reported by the service');
  expect(await costOf(1)).toBe('2.5 credits, estimated from your price per megapixel');
  expect(await costOf(2)).toBe('not billed');
  expect(await costOf(4)).toBeNull();
});
