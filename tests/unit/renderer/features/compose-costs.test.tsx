/**
 * The compose form says what the submit would cost before it is sent (main's estimate for the
 * chosen service, model, size and count), and what the spending caps say of it in time: a
 * forecast worded in the window's language from main's data, Generate showing that it is
 * blocked (a hard cap) or warned (a soft cap), a link to Settings › Costs, and the spent figure
 * read again as costs are reported. After a refused submit, the refusal says it once.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { CostPrice, SpendingCap } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import { useAppStore } from '../../../../renderer/store/app-store';
import { okValue } from '../../../support/ipc';
import { connectService } from '../dialect-services';
import type { WiredApi } from '../../../support/wired-api';
import { seedHistory, startWiredApp, type WiredAppOptions } from '../render-wired-app';

const DAILY_HARD: SpendingCap = {
  period: 'day',
  unit: 'USD',
  provider: null,
  kind: 'hard',
  micros: 250_000,
};

/** $0.05 an image on `provider`'s every model, estimated. */
const PRICE = (provider: ProviderId = 'pictor'): CostPrice => ({
  provider,
  model: '',
  unit: 'USD',
  basis: 'image',
  micros: 50_000,
});

interface Setup {
  readonly prices?: CostPrice[];
  readonly caps?: SpendingCap[];
  readonly runtime?: WiredAppOptions['runtime'];
  readonly prepare?: (main: WiredApi) => void;
}

/**
 * The app over main with these prices and caps set as Settings sets them, today's contract at a
 * service of the user's own (the built-in demo costs nothing, whatever the prices).
 */
async function startOver({ prices = [PRICE()], caps = [], runtime, prepare }: Setup = {}) {
  let endpoint = '';
  const started = await startWiredApp({
    ...(runtime ? { runtime } : {}),
    prepare: async (main) => {
      endpoint = (await connectService(main, 'pictor')).url;
      for (const price of prices) okValue(await main.api.invoke('costs:setPrice', price));
      for (const cap of caps) okValue(await main.api.invoke('costs:setCap', cap));
      prepare?.(main);
      main.calls.length = 0;
    },
  });
  return { ...started, endpoint };
}

const serviceField = () =>
  within(screen.getByRole('form', { name: 'New task' })).getByRole('combobox', {
    name: 'Service',
  });

const REFUSED =
  'Nothing was sent: $0.00 of your daily hard cap of $0.25 is spent, and this submit adds about $0.30.';

const FORECAST =
  'Generating 6 (about $0.30) would pass your daily cap of $0.25; $0.00 spent today.';

function generate() {
  return screen.getByRole('button', { name: /^Generate/ });
}

/** Starts the app over main set up so, and asks for `count` tasks in the form. */
async function startWith(setup: Setup, count = '6') {
  const started = await startOver(setup);
  const field = screen.getByLabelText('Number of tasks');
  await started.user.clear(field);
  await started.user.type(field, count);
  return started;
}

it('shows the estimate for the count chosen', async () => {
  const { user, main, endpoint } = await startOver();
  const count = screen.getByLabelText('Number of tasks');
  await user.clear(count);
  await user.type(count, '3');
  expect(
    await screen.findByText('This submit costs about $0.15 ($0.05 per task, estimate).'),
  ).toBeTruthy();
  await waitFor(() =>
    expect(main.callsTo('costs:preview').at(-1)).toEqual({
      target: { provider: 'pictor', endpoint },
      request: expect.objectContaining({ size: expect.any(String) }),
      count: 3,
    }),
  );
  expect(generate().textContent).toBe('Generate 3');
});

it('says nothing of cost while Pictor cannot price the submit and no cap speaks', async () => {
  const { main } = await startOver({ prices: [] });
  await waitFor(() => expect(main.callsTo('costs:preview').length).toBeGreaterThan(0));
  expect(document.querySelector('.compose__cost')).toBeNull();
});

it('forecasts a hard cap in time, and Generate shows it is blocked', async () => {
  await startWith({ caps: [DAILY_HARD] });
  const forecast = await screen.findByText(FORECAST);
  expect(forecast.textContent).not.toMatch(/Nothing was submitted/);
  expect(screen.getByText(/^Pictor will not send it/)).toBeTruthy();
  const button = generate();
  expect(button.textContent).toContain('over your hard cap');
  const describedBy = button.getAttribute('aria-describedby') ?? '';
  expect(document.getElementById(describedBy)?.textContent).toContain(FORECAST);
});

it('forecasts a soft cap, for one service, and Generate shows it is warned', async () => {
  const soft: SpendingCap = { ...DAILY_HARD, kind: 'soft', provider: 'fal', period: 'month' };
  // fal.ai has spent $0.10 this month; the form is on fal.ai.
  const { user } = await startWith({
    prices: [PRICE('fal')],
    caps: [soft],
    prepare: (main) =>
      void seedHistory(main, 1, () => ({
        provider: 'fal',
        createdAt: Date.now() - 1_000,
        finishedAt: Date.now(),
        cost: { source: 'reported', micros: 100_000, unit: 'USD', field: 'usage.cost' },
      })),
  });
  await user.selectOptions(serviceField(), 'fal');
  expect(
    await screen.findByText(
      'Generating 6 (about $0.30) would pass your soft monthly cap of $0.25 for fal.ai; $0.10 spent this month.',
    ),
  ).toBeTruthy();
  expect(screen.getByText('It is a soft cap: you can still generate.')).toBeTruthy();
  expect(generate().textContent).toContain('over your soft cap');
});

