/**
 * IPC handlers of compare (shared/ipc/compare-contract.ts): the plan for the dialog, the run,
 * the group's tasks for the compare view, the groups the gallery's filter lists, and "Cancel all". Each target's address comes from
 * main's own settings for its service (the page names none) and its key from main's vault;
 * `compare:run` plans again from the same input rather than trusting a plan the page holds.
 */
import type { CompareInputPayload, ComparePlanOutput } from '../../shared/ipc/compare-contract';
import type { compareRequests } from '../../shared/ipc/compare-contract';
import { DEMO_ENDPOINT } from '../../shared/domain/submit-target';
import { demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import type { TaskCancels } from '../core/batch';
import {
  cancelCompare,
  type CompareDeps,
  type ComparePlan,
  compareTasks,
  type CostSum,
  planCompare,
  runCompare,
} from '../core/compare';
import type { TaskEngine } from '../core/engine';
import type { HistoryStore } from '../core/history';
import type { IpcHandlers } from './ipc-main-bridge';
import { cancelOutcomeItem } from './task-cancel-handlers';

type CompareChannel = keyof typeof compareRequests;

/** Groups `compare:groups` lists when the page names no number. */
const GROUPS_LISTED = 100;

export interface CompareHandlerDeps {
  readonly engine: TaskEngine;
  readonly history: Pick<HistoryStore, 'taskIds' | 'get' | 'compares'>;
  readonly plan: Omit<CompareDeps, 'newGroupId'>;
  /** The address main's settings give `provider`'s service; null: none (the demo's for today's contract). */
  readonly addressOf: (provider: ProviderId) => string | null;
  /** The core's cancels (each wait for a service's answer bounded by the core's clock). */
  readonly cancels: TaskCancels;
}

export function compareHandlers(deps: CompareHandlerDeps): Pick<IpcHandlers, CompareChannel> {
  const { engine, history } = deps;
  const { cancels } = deps;
  const plan = (input: CompareInputPayload) => planCompare(deps.plan, withAddresses(deps, input));
  return {
    'compare:plan': async (input) => planOutput(await plan(input)),
    'compare:run': async (input) => {
      const planned = await plan(input);
      const records = await runCompare(engine, planned);
      return {
        group: planned.group,
        items: records.map((record) => engine.item(record)),
        leftOut: [...planned.leftOut],
      };
    },
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

/** Each target at the address main's settings give its service (or the demo standing in for it). */
function withAddresses(deps: CompareHandlerDeps, input: CompareInputPayload) {
  return {
    prompts: input.prompts,
    targets: input.targets.map((target) => {
      const address =
        deps.addressOf(target.provider) ?? (demoStandsIn(target.provider) ? DEMO_ENDPOINT : null);
      return address === null ? target : { ...target, baseUrl: address };
    }),
  };
}

function planOutput(plan: ComparePlan): ComparePlanOutput {
  return {
    group: plan.group,
    targets: plan.targets.map(({ slot, label, notes, requests, count }) => ({
      slot,
      label,
      notes: [...notes],
      tasks: requests.length * count,
      estimate: sumOutput(plan.totals.byTarget.get(slot)),
    })),
    leftOut: [...plan.leftOut],
    total: sumOutput(plan.totals.total),
    warnings: [...plan.warnings],
    ...(plan.refusal === undefined ? {} : { refusal: plan.refusal }),
  };
}

const sumOutput = (sum: CostSum | undefined) => ({
  micros: { ...(sum?.micros ?? {}) },
  unpriced: sum?.unpriced ?? 0,
});
