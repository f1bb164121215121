/**
 * The Costs screen lists no request the service never accepted (no task id: refused, or not
 * reached). The refusal's notice said nothing was sent, the history keeps no row for it
 * (core/engine/account-refusal.ts) and nothing was billed: it was never a task, so the ledger
 * holds it in no list or count (core/history/ledger-accepted-schema.ts), and a library whose only
 * requests were refused has no costs yet. A task the service did accept and the user removed
 * still says it was removed (costs-view.test.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { clickScreen, seedHistory, startWiredApp, type WiredApp } from '../render-wired-app';

const KINDS = ['network', 'auth', 'credits', 'bad_request'] as const;

/** A submit that ended without a task id, as each account refusal ends (and a 400 one). */
function refused(kind: (typeof KINDS)[number], at: number) {
  return (): Partial<TaskRecord> & { prompt: string } => ({
    localId: `refused-${kind}`,
    status: 'submit_failed',
    taskId: null,
    createdAt: at,
    prompt: `Refused for ${kind}`,
    error: { kind, message: 'refused' },
    cost: { source: 'not_billed' },
  });
}

/** Every way a submit is refused, each gone from the history as the app drops it. */
function seedRefusals(main: WiredApp['main']): void {
  KINDS.forEach((kind, index) => {
    const [record] = seedHistory(main, 1, refused(kind, Date.now() - (index + 1) * 1_000));
    main.runtime.core.history.delete(record!.localId);
  });
}

it('lists no refused request beside the tasks that cost something', async () => {
  const { user } = await startWiredApp({
    prepare: (main) => {
      seedRefusals(main);
      seedHistory(main, 1, () => ({
        localId: 'paid',
        status: 'completed',
        createdAt: Date.now() - 10_000,
        prompt: 'A task that was billed',
        cost: { source: 'reported', micros: 40_000, unit: 'USD', field: 'usage.cost' },
      }));
    },
  });
  await clickScreen(user, /^Costs/);
  const list = await screen.findByRole('table', { name: '' });
  expect(within(list).getByText('A task that was billed')).toBeTruthy();
  for (const kind of KINDS) expect(within(list).queryByText(`Refused for ${kind}`)).toBeNull();
});

it('has no costs yet when every request was refused', async () => {
  const { user } = await startWiredApp({ prepare: seedRefusals });
  await clickScreen(user, /^Costs/);
  expect(await screen.findByText('No costs yet')).toBeTruthy();
  for (const kind of KINDS) expect(screen.queryByText(`Refused for ${kind}`)).toBeNull();
});
