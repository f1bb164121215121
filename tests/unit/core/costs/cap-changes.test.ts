/**
 * The cost book's question before a hard cap counts less (cap-changes.ts): every loosening is put
 * to the front's port, nothing changes without a yes to each, and without a port (nobody can be
 * asked) a hard cap is never raised or removed; a change that loosens nothing is never asked.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { changeAsked } from '../../../../electron/core/costs/cap-changes';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { UserFacingError } from '../../../../electron/core/errors/user-facing-error';
import type { CapLoosening } from '../../../../electron/ports/user-prompts';
import type { SpendingCap } from '../../../../shared/domain/cost-ledger';
import { historyStorePerTest } from '../history/history-fixtures';

const history = historyStorePerTest();
let costs: CostBook;
const NOW = Date.parse('2026-11-25T12:00:00Z');
const HARD: SpendingCap = { period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 1e6 };

beforeEach(() => {
  costs = new CostBook({ history: history.store, now: () => NOW, timeZone: 'UTC' });
  costs.setCap(HARD);
});

function answering(answer: boolean) {
  const asked: CapLoosening[] = [];
  const question = {
    confirmLooserCap: (change: CapLoosening) => {
      asked.push(change);
      return Promise.resolve(answer);
    },
  };
  return { asked, question };
}

describe('changeAsked', () => {
  it('raises a hard cap only with the yes of the question, asked once for it', async () => {
    const { asked, question } = answering(true);
    await changeAsked(costs, question, { kind: 'setCap', cap: { ...HARD, micros: 2e6 } });
    expect(asked).toEqual([{ cap: HARD, to: 2e6 }]);
    expect(costs.caps()).toEqual([{ ...HARD, micros: 2e6 }]);
  });

  it.each([
    ['a no', answering(false).question],
    ['nobody to ask', undefined],
  ])('keeps the cap with %s, with the sentence', async (_, question) => {
    const removal = changeAsked(costs, question, { kind: 'clearCap', key: HARD });
    await expect(removal).rejects.toBeInstanceOf(UserFacingError);
    expect(costs.caps()).toEqual([HARD]);
  });

  it('lowers a hard cap without asking: tightening needs no consent', async () => {
    const { asked, question } = answering(false);
    const changed = await changeAsked(costs, question, {
      kind: 'setCap',
      cap: { ...HARD, micros: 5e5 },
    });
    expect({ changed, asked }).toEqual({ changed: 1, asked: [] });
    expect(costs.caps()).toEqual([{ ...HARD, micros: 5e5 }]);
  });
});