it('forecasts what a hard cap cannot count: the missing price', async () => {
  const credits: SpendingCap = { ...DAILY_HARD, unit: 'credits', micros: 5_000_000 };
  // fal.ai has a price in dollars only.
  const { user } = await startWith({ prices: [PRICE('fal')], caps: [credits] });
  await user.selectOptions(serviceField(), 'fal');
  const model = screen.getByRole('combobox', { name: 'Model' });
  await user.clear(model);
  await user.type(model, 'fal-ai/flux/dev');
  expect(
    await screen.findByText(
      'Your hard daily cap in credits cannot count this submit: fal.ai has no price in credits for the model fal-ai/flux/dev.',
    ),
  ).toBeTruthy();
  expect(generate().textContent).toContain('over your hard cap');
});

it('after a refused submit, says the refusal once and keeps what was typed', async () => {
  // Main's refusal, worded from its data: the cap, what it spent, what the submit adds.
  const { user, main } = await startWith({ caps: [DAILY_HARD] });
  await screen.findByText(FORECAST);
  const prompt = screen.getByRole('textbox', { name: /Prompt/ });
  await user.type(prompt, 'a harbour at dawn{Enter}');
  const refusal = await screen.findByText(REFUSED);
  expect(refusal.textContent).not.toMatch(/USD/);
  // One refusal: the forecast says nothing more, and Generate no longer repeats it.
  expect(screen.queryByText(FORECAST)).toBeNull();
  expect(screen.getAllByText(/daily hard cap of \$0\.25/)).toHaveLength(1);
  expect(generate().textContent).toBe('Generate 6');
  expect((prompt as HTMLTextAreaElement).value).toBe('a harbour at dawn');
  expect(screen.getByRole('button', { name: 'Prices and caps' })).toBeTruthy();
  expect(main.callsTo('tasks:submit')).toHaveLength(1);
  expect(main.runtime.core.history.taskIds({}, 10)).toEqual([]);
});

it('refuses for the cap first, then links each missing price to its field in Settings', async () => {
  // Two BFL tasks of today (a compare) have no price in dollars; the period spent $0.20 on
  // today's contract, over the $0.25 cap with this submit.
  const { user } = await startWith(
    {
      caps: [DAILY_HARD],
      prepare: (main) => {
        const createdAt = Date.now() - 1_000;
        const unknown = { source: 'unknown' } as const;
        seedHistory(main, 2, (at) => ({
          localId: `bfl-${at}`,
          provider: 'bfl',
          createdAt,
          cost: unknown,
        }));
        const paid = {
          source: 'reported',
          micros: 100_000,
          unit: 'USD',
          field: 'usage.cost',
        } as const;
        seedHistory(main, 2, (at) => ({ localId: `paid-${at}`, createdAt, cost: paid }));
      },
    },
    '2',
  );
  // In time too: the sum first, then the price the cap lacks.
  expect(
    await screen.findByText(
      'Generating 2 (about $0.10) would pass your daily cap of $0.25; $0.20 spent today.',
    ),
  ).toBeTruthy();
  expect(screen.getByText(/cannot count 2 tasks of Black Forest Labs from today/)).toBeTruthy();
  const prompt = screen.getByRole('textbox', { name: /Prompt/ });
  await user.type(prompt, 'a harbour at dawn{Enter}');
  expect(
    await screen.findByText(
      'Nothing was sent: $0.20 of your daily hard cap of $0.25 is spent, and this submit adds about $0.10.',
    ),
  ).toBeTruthy();
  const missing = screen.getByText(
    /Your hard daily cap in USD cannot count 2 tasks of Black Forest Labs from today/,
  );
  await user.click(
    within(missing).getByRole('link', { name: 'Set a price in USD for Black Forest Labs' }),
  );
  await waitFor(() => expect(useAppStore.getState().view).toBe('settings'));
  const prices = await screen.findByRole('form', { name: 'Prices' });
  const amount = within(prices).getByRole('textbox', { name: 'Amount' });
  await waitFor(() => expect(document.activeElement).toBe(amount));
  expect(within(prices).getByRole<HTMLSelectElement>('combobox', { name: 'Service' }).value).toBe(
    'bfl',
  );
  expect(within(prices).getByRole<HTMLSelectElement>('combobox', { name: 'Unit' }).value).toBe(
    'USD',
  );
});

it('links to Settings › Costs, which takes the focus', async () => {
  const { user } = await startWith({ caps: [DAILY_HARD] });
  await screen.findByText(FORECAST);
  await user.click(screen.getByRole('button', { name: 'Prices and caps' }));
  await waitFor(() => expect(useAppStore.getState().view).toBe('settings'));
  const group = await screen.findByRole('group', { name: 'Prices and caps' });
  await waitFor(() => expect(document.activeElement).toBe(group));
  expect(within(group).getByRole('form', { name: 'Spending caps' })).toBeTruthy();
});

it('reads the spent figure again when a task’s cost is reported', async () => {
  const soft = { ...DAILY_HARD, kind: 'soft' } as const;
  // The built-in demo reports each finished task's cost: $0.04.
  const { main } = await startWith({
    caps: [soft],
    runtime: {
      demo: { durationMs: 100, cost: { where: 'late', usage: { cost: 0.04, currency: 'USD' } } },
    },
  });
  await screen.findByText(/\$0\.00 spent today/);
  const asked = main.callsTo('costs:preview').length;
  await main.generate(['a task that reports its cost']);
  expect(await screen.findByText(/\$0\.04 spent today/)).toBeTruthy();
  expect(main.callsTo('costs:preview').length).toBeGreaterThan(asked);
});
