/**
 * The import of a ComfyUI workflow in Settings: main's own dialog picks the file and main checks
 * it (`workflows:pick`, the page never names a path), the page maps each role to one of the
 * inputs main showed and names the model, and main keeps it (`workflows:save`). A refusal is
 * main's sentence (the check's, as `pictor comfy import` prints it). The file picked, its name and
 * its map are kept in the form drafts (form-drafts.ts) until saved or cancelled, so a new language,
 * which draws the window anew, keeps them; the token stays main's opaque handle (main refuses one
 * it does not hold, or holds no longer).
 */
import { useState } from 'react';
import type { WorkflowRole } from '../../../shared/domain/comfy-workflow';
import {
  isWorkflowName,
  workflowNameProblem,
  type WorkflowNameProblem,
} from '../../../shared/domain/workflow-name';
import { ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import type { WorkflowDraft } from '../../store/form-drafts';
import type { WorkflowPick } from '../../store/workflows-slice';

export type { WorkflowPick } from '../../store/workflows-slice';
export type RoleMap = WorkflowDraft['map'];

/** The roles each kind of input may take. */
export const ROLE_KIND: Readonly<Record<WorkflowRole, 'text' | 'number'>> = {
  prompt: 'text',
  negative: 'text',
  seed: 'number',
  width: 'number',
  height: 'number',
  steps: 'number',
  image: 'text',
};

/**
 * Why `name` cannot name a workflow beyond its letters, which the field's hint says (the one rule
 * main checks too, shared/domain/workflow-name.ts), or null.
 */
function shownProblem(name: string): Exclude<WorkflowNameProblem, 'form'> | null {
  const problem = workflowNameProblem(name);
  return problem === 'form' ? null : problem;
}

/** The first input the role's name suggests (a CLIP text box for the prompt, `seed` for the seed). */
function guessed(pick: WorkflowPick): RoleMap {
  const map: RoleMap = {};
  const find = (kind: 'text' | 'number', name: string, skip?: string) =>
    pick.nodes
      .flatMap((node) => node.inputs.map((input) => ({ node, input })))
      .map(({ node, input }) => ({ path: `${node.id}.${input.name}`, input }))
      .find(({ path, input }) => input.kind === kind && input.name === name && path !== skip)?.path;
  map.prompt = find('text', 'text');
  for (const role of ['seed', 'width', 'height', 'steps'] as const)
    map[role] = find('number', role);
  return Object.fromEntries(Object.entries(map).filter(([, path]) => path !== undefined));
}

export interface WorkflowImport {
  readonly pick: WorkflowPick | null;
  readonly name: string;
  readonly map: RoleMap;
  readonly error: ApiError | null;
  readonly saved: string | null;
  readonly busy: boolean;
  /** The name can name a model and the prompt has its input. */
  readonly ready: boolean;
  /** Why the name cannot name a workflow beyond its letters (`shownProblem`), or null. */
  readonly nameProblem: Exclude<WorkflowNameProblem, 'form'> | null;
  choose(): Promise<void>;
  setName(name: string): void;
  setRole(role: WorkflowRole, path: string): void;
  save(): Promise<void>;
  cancel(): void;
}

/** The map with `role` taking `path` ('' : no input). */
function withRole(map: RoleMap, role: WorkflowRole, path: string): RoleMap {
  const others = Object.entries(map).filter(([name]) => name !== role);
  return Object.fromEntries(path === '' ? others : [...others, [role, path]]) as RoleMap;
}

export function useWorkflowImport(): WorkflowImport {
  const [draft, setDraft] = useFormDraft('workflows.import', null);
  const drop = useAppStore((state) => state.formDraftDrop);
  const pick = draft?.pick ?? null;
  const name = draft?.name ?? '';
  const map = draft?.map ?? {};
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const store = useAppStore.getState;
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      if (!(thrown instanceof ApiError)) throw thrown;
      setError(thrown);
    } finally {
      setBusy(false);
    }
  };
  const choose = () =>
    run(async () => {
      setSaved(null);
      const chosen = await store().workflowsPick();
      if (!chosen) return;
      setDraft({ pick: chosen, name: chosen.suggestedName, map: guessed(chosen) });
    });
  const save = () =>
    run(async () => {
      if (!pick || map.prompt === undefined) return;
      const input = { token: pick.token, name, map: { ...map, prompt: map.prompt } };
      const kept = await store().workflowsSave(input);
      drop('workflows.import');
      setSaved(kept);
    });
  const ready = pick !== null && isWorkflowName(name) && map.prompt !== undefined;
  const cancel = () => {
    drop('workflows.import');
    setError(null);
  };
  const setName = (next: string) => {
    if (draft) setDraft({ ...draft, name: next });
  };
  const setRole = (role: WorkflowRole, path: string) => {
    if (draft) setDraft({ ...draft, map: withRole(draft.map, role, path) });
  };
  const state = { pick, name, map, error, saved, busy, ready, nameProblem: shownProblem(name) };
  return { ...state, choose, setName, setRole, save, cancel };
}
