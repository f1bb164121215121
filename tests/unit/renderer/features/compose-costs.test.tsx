/**
 * The compose form says what the submit would cost before it is sent (main's estimate for the
 * chosen service, model, size and count), and what the spending caps say of it in time: a
 * forecast worded in the window's language from main's data, Generate showing that it is
 * blocked (a hard cap) or warned (a soft cap), a link to Settings › Costs, and the spent figure
 * read again as costs are reported. After a refused submit, the refusal says it once.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { SpendingCap } from '../../../../shared/domain/cost-ledger';
import { englishText, sentence } from '../../../../shared/i18n/sentence';
import type { CapForecast, CostPreviewAnswer } from '../../../../shared/ipc/cost-contract';
import { useAppStore } from '../../../../renderer/store/app-store';
import type { FakePictorApi } from '../../../fakes/fake-pictor-api';
import { startApp } from '../render-app';

const DAILY_HARD: SpendingCap = {
  period: 'day',
  unit: 'USD',
  provider: null,
  kind: 'hard',
  micros: 250_000,
};

function over(cap: SpendingCap, spentMicros: number, addingMicros: number): CapForecast {
  return {
    cap,
    verdict: 'over',
    spentMicros,
    addingMicros,
    service: 'pictor',
    model: '',
    tasks: 0,
  };
}

function preview(caps: CapForecast[], count = 6): CostPreviewAnswer {
  return {
    perTask: { source: 'estimated', micros: 50_000, unit: 'USD', basis: 'image' },
    count,
    caps,
  };
}

const HARD = sentence('error.costs.hardCap', {
  period: 'day',
  cap: '0.25',
  unit: 'USD',
  scope: 'all',
  service: 'Image task service',
  spent: '0',
  adding: '0.3',
});

const FORECAST =
  'Generating 6 (about $0.30) would pass your daily cap of $0.25; $0.00 spent today.';

function generate() {
  return screen.getByRole('button', { name: /^Generate/ });
}

/** Starts the app with main's preview set, and asks for `count` tasks in the form. */
async function startWith(
  answer: CostPreviewAnswer,
  count = '6',
  prepare = (_: FakePictorApi) => {},
) {
  const started = await startApp({
    prepare: (f) => {
      f.costs.preview = answer;
      prepare(f);
    },
  });
  const field = screen.getByLabelText('Number of tasks');
  await started.user.clear(field);
  await started.user.type(field, count);
  return started;
}

it('shows the estimate for the count chosen', async () => {
  const { user, fake } = await startApp({
    prepare: (f) => {
      f.costs.preview = preview([], 1);
    },
  });
  const count = screen.getByLabelText('Number of tasks');
  await user.clear(count);
  await user.type(count, '3');
  expect(
    await screen.findByText('This submit costs about $0.15 ($0.05 per task, estimate).'),
  ).toBeTruthy();
  await waitFor(() =>
    expect(fake.callsTo('costs:preview').at(-1)).toEqual({
      target: { provider: 'pictor', endpoint: 'demo:' },
      request: expect.objectContaining({ size: expect.any(String) }),
      count: 3,
    }),
  );
  expect(generate().textContent).toBe('Generate 3');
});

it('says nothing of cost while Pictor cannot price the submit and no cap speaks', async () => {
  const { fake } = await startApp();
  await waitFor(() => expect(fake.callsTo('costs:preview').length).toBeGreaterThan(0));
  expect(document.querySelector('.compose__cost')).toBeNull();
});

it('forecasts a hard cap in time, and Generate shows it is blocked', async () => {
  await startWith(preview([over(DAILY_HARD, 0, 300_000)]));
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
  await startWith(preview([over(soft, 100_000, 300_000)]));
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
  const unpriced: CapForecast = {
    ...over(credits, 0, 0),
    verdict: 'unpriced',
    service: 'fal',
    model: 'fal-ai/flux/dev',
  };
  await startWith(preview([unpriced]));
  expect(
    await screen.findByText(
      'Your hard daily cap in credits cannot count this submit: fal.ai has no price in credits for the model fal-ai/flux/dev.',
    ),
  ).toBeTruthy();
  expect(generate().textContent).toContain('over your hard cap');
});

it('after a refused submit, says the refusal once and keeps what was typed', async () => {
  const { user } = await startWith(preview([over(DAILY_HARD, 0, 300_000)]), '6', (f) =>
    f.fail('tasks:submit', { code: 'bad_input', message: englishText(HARD), sentence: HARD }),
  );
  await screen.findByText(FORECAST);
  const prompt = screen.getByRole('textbox', { name: /Prompt/ });
  await user.type(prompt, 'a harbour at dawn{Enter}');
  const refusal = await screen.findByText(englishText(HARD));
  expect(refusal.textContent).toContain('daily spending cap of $0.25');
  expect(refusal.textContent).not.toMatch(/USD/);
  // One refusal: the forecast says nothing more, and Generate no longer repeats it.
  expect(screen.queryByText(FORECAST)).toBeNull();
  expect(screen.getAllByText(/would pass your daily/)).toHaveLength(1);
  expect(generate().textContent).toBe('Generate 6');
  expect((prompt as HTMLTextAreaElement).value).toBe('a harbour at dawn');
  expect(screen.getByRole('button', { name: 'Prices and caps' })).toBeTruthy();
});

it('links to Settings › Costs, which takes the focus', async () => {
  const { user } = await startWith(preview([over(DAILY_HARD, 0, 300_000)]));
  await screen.findByText(FORECAST);
  await user.click(screen.getByRole('button', { name: 'Prices and caps' }));
  await waitFor(() => expect(useAppStore.getState().view).toBe('settings'));
  const group = await screen.findByRole('group', { name: 'Prices and caps' });
  await waitFor(() => expect(document.activeElement).toBe(group));
  expect(within(group).getByRole('form', { name: 'Spending caps' })).toBeTruthy();
});

it('reads the spent figure again when a task’s cost is reported', async () => {
  let seeded = '';
  const soft = { ...DAILY_HARD, kind: 'soft' } as const;
  const { fake } = await startWith(preview([over(soft, 0, 300_000)]), '6', (f) => {
    seeded = f.seedTasks(1, () => ({ status: 'processing' }))[0]!.localId;
  });
  await screen.findByText(/\$0\.00 spent today/);
  const asked = fake.callsTo('costs:preview').length;
  fake.costs.preview = preview([over(soft, 40_000, 300_000)]);
  fake.updateTask(seeded, {
    cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
  });
  expect(await screen.findByText(/\$0\.04 spent today/)).toBeTruthy();
  expect(fake.callsTo('costs:preview').length).toBeGreaterThan(asked);
});
