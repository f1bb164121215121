/**
 * The edit panel's draft (operation, prompt, mask, references, targets, route) and main's plan
 * of it, asked again whenever it changes; targets that can no longer do what is asked drop out.
 */
import { useMemo } from 'react';
import type { EditInputPayload } from '../../../shared/ipc/inputs-contract';
import type { EditPlanOutput } from '../../../shared/ipc/inputs-contract';
import { useLivePlan } from '../../lib/use-fan-out';
import { useAppStore } from '../../store/app-store';
import { firstEditDraft, type EditDraft } from '../../store/edit-draft';
import type { Answer, EditSource, EditStart } from '../../store/edit-slice';
import { sendableServices, useServiceStandings } from '../../store/use-service-choices';
import { editInput, modelChoices, needsOfDraft } from './edit-model';

const store = useAppStore.getState;

const askPlan = (input: EditInputPayload) => store().editPlan(input);

/** Main's plan of `draft`, or null while it is being asked (or the draft is incomplete). */
function usePlan(draft: EditDraft): Answer<EditPlanOutput> | null {
  const input = useMemo(() => editInput(draft), [draft]);
  return useLivePlan(input, askPlan);
}

/**
 * The draft (the store's: edit-draft.ts), its setter, the model choices for it and main's plan.
 * `source` and `start` make the draft only if the store has none (a panel drawn without opening).
 */
export function useEditDraft(source: EditSource, start: EditStart) {
  const kept = useAppStore((state) => state.editDraft);
  const draft = useMemo(() => kept ?? firstEditDraft(source, start), [kept, source, start]);
  const standing = useServiceStandings();
  const setUp = useMemo(() => sendableServices(standing), [standing]);
  const choices = useMemo(() => modelChoices(needsOfDraft(draft), setUp), [draft, setUp]);
  const setDraft = (change: Partial<EditDraft>) => {
    const next = { ...(store().editDraft ?? draft), ...change };
    const usable = modelChoices(needsOfDraft(next), setUp).filter((one) => !one.blocked);
    const targets = next.targets.filter((target) =>
      usable.some((one) => one.provider === target.provider && one.model === target.model),
    );
    store().editSetDraft(targets.length === next.targets.length ? next : { ...next, targets });
  };
  return { draft, setDraft, choices, setUp, standing, plan: usePlan(draft) };
}
