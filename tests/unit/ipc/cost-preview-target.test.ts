/**
 * The compose form's cost preview takes the same target as the submit (the service chosen in the
 * form, at its address): it prices that service, never the one the settings name, and a preview
 * without a target is refused before the ledger hears of it.
 */
import { expect, it } from 'vitest';
import { CostBook } from '../../../electron/core/costs/cost-book';
import { costHandlers } from '../../../electron/ipc/cost-handlers';
import type { IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { historyStorePerTest } from '../core/history/history-fixtures';
import { ipcCaller, okValue } from '../../support/ipc';

const history = historyStorePerTest();

function priced() {
  const costs = new CostBook({ history: history.store, now: () => Date.now(), timeZone: 'UTC' });
  costs.setPrice({ provider: 'pictor', model: '', unit: 'USD', basis: 'image', micros: 20_000 });
  costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 50_000 });
  const handlers = costHandlers({ costs, writeText: async () => undefined });
  return ipcCaller(handlers as Partial<IpcHandlers>);
}

it('prices the service the target names', async () => {
  const call = priced();
  const request = { prompt: 'a harbour', model: 'fal-ai/flux/schnell' };
  const fal = { provider: 'fal', endpoint: 'https://queue.fal.run' } as const;
  const demo = { provider: 'pictor', endpoint: 'demo:' } as const;
  const onFal = okValue(await call('costs:preview', { target: fal, request, count: 2 }));
  expect(onFal.perTask).toMatchObject({ micros: 50_000, unit: 'USD' });
  const onDemo = okValue(await call('costs:preview', { target: demo, request, count: 2 }));
  // The built-in demo never bills, whatever the prices of the service it speaks as.
  expect(onDemo.perTask).toEqual({ source: 'free' });
  // fal's dialect on the demo is free too, though fal itself has a price here.
  const falDemo = { provider: 'fal', endpoint: 'demo:fal' } as const;
  const onFalDemo = okValue(await call('costs:preview', { target: falDemo, request, count: 2 }));
  expect(onFalDemo.perTask).toEqual({ source: 'free' });
  // An endpoint that only looks like a demo's is no demo: it is not free.
  const lookalike = { provider: 'fal', endpoint: 'demo:flux' } as const;
  const onLookalike = okValue(
    await call('costs:preview', { target: lookalike, request, count: 1 }),
  );
  expect(onLookalike.perTask).toMatchObject({ micros: 50_000 });
});

it.each([
  { provider: 'fal', request: { prompt: 'a' }, count: 1 },
  { target: { provider: 'fal' }, request: { prompt: 'a' }, count: 1 },
  {
    target: { provider: 'openai', endpoint: 'https://x.example' },
    request: { prompt: 'a' },
    count: 1,
  },
])('refuses %j', async (raw) => {
  const result = await priced()('costs:preview', raw as never);
  expect(result).toMatchObject({ ok: false, error: { code: 'bad_input' } });
});
