/**
 * Settings › Costs: prices per service and model, and spending caps with what their period has
 * spent, set and removed only by the user's own action there; an amount that is not a plain
 * decimal is refused in the form, before main hears of it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import { startApp } from '../render-app';

async function openSettings() {
  const started = await startApp({
    prepare: (fake) => {
      fake.costs.spent.set('day/USD/', 30_000);
    },
  });
  await started.user.click(screen.getByRole('button', { name: /^Settings/ }));
  const prices = await screen.findByRole('form', { name: 'Prices' });
  const caps = screen.getByRole('form', { name: 'Spending caps' });
  return { ...started, prices: within(prices), caps: within(caps) };
}

it('sets a price for a service and model, lists it, and removes it', async () => {
  const { user, fake, prices } = await openSettings();
  expect(screen.getByText('No prices set.')).toBeTruthy();
  await user.selectOptions(prices.getByLabelText('Service'), 'fal');
  await user.type(prices.getByLabelText('Model (empty: every model)'), 'flux-dev');
  await user.type(prices.getByLabelText('Amount'), '0.025');
  await user.selectOptions(prices.getByLabelText('Per'), 'megapixel');
  await user.click(prices.getByRole('button', { name: 'Set price' }));
  expect(await screen.findByText('fal.ai, flux-dev: $0.025 per megapixel')).toBeTruthy();
  expect(fake.callsTo('costs:setPrice')).toEqual([
    { provider: 'fal', model: 'flux-dev', unit: 'USD', basis: 'megapixel', micros: 25_000 },
  ]);
  const line = screen.getByText('fal.ai, flux-dev: $0.025 per megapixel').closest('li')!;
  await user.click(within(line).getByRole('button', { name: 'Remove' }));
  expect(await screen.findByText('No prices set.')).toBeTruthy();
  expect(fake.callsTo('costs:clearPrice')).toEqual([{ provider: 'fal', model: 'flux-dev' }]);
});

it('refuses an amount that is not a plain decimal, without asking main', async () => {
  const { user, fake, caps } = await openSettings();
  await user.type(caps.getByLabelText('Amount'), '1e3');
  await user.click(caps.getByRole('button', { name: 'Set cap' }));
  expect(caps.getByText('Type an amount such as 0.04.')).toBeTruthy();
  expect(fake.callsTo('costs:setCap')).toEqual([]);
});

it('sets a hard daily cap over every service, with what the day has spent so far', async () => {
  const { user, fake, caps } = await openSettings();
  expect(screen.getByText('No spending caps set.')).toBeTruthy();
  await user.type(caps.getByLabelText('Amount'), '0.10');
  await user.click(caps.getByRole('button', { name: 'Set cap' }));
  const said = 'Hard cap per day, All services: $0.10. Spent so far: $0.03';
  expect(await screen.findByText(said)).toBeTruthy();
  expect(fake.callsTo('costs:setCap')).toEqual([
    { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 100_000 },
  ]);
  await user.click(
    within(screen.getByText(said).closest('li')!).getByRole('button', { name: 'Remove' }),
  );
  await waitFor(() =>
    expect(fake.callsTo('costs:clearCap')).toEqual([
      { period: 'day', unit: 'USD', provider: null, kind: 'hard' },
    ]),
  );
  expect(await screen.findByText('No spending caps set.')).toBeTruthy();
});
