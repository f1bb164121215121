/**
 * IPC handlers of compare (shared/ipc/compare-contract.ts): the plan for the dialog and the run
 * (the fan-out's handlers, fan-out-handlers.ts: each target at main's own address for its
 * service, its key from main's vault, the run planned again), the group's tasks for the compare
 * view, the groups the gallery's filter lists, and "Cancel all".
 */
import type { CompareInputPayload, ComparePlanOutput } from '../../shared/ipc/compare-contract';
import type { compareRequests } from '../../shared/ipc/compare-contract';
import type { TaskCancels } from '../core/batch';
import {
  cancelCompare,
  type ComparePlan,
  compareTasks,
  planCompare,
  runCompare,
} from '../core/compare';
import type { TaskEngine } from '../core/engine';
import type { CostSum, FanOutDeps } from '../core/fan-out';
import type { HistoryStore } from '../core/history';
import { fanOutHandlers, shownPlan, type FanOutHandlerDeps } from './fan-out-handlers';
import type { IpcHandlers } from './ipc-main-bridge';
import { cancelOutcomeItem } from './task-cancel-handlers';

type CompareChannel = keyof typeof compareRequests;

/** Groups `compare:groups` lists when the page names no number. */
const GROUPS_LISTED = 100;

export interface CompareHandlerDeps extends FanOutHandlerDeps {
  readonly engine: TaskEngine;
  readonly history: Pick<HistoryStore, 'taskIds' | 'get' | 'compares'>;
  readonly plan: Omit<FanOutDeps, 'newGroupId'>;
  /** The core's cancels (each wait for a service's answer bounded by the core's clock). */
  readonly cancels: TaskCancels;
}

export function compareHandlers(deps: CompareHandlerDeps): Pick<IpcHandlers, CompareChannel> {
  const { engine, history } = deps;
  const { cancels } = deps;
  const fanOut = fanOutHandlers<CompareInputPayload, ComparePlan, ComparePlanOutput>(deps, {
    plan: (input) => planCompare(deps.plan, input),
    run: async (input) => {
      const plan = await planCompare(deps.plan, input);
      return { plan, records: await runCompare(engine, plan) };
    },
    show: planOutput,
  });
  return {
    'compare:plan': fanOut.plan,
    'compare:run': fanOut.run,
    'compare:show': ({ group }) => ({
      items: compareTasks(history, group).map((record) => engine.item(record)),
    }),
    'compare:groups': ({ limit }) => ({
      groups: history.compares.list(limit ?? GROUPS_LISTED),
    }),
    'compare:cancel': async ({ group }) => ({
      outcomes: (await cancelCompare(history, cancels, group)).map((outcome) =>
        cancelOutcomeItem(engine, outcome),
      ),
    }),
  };
}

function planOutput(plan: ComparePlan): ComparePlanOutput {
  return {
    ...shownPlan(plan),
    targets: plan.targets.map(({ slot, name, notes, requests, count }) => ({
      ...name,
      slot,
      notes: [...notes],
      tasks: requests.length * count,
      estimate: sumOutput(plan.totals.byTarget.get(slot)),
    })),
    total: sumOutput(plan.totals.total),
  };
}

const sumOutput = (sum: CostSum | undefined) => ({
  micros: { ...(sum?.micros ?? {}) },
  unpriced: sum?.unpriced ?? 0,
});
