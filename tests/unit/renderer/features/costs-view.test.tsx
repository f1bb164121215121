/**
 * The Costs screen: reached from the sidebar (and Ctrl+3), totals per unit that never add two
 * units together, a chart per day and per service that reads as figures, each task with its
 * cost, a period and a service filter sent to main, and the CSV saved where main's dialog said.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { TaskCost } from '../../../../shared/domain/task-cost';
import { startApp } from '../render-app';

const COSTS: { cost: TaskCost; provider?: 'bfl' }[] = [
  { cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' } },
  { cost: { source: 'estimated', micros: 20_000, unit: 'USD', basis: 'image' } },
  {
    cost: { source: 'reported', micros: 3_000_000, unit: 'credits', field: 'cost' },
    provider: 'bfl',
  },
  { cost: { source: 'unknown' } },
];

async function openCosts() {
  const now = Date.now();
  const started = await startApp({
    prepare: (fake) =>
      fake.seedTasks(COSTS.length, (index) => ({
        status: 'completed',
        createdAt: now - index * 60_000,
        ...COSTS[index],
      })),
  });
  await started.user.click(screen.getByRole('button', { name: /^Costs/ }));
  await screen.findByRole('heading', { level: 2, name: 'Totals' });
  return { ...started, view: within(document.querySelector<HTMLElement>('.costs-view')!) };
}

it('shows totals per unit, with the estimated part, and the tasks of unknown cost', async () => {
  const { view } = await openCosts();
  const totals = view.getAllByRole('listitem').map((item) => item.textContent);
  expect(totals).toEqual(['3 credits', '$0.06of which estimated: $0.02']);
  expect(screen.getByText('Tasks of unknown cost: 1')).toBeTruthy();
});

it('draws a chart per day and per service for each unit, as a table of figures', async () => {
  await openCosts();
  const perService = screen.getByRole('table', { name: 'Per service, in USD' });
  const rows = within(perService).getAllByRole('row');
  expect(rows.map((row) => row.textContent)).toEqual(['Image task service$0.06']);
  expect(screen.getByRole('table', { name: 'Per day, in credits' })).toBeTruthy();
  expect(screen.getByRole('table', { name: 'Per service, in credits' }).textContent).toContain(
    '3 credits',
  );
});

it('lists each task with its cost and source', async () => {
  await openCosts();
  const list = screen.getByRole('table', { name: '' });
  const cells = within(list)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.lastElementChild?.textContent);
  expect(cells).toEqual([
    '$0.04 (reported)',
    '$0.02 (estimate)',
    '3 credits (reported)',
    'cost unknown',
  ]);
});

it('asks main for the period and service chosen, and says where the CSV was saved', async () => {
  const { user, fake, view } = await openCosts();
  await user.selectOptions(view.getByLabelText('Period'), 'All time');
  await user.selectOptions(view.getByLabelText('Service'), 'bfl');
  await waitFor(() => expect(fake.callsTo('costs:ledger').at(-1)).toEqual({ provider: 'bfl' }));
  const now = new Date();
  const monthStart = new Date(now.getFullYear(), now.getMonth(), 1).getTime();
  expect(fake.callsTo('costs:ledger')[0]).toEqual({ since: monthStart });
  await waitFor(() => expect(screen.queryByText('$0.06')).toBeNull());
  await user.click(screen.getByRole('button', { name: 'Export CSV' }));
  expect(
    await screen.findByText('The costs were saved to /home/ada/Downloads/pictor-costs.csv.'),
  ).toBeTruthy();
  expect(fake.callsTo('costs:exportCsv')).toEqual([{ provider: 'bfl' }]);
});

it('starts the last 30 days at a local midnight by the calendar', async () => {
  const { user, fake, view } = await openCosts();
  await user.selectOptions(view.getByLabelText('Period'), 'Last 30 days');
  const now = new Date();
  const since = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29).getTime();
  await waitFor(() => expect(fake.callsTo('costs:ledger').at(-1)).toEqual({ since }));
});

it('says so when no task has a cost yet', async () => {
  const { user } = await startApp();
  await user.click(screen.getByRole('button', { name: /^Costs/ }));
  expect(await screen.findByText('No costs yet')).toBeTruthy();
});

it('reads the ledger again while shown when a task’s cost arrives late', async () => {
  const { fake, view } = await openCosts();
  const [first] = fake.callsTo('costs:ledger');
  expect(first).toBeDefined();
  const task = fake.task('seed-000003')!;
  act(() => {
    fake.updateTask(task.localId, {
      cost: { source: 'reported', micros: 1_000_000, unit: 'USD', field: 'usage.cost' },
    });
  });
  await waitFor(() =>
    expect(view.getAllByRole('listitem').map((item) => item.textContent)).toContain(
      '$1.06of which estimated: $0.02',
    ),
  );
});
