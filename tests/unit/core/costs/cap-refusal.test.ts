/**
 * A hard cap's refusal says the real reason first: the cap, what its period has spent and what
 * the submit adds (tasks admitted unpriced counted at today's price, as `caps list` counts them),
 * then every price it lacks, as data each front words itself. And the figure is the one
 * computation (cap-spend.ts) that `caps list`, `costs`, Settings and every verdict read.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CostBook } from '../../../../electron/core/costs/cost-book';
import { SpendingCapError } from '../../../../electron/core/errors/spending-cap-error';
import type { SpendingCap } from '../../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { englishText } from '../../../../shared/i18n/sentence';
import { historyStorePerTest, makeRecord } from '../history/history-fixtures';

const history = historyStorePerTest();
let costs: CostBook;
const NOW = Date.parse('2026-11-25T12:00:00Z');

beforeEach(() => {
  costs = new CostBook({ history: history.store, now: () => NOW, timeZone: 'UTC' });
});

function task(localId: string, provider: ProviderId): TaskRecord {
  return makeRecord({
    localId,
    provider,
    createdAt: NOW - 60_000,
    status: 'submitting',
    taskId: null,
    images: [],
  });
}

const DAILY_USD: SpendingCap = {
  period: 'day',
  unit: 'USD',
  provider: null,
  kind: 'hard',
  micros: 80_000,
};

/** What a cap's period has spent (the one figure every view of it gives). */
const spentOf = (book: CostBook, cap: Parameters<CostBook['capSpend']>[0]): number =>
  book.capSpend(cap).micros;

function refused(records: TaskRecord[]): SpendingCapError {
  try {
    costs.admit(records, undefined);
  } catch (error) {
    if (error instanceof SpendingCapError) return error;
    throw error;
  }
  throw new Error('the cap let the tasks by');
}

/** Four fal tasks sent before fal had a price, two BFL tasks (a compare) with none in USD. */
function aDayOfWork(): void {
  costs.admit(
    ['f1', 'f2', 'f3', 'f4'].map((id) => task(id, 'fal')),
    undefined,
  );
  costs.admit([task('b1', 'bfl'), task('b2', 'bfl')], undefined);
  costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 50_000 });
  costs.setCap(DAILY_USD);
}

describe('a hard cap refuses for its real reason', () => {
  it('leads with what the period spent and what the submit adds, then the price it lacks', () => {
    aDayOfWork();
    const error = refused([task('new', 'fal')]);
    expect(error.refusal).toMatchObject({
      cap: DAILY_USD,
      verdict: 'over',
      spentMicros: 200_000,
      addingMicros: 50_000,
      missing: [{ service: 'bfl', model: 'model-a', tasks: 2, of: 'period' }],
    });
    // Main's own sentence (every language) is the cap's, not the missing price's.
    expect(englishText(error.sentence!)).toMatch(
      /daily spending cap of \$0\.08 for all services\. Spent so far: \$0\.20; this submit adds about \$0\.05/,
    );
  });

  it('still refuses for a missing price under the cap, saying what was spent and added', () => {
    costs.admit([task('b1', 'bfl')], undefined);
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 10_000 });
    costs.setCap(DAILY_USD);
    const error = refused([task('new', 'fal')]);
    expect(error.refusal).toMatchObject({
      verdict: 'unpricedSpent',
      spentMicros: 0,
      addingMicros: 10_000,
      missing: [{ service: 'bfl', tasks: 1, of: 'period' }],
    });
  });

  it('counts a submit it cannot price as missing, with what the period spent beside it', () => {
    aDayOfWork();
    const error = refused([task('new', 'dashscope')]);
    expect(error.refusal).toMatchObject({
      verdict: 'over',
      spentMicros: 200_000,
      addingMicros: 0,
      missing: [
        { service: 'dashscope', tasks: 1, of: 'submit' },
        { service: 'bfl', tasks: 2, of: 'period' },
      ],
    });
  });

  it('gives caps list, Settings and the refusal one figure, its part at today’s price apart', () => {
    aDayOfWork();
    const [standing] = costs.standings();
    expect(standing).toMatchObject({
      cap: DAILY_USD,
      micros: 200_000,
      pricedToday: { tasks: 4, micros: 200_000 },
      unpriced: [{ provider: 'bfl', tasks: 2 }],
    });
    expect(spentOf(costs, DAILY_USD)).toBe(standing!.micros);
    expect(refused([task('new', 'fal')]).refusal!.spentMicros).toBe(standing!.micros);
    const preview = costs.preview(
      { provider: 'fal', endpoint: 'https://queue.fal.run' },
      { prompt: 'x' },
    );
    expect(preview.forecasts[0]?.spentMicros).toBe(standing!.micros);
  });

  it('lets a soft cap warn of what it can count while the submit has no price', () => {
    aDayOfWork();
    costs.clearCaps();
    costs.setCap({ ...DAILY_USD, kind: 'soft' });
    const preview = costs.preview(
      { provider: 'dashscope', endpoint: 'https://dashscope-intl.aliyuncs.com' },
      { prompt: 'x' },
    );
    expect(preview.refusal).toBeUndefined();
    expect(preview.forecasts).toMatchObject([
      { verdict: 'over', spentMicros: 200_000, missing: [] },
    ]);
  });
});
