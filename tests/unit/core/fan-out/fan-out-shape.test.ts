/**
 * The fan-out as any later operation that sends one request to several targets would use it:
 * only its word on each target is its own; the labels, the slots, who is left out, the refusal
 * when none is left, the engine's limit, the caps' verdict and the send (all or none, one group)
 * are the fan-out's, the same for a compare and an edit.
 */
import { describe, expect, it } from 'vitest';
import { TASKS_PER_ENGINE_SUBMIT } from '../../../../shared/domain/limits';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import type { CapVerdict } from '../../../../electron/core/costs/cap-check';
import { SpendingCapError } from '../../../../electron/core/errors';
import {
  planFanOut,
  type FanOutDeps,
  type PlannedTarget,
} from '../../../../electron/core/fan-out/fan-out-plan';
import { sendPlan } from '../../../../electron/core/fan-out/fan-out-run';
import type { FanOutTarget } from '../../../../electron/core/fan-out/fan-out-targets';

const NONE_LEFT = sentence('error.edit.noTargetLeft');
const NO_KEY = sentence('error.compare.noAddress', { service: 'Black Forest Labs' });

/** Prices nothing; the caps say `verdict`. */
function deps(verdict: Partial<CapVerdict> = {}): FanOutDeps {
  return {
    credentials: { forEndpoint: () => Promise.resolve(null) } as never,
    costs: {
      preview: () => ({ perTask: { source: 'unknown' } }) as never,
      previewGroup: () => ({ warnings: [], forecasts: [], ...verdict }),
    },
    newGroupId: () => 'group-1',
  };
}

type Wanted = FanOutTarget & { readonly keep: boolean; readonly count?: number };

/** The operation's own word: a target kept with one request, or left out for want of a key. */
function planOf(targets: readonly Wanted[], verdict: Partial<CapVerdict> = {}) {
  return planFanOut(deps(verdict), {
    targets,
    noneLeft: NONE_LEFT,
    plan: (wanted, place): Promise<PlannedTarget | { reason: Sentence }> =>
      Promise.resolve(
        wanted.keep
          ? {
              ...place,
              target: { provider: wanted.provider, endpoint: 'https://fal.run' },
              requests: [{ prompt: 'a kite', ...(wanted.model ? { model: wanted.model } : {}) }],
              count: wanted.count ?? 1,
              notes: [],
              perTask: [{ source: 'unknown' }],
            }
          : { reason: NO_KEY },
      ),
  });
}

const fal = { provider: 'fal', model: 'fal-ai/flux/dev', keep: true } as const;

describe('a fan-out whatever its use', () => {
  it('labels each target by slot, #1/#2 when repeated, and keeps or leaves it out as its use says', async () => {
    const plan = await planOf([fal, { provider: 'bfl', model: 'flux-pro', keep: false }, fal]);
    expect(plan.group).toBe('group-1');
    expect(plan.targets.map(({ slot, label }) => [slot, label])).toEqual([
      [1, 'fal.ai · fal-ai/flux/dev #1'],
      [3, 'fal.ai · fal-ai/flux/dev #2'],
    ]);
    expect(plan.leftOut).toEqual([
      {
        slot: 2,
        label: 'Black Forest Labs · flux-pro',
        // What the target is, as a kept one's tasks keep it: the window names it from these.
        name: { label: 'Black Forest Labs · flux-pro', service: 'bfl', model: 'flux-pro' },
        reason: NO_KEY,
      },
    ]);
    expect(plan.refusal).toBeUndefined();
    expect(plan.totals.total.unpriced).toBe(2);
  });

  it("is refused with the use's own sentence when no target is left, and the cap's when over one", async () => {
    const none = await planOf([{ ...fal, keep: false }]);
    expect([none.refusal, none.overCap]).toEqual([NONE_LEFT, false]);
    const cap = sentence('error.library.taskCountRange', { min: '1', max: '2' });
    const overCap = await planOf([{ ...fal, keep: false }], { refusal: cap });
    expect([overCap.refusal, overCap.overCap]).toEqual([cap, true]);
  });

  it("says the engine's limit of one submit before anything is sent", async () => {
    const half = TASKS_PER_ENGINE_SUBMIT.max / 2 + 1;
    const plan = await planOf([
      { ...fal, count: half },
      { ...fal, count: half },
    ]);
    expect(plan.refusal?.key).toBe('error.library.taskCountRange');
    const submitted: unknown[] = [];
    const engine = { submitGroup: (items: unknown[]) => (submitted.push(...items), []) };
    await expect(sendPlan(engine as never, plan, (said) => new Error(said.key))).rejects.toThrow(
      'error.library.taskCountRange',
    );
    expect(submitted).toEqual([]);
  });

  it('sends every task under one group, by slot, or nothing: a cap refuses with SpendingCapError', async () => {
    const submitted: { compare: unknown }[] = [];
    const engine = {
      submitGroup: (items: { compare: unknown }[]) => {
        submitted.push(...items);
        return Promise.resolve([] as TaskRecord[]);
      },
    };
    const refuse = (said: Sentence) => new Error(said.key);
    const capped = await planOf([fal], { refusal: sentence('error.edit.noTargetLeft') });
    await expect(sendPlan(engine as never, capped, refuse)).rejects.toBeInstanceOf(
      SpendingCapError,
    );
    expect(submitted).toEqual([]);
    const plan = await planOf([fal, { provider: 'bfl', keep: false }, fal]);
    await sendPlan(engine as never, plan, refuse);
    expect(submitted.map((item) => item.compare)).toEqual([
      {
        group: 'group-1',
        slot: 1,
        label: 'fal.ai · fal-ai/flux/dev #1',
        service: 'fal',
        model: 'fal-ai/flux/dev',
        nth: 1,
      },
      {
        group: 'group-1',
        slot: 3,
        label: 'fal.ai · fal-ai/flux/dev #2',
        service: 'fal',
        model: 'fal-ai/flux/dev',
        nth: 2,
      },
    ]);
  });
});
