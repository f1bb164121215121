/**
 * The edit panel's draft (operation, prompt, mask, references, targets, route) and main's plan
 * of it, asked again whenever it changes; targets that can no longer do what is asked drop out.
 */
import { useEffect, useMemo, useState } from 'react';
import type { EditInputPayload } from '../../../shared/ipc/inputs-contract';
import type { EditPlanOutput } from '../../../shared/ipc/inputs-contract';
import { useShallow } from 'zustand/react/shallow';
import { useLivePlan } from '../../lib/use-fan-out';
import { useAppStore } from '../../store/app-store';
import {
  setUpServices,
  type Answer,
  type EditSource,
  type EditStart,
} from '../../store/edit-slice';
import { editInput, modelChoices, needsOfDraft, type EditDraft } from './edit-model';

const store = useAppStore.getState;
const NO_EXPAND = { top: 0, right: 0, bottom: 0, left: 0 };

/** A fresh draft on `source`, starting on `start`. */
function firstDraft(source: EditSource, start: EditStart): EditDraft {
  return {
    operation: start.operation,
    source: source.image,
    parent: source.parent,
    prompt: source.prompt,
    masks: null,
    references: [],
    factor: start.factor ?? 2,
    expand: NO_EXPAND,
    route: 'auto',
    targets: [],
  };
}

const askPlan = (input: EditInputPayload) => store().editPlan(input);

/** Main's plan of `draft`, or null while it is being asked (or the draft is incomplete). */
function usePlan(draft: EditDraft): Answer<EditPlanOutput> | null {
  const input = useMemo(() => editInput(draft), [draft]);
  return useLivePlan(input, askPlan);
}

/** The draft, its setter, the model choices for it and main's plan. */
export function useEditDraft(source: EditSource, start: EditStart) {
  const [draft, setDraftState] = useState(() => firstDraft(source, start));
  const setUp = useAppStore(useShallow(setUpServices));
  // A smaller copy made by main replaces the source the panel sends.
  useEffect(() => setDraftState((now) => ({ ...now, source: source.image })), [source.image]);
  const choices = useMemo(() => modelChoices(needsOfDraft(draft), setUp), [draft, setUp]);
  const setDraft = (change: Partial<EditDraft>) =>
    setDraftState((now) => {
      const next = { ...now, ...change };
      const usable = modelChoices(needsOfDraft(next), setUp).filter((one) => !one.blocked);
      const targets = next.targets.filter((target) =>
        usable.some((one) => one.provider === target.provider && one.model === target.model),
      );
      return targets.length === next.targets.length ? next : { ...next, targets };
    });
  return { draft, setDraft, choices, setUp, plan: usePlan(draft) };
}
