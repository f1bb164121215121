/**
 * The CLI run in this process as the installed app names itself (tests/support/cli-in-process.ts),
 * and a library of cost-ledger tasks for it: four fal tasks sent before fal
 * had a price (unknown cost, priced since), two BFL tasks with no USD price, one reported.
 */
import { join } from 'node:path';
import { CostBook } from '../../../electron/core/costs/cost-book';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import type { ProviderId } from '../../../shared/domain/providers';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeRecord } from '../core/history/history-fixtures';
import { runInProcess, type InProcessRun } from '../../support/cli-in-process';

/** `pictor <args>` in this process, as the installed app names itself. */
export function pictor(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<InProcessRun> {
  return runInProcess(args, env, { program: 'pictor' });
}

function task(localId: string, provider: ProviderId, createdAt: number): TaskRecord {
  return makeRecord({
    localId,
    provider,
    createdAt,
    status: 'submitting',
    taskId: null,
    images: [],
    request: { prompt: `a prompt of ${localId}`, model: 'model-a' },
  });
}

/** The library described above, in `dataDir`, with a hard daily cap of $0.08 over every service. */
export function costLibrary(dataDir: string): void {
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    const now = Date.now() - 1_000;
    const costs = new CostBook({ history: store, now: () => now });
    costs.admit(
      ['f1', 'f2', 'f3', 'f4'].map((id) => task(id, 'fal', now)),
      undefined,
    );
    costs.admit([task('b1', 'bfl', now), task('b2', 'bfl', now)], undefined);
    const [reported] = costs.admit([task('r1', 'replicate', now)], undefined);
    store.put({
      ...reported!,
      status: 'completed',
      cost: { source: 'reported', micros: 30_000, unit: 'USD', field: 'usage.cost' },
    });
    costs.setPrice({ provider: 'fal', model: '', unit: 'USD', basis: 'image', micros: 50_000 });
    costs.setCap({ period: 'day', unit: 'USD', provider: null, kind: 'hard', micros: 80_000 });
  } finally {
    store.close();
  }
}
