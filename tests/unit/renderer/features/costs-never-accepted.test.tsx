/**
 * The Costs screen names a request the service never accepted as the notice did when it was
 * refused ("nothing was sent", "nothing was created"): not kept by the history, nothing billed.
 * The ledger holds it from its admission (the caps count a task in flight), the history keeps no
 * row for a submit refused for the account (core/engine/account-refusal.ts), and "removed from
 * the history" would name a step the user never took. A task the service did accept and the user
 * removed still says it was removed (costs-view.test.tsx).
 */
import { screen, within } from '@testing-library/react';
import { expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { seedHistory, startWiredApp } from '../render-wired-app';

const NEVER_ACCEPTED =
  'The service never accepted this request, so nothing was billed; the history does not list it.';

/** A submit that ended without a task id, as each account refusal ends (and a 400 one). */
function refused(kind: 'network' | 'auth' | 'credits' | 'bad_request', at: number) {
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

it('says a refused request was never accepted, for every way a submit is refused', async () => {
  const kinds = ['network', 'auth', 'credits', 'bad_request'] as const;
  const { user } = await startWiredApp({
    prepare: (main) => {
      kinds.forEach((kind, index) => {
        const [record] = seedHistory(main, 1, refused(kind, Date.now() - (index + 1) * 1_000));
        main.runtime.core.history.delete(record!.localId);
      });
    },
  });
  await user.click(screen.getByRole('button', { name: /^Costs/ }));
  const list = await screen.findByRole('table', { name: '' });
  for (const kind of kinds) {
    const row = within(list).getByText(`Refused for ${kind}`).closest('tr')!;
    expect(row.textContent).toContain(NEVER_ACCEPTED);
    expect(row.textContent).not.toContain('Removed from the history');
    expect(row.textContent).toContain('not billed');
    expect(within(row).queryByRole('button')).toBeNull();
  }
});
