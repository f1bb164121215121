/**
 * Settings › Costs: prices per service and model, and spending caps with what their period has
 * spent, set and removed only by the user's own action there. Amounts are read as people type
 * them in the window's language (German's comma, Arabic's digits, a currency sign, a leading
 * point); every other amount is refused in the form with a sentence naming it and the range
 * allowed, before main hears of it. The caps' "spent so far" follows reported costs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { applyLocale } from '../../../../renderer/i18n';
import { clickScreen, seedHistory, startWiredApp, type WiredAppOptions } from '../render-wired-app';

afterEach(async () => {
  await act(() => applyLocale('en'));
});

function catalogue(tag: string): Record<string, string> {
  const path = resolve(import.meta.dirname, `../../../../renderer/i18n/locales/${tag}.json`);
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
}

/**
 * Settings over main's real prices, caps and ledger (tests/support/wired-api.ts), a main per test
 * (prices and caps set by one test would be the next one's): today has spent $0.03, a task
 * finished a moment ago.
 */
async function openSettings(options: WiredAppOptions = {}) {
  const started = await startWiredApp({
    ...options,
    prepare: (main) => {
      const now = Date.now();
      seedHistory(main, 1, () => ({
        createdAt: now - 1_000,
        finishedAt: now,
        cost: { source: 'reported', micros: 30_000, unit: 'USD', field: 'usage.cost' },
      }));
    },
  });
  await clickScreen(started.user, /^Settings/);
  const prices = await screen.findByRole('form', { name: 'Prices' });
  const caps = screen.getByRole('form', { name: 'Spending caps' });
  return { ...started, prices: within(prices), caps: within(caps) };
}

it('sets a price for a service and model, lists it, and removes it', async () => {
  const { user, main, prices } = await openSettings();
  expect(screen.getByText('No prices set.')).toBeTruthy();
  await user.selectOptions(prices.getByLabelText('Service'), 'fal');
  await user.type(prices.getByLabelText('Model (empty: every model)'), 'flux-dev');
  await user.type(prices.getByLabelText('Amount'), '0.025');
  await user.selectOptions(prices.getByLabelText('Per'), 'megapixel');
  await user.click(prices.getByRole('button', { name: 'Set price' }));
  expect(await screen.findByText('fal.ai, flux-dev: $0.025 per megapixel')).toBeTruthy();
  expect(main.callsTo('costs:setPrice')).toEqual([
    { provider: 'fal', model: 'flux-dev', unit: 'USD', basis: 'megapixel', micros: 25_000 },
  ]);
  const line = screen.getByText('fal.ai, flux-dev: $0.025 per megapixel').closest('li')!;
  await user.click(within(line).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('No prices set.')).toBeTruthy();
  expect(main.callsTo('costs:clearPrice')).toEqual([
    { provider: 'fal', model: 'flux-dev', unit: 'USD' },
  ]);
});

it('takes amounts as people type them: a leading point, a currency sign, a comma', async () => {
  const { user, main, prices } = await openSettings();
  for (const typed of ['.05', '$0.05', '0,05', '0.05 USD']) {
    await user.clear(prices.getByLabelText('Amount'));
    await user.type(prices.getByLabelText('Amount'), typed);
    await user.click(prices.getByRole('button', { name: 'Set price' }));
    await waitFor(() => expect(main.callsTo('costs:setPrice').at(-1)?.micros).toBe(50_000));
  }
  expect(main.callsTo('costs:setPrice')).toHaveLength(4);
});

it.each([
  ['abc', '“abc” is not an amount. Type a number from $0.00 to $1,000,000,000.00, such as $0.04.'],
  ['-1', '“-1” is negative. Type an amount from $0.00 to $1,000,000,000.00.'],
  [
    '0.0000001',
    '“0.0000001” is finer than $0.000001, the smallest step Pictor keeps. Type 0, or an amount from $0.000001 to $1,000,000,000.00.',
  ],
  ['5000000000', '“5000000000” is more than $1,000,000,000.00, the most a cap may be.'],
  ['1,500', '“1,500” could be read as 1500 or as 1.5. Type 1500 or 1.5.'],
  ['€5', '“€5” is not in USD. Type the amount in USD, or choose its unit under Unit.'],
])(
  'refuses the cap %j with a sentence naming it and the range, asking main nothing',
  async (typed, said) => {
    const { user, main, caps } = await openSettings();
    await user.type(caps.getByLabelText('Amount'), typed);
    await user.click(caps.getByRole('button', { name: 'Set cap' }));
    expect(caps.getByText(said)).toBeTruthy();
    expect(main.callsTo('costs:setCap')).toEqual([]);
  },
);

it('refuses a price over the most a price may be, and says the most', async () => {
  const { user, main, prices } = await openSettings();
  await user.type(prices.getByLabelText('Amount'), '5000000');
  await user.click(prices.getByRole('button', { name: 'Set price' }));
  expect(
    prices.getByText('“5000000” is more than $1,000,000.00, the most a price may be.'),
  ).toBeTruthy();
  expect(main.callsTo('costs:setPrice')).toEqual([]);
});

it('reads a German amount with its comma and euro sign, and refuses one in German', async () => {
  const german = catalogue('de');
  const { user, main } = await openSettings();
  await act(() => applyLocale('de'));
  const form = within(await screen.findByRole('form', { name: german['costs.settings.prices'] }));
  await user.selectOptions(form.getByLabelText(german['costs.settings.unit']!), 'EUR');
  const amount = form.getByLabelText(german['costs.settings.amount']!);
  await user.type(amount, '0,05 €');
  await user.click(form.getByRole('button', { name: german['costs.settings.setPrice'] }));
  await waitFor(() =>
    expect(main.callsTo('costs:setPrice').at(-1)).toMatchObject({ unit: 'EUR', micros: 50_000 }),
  );
  expect(await screen.findByText(/0,05\s€ pro Bild$/)).toBeTruthy();
  await user.clear(amount);
  await user.type(amount, '1.500');
  await user.click(form.getByRole('button', { name: german['costs.settings.setPrice'] }));
  const refusal = form.getByText(/1\.500/);
  expect(refusal.textContent).toContain('1500');
  expect(refusal.textContent).toContain('1,5');
  expect(main.callsTo('costs:setPrice')).toHaveLength(1);
});

