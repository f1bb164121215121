/**
 * The compose form says what the submit would cost before it is sent (main's estimate for the
 * chosen service, model, size and count) and what a soft spending cap says of it; a hard cap's
 * refusal of the submit is shown as the submit's error, in the cap's own sentence.
 */
import { screen, waitFor } from '@testing-library/react';
import { expect, it } from 'vitest';
import { englishText, sentence } from '../../../../shared/i18n/sentence';
import { startApp } from '../render-app';

const SOFT = sentence('error.costs.softCap', {
  period: 'day',
  cap: '0.05',
  unit: 'USD',
  scope: 'all',
  service: 'Image task service',
  spent: '0.04',
  adding: '0.06',
});

const HARD = sentence('error.costs.hardCap', {
  period: 'day',
  cap: '0.05',
  unit: 'USD',
  scope: 'all',
  service: 'Image task service',
  spent: '0.04',
  adding: '0.02',
});

it('shows the estimate for the count chosen, and a soft cap’s warning', async () => {
  const { user, fake } = await startApp({
    prepare: (f) => {
      f.costs.preview = {
        perTask: { source: 'estimated', micros: 20_000, unit: 'USD', basis: 'image' },
        count: 1,
        warnings: [SOFT],
      };
    },
  });
  const count = screen.getByLabelText('Number of tasks');
  await user.clear(count);
  await user.type(count, '3');
  expect(
    await screen.findByText('This submit costs about $0.06 ($0.02 per task, estimate).'),
  ).toBeTruthy();
  expect(screen.getByText(englishText(SOFT))).toBeTruthy();
  await waitFor(() =>
    expect(fake.callsTo('costs:preview').at(-1)).toEqual({
      target: { provider: 'pictor', endpoint: 'demo:' },
      request: expect.objectContaining({ size: expect.any(String) }),
      count: 3,
    }),
  );
});

it('says nothing of cost while Pictor cannot price the submit and no cap speaks', async () => {
  const { fake } = await startApp();
  await waitFor(() => expect(fake.callsTo('costs:preview').length).toBeGreaterThan(0));
  expect(document.querySelector('.compose__cost')).toBeNull();
});

it('shows a hard cap’s refusal of the submit as its error', async () => {
  const { user, fake } = await startApp({
    prepare: (f) =>
      f.fail('tasks:submit', { code: 'bad_input', message: englishText(HARD), sentence: HARD }),
  });
  await user.type(screen.getByRole('textbox', { name: /Prompt/ }), 'a harbour at dawn{Enter}');
  expect(await screen.findByText(englishText(HARD))).toBeTruthy();
  expect(fake.callsTo('tasks:submit')).toHaveLength(1);
});