it('reads an Arabic amount in Arabic digits, and refuses a negative one', async () => {
  const arabic = catalogue('ar');
  const { user, main } = await openSettings();
  await act(() => applyLocale('ar'));
  const form = within(await screen.findByRole('form', { name: arabic['costs.settings.caps'] }));
  const amount = form.getByLabelText(arabic['costs.settings.amount']!);
  await user.type(amount, '٠٫٢٥');
  await user.click(form.getByRole('button', { name: arabic['costs.settings.setCap'] }));
  await waitFor(() => expect(main.callsTo('costs:setCap').at(-1)?.micros).toBe(250_000));
  await user.clear(amount);
  await user.type(amount, '-١');
  await user.click(form.getByRole('button', { name: arabic['costs.settings.setCap'] }));
  expect(form.getByText(/-١/)).toBeTruthy();
  expect(main.callsTo('costs:setCap')).toHaveLength(1);
});

it('follows reported costs in each cap’s “spent so far”', async () => {
  // The built-in demo reports each finished task's cost: $0.04.
  const { main, user } = await startWiredApp({
    runtime: {
      demo: { durationMs: 100, cost: { where: 'late', usage: { cost: 0.04, currency: 'USD' } } },
    },
    prepare: async (main) => {
      await main.api.invoke('costs:setCap', {
        period: 'day',
        unit: 'USD',
        provider: null,
        kind: 'soft',
        micros: 100_000,
      });
    },
  });
  await clickScreen(user, /^Settings/);
  expect(await screen.findByText(/Spent so far: \$0\.00$/)).toBeTruthy();
  await main.generate(['a task that reports its cost']);
  expect(await screen.findByText(/Spent so far: \$0\.04$/)).toBeTruthy();
});

it('sets a hard daily cap over every service, with what the day has spent so far', async () => {
  // Removing a hard cap is asked in main's own dialog: the user agrees there.
  const asked: unknown[] = [];
  const { user, main, caps } = await openSettings({
    capPrompts: { confirmLooserCap: (change) => (asked.push(change), Promise.resolve(true)) },
  });
  expect(screen.getByText('No spending caps set.')).toBeTruthy();
  await user.type(caps.getByLabelText('Amount'), '0.10');
  await user.click(caps.getByRole('button', { name: 'Set cap' }));
  const said = 'Hard cap per day, All services: $0.10. Spent so far: $0.03';
  expect(await screen.findByText(said)).toBeTruthy();
  expect(main.callsTo('costs:setCap')).toEqual([
    { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 100_000 },
  ]);
  await user.click(
    within(screen.getByText(said).closest('li')!).getByRole('button', { name: 'Remove' }),
  );
  await waitFor(() =>
    expect(main.callsTo('costs:clearCap')).toEqual([
      { period: 'day', unit: 'USD', provider: null, kind: 'hard' },
    ]),
  );
  expect(await screen.findByText('No spending caps set.')).toBeTruthy();
  expect(asked).toMatchObject([{ cap: { kind: 'hard', micros: 100_000 }, to: null }]);
});

it('keeps what is typed and chosen in both forms through a language switch', async () => {
  const german = catalogue('de');
  const { user, main, prices, caps } = await openSettings();
  await user.selectOptions(prices.getByLabelText('Service'), 'fal');
  await user.type(prices.getByLabelText('Model (empty: every model)'), 'flux-dev');
  await user.selectOptions(prices.getByLabelText('Unit'), 'EUR');
  await user.type(prices.getByLabelText('Amount'), '0.025');
  await user.selectOptions(prices.getByLabelText('Per'), 'megapixel');
  await user.selectOptions(caps.getByLabelText('Period'), 'month');
  await user.type(caps.getByLabelText('Amount'), '12');
  await user.selectOptions(caps.getByLabelText('Service'), 'replicate');
  await user.selectOptions(caps.getByLabelText('Kind'), 'soft');
  const shown = (form: HTMLElement) =>
    [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')].map(
      (field) => field.value,
    );
  const form = (name: string) => screen.getByRole('form', { name });
  const before = { prices: shown(form('Prices')), caps: shown(form('Spending caps')) };
  expect(before).toEqual({
    prices: ['fal', 'flux-dev', '0.025', 'EUR', 'megapixel'],
    caps: ['month', '12', 'USD', 'replicate', 'soft'],
  });

  // Drawn anew in German: every field as it was, and the price set is the one typed.
  await act(() => applyLocale('de'));
  const pricesForm = await screen.findByRole('form', { name: german['costs.settings.prices'] });
  const capsForm = form(german['costs.settings.caps']!);
  expect({ prices: shown(pricesForm), caps: shown(capsForm) }).toEqual(before);
  await user.click(
    within(pricesForm).getByRole('button', { name: german['costs.settings.setPrice'] }),
  );
  await waitFor(() =>
    expect(main.callsTo('costs:setPrice')).toEqual([
      { provider: 'fal', model: 'flux-dev', unit: 'EUR', basis: 'megapixel', micros: 25_000 },
    ]),
  );
  // A price added clears its amount, as before.
  await waitFor(() => expect(shown(pricesForm)[2]).toBe(''));
});
