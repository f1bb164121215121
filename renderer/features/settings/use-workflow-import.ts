/**
 * The import of a ComfyUI workflow in Settings: main's own dialog picks the file and main checks
 * it (`workflows:pick`, the page never names a path), the page maps each role to one of the
 * inputs main showed and names the model, and main keeps it (`workflows:save`). A refusal is
 * main's sentence (the check's, as `pictor comfy import` prints it).
 */
import { useState } from 'react';
import { WORKFLOW_ROLES, type WorkflowRole } from '../../../shared/domain/comfy-workflow';
import type { RequestOutput } from '../../../shared/ipc/contract';
import { ApiError, call } from '../../lib/api';
import { useAppStore } from '../../store/app-store';

export type WorkflowPick = NonNullable<RequestOutput<'workflows:pick'>['pick']>;
export type RoleMap = Partial<Record<WorkflowRole, string>>;

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

/** As main checks a workflow's name (workflow-contract.ts): the page only enables Save by it. */
function isWorkflowName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name) && !/\.\.|\.$/.test(name);
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
  choose(): Promise<void>;
  setName(name: string): void;
  setRole(role: WorkflowRole, path: string): void;
  save(): Promise<void>;
  cancel(): void;
}

export function useWorkflowImport(): WorkflowImport {
  const [pick, setPick] = useState<WorkflowPick | null>(null);
  const [name, setName] = useState('');
  const [map, setMap] = useState<RoleMap>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      if (thrown instanceof ApiError) setError(thrown);
      else throw thrown;
    } finally {
      setBusy(false);
    }
  };
  return {
    pick,
    name,
    map,
    error,
    saved,
    busy,
    ready: pick !== null && isWorkflowName(name) && map.prompt !== undefined,
    choose: () =>
      run(async () => {
        setSaved(null);
        const answer = await call('workflows:pick');
        if (!answer.pick) return;
        setPick(answer.pick);
        setName(answer.pick.suggestedName);
        setMap(guessed(answer.pick));
      }),
    setName,
    setRole: (role, path) =>
      setMap((old) => {
        const next = { ...old };
        if (path === '') delete next[role];
        else next[role] = path;
        return next;
      }),
    save: () =>
      run(async () => {
        if (!pick || map.prompt === undefined) return;
        const roles = Object.fromEntries(
          WORKFLOW_ROLES.flatMap((role) => (map[role] ? [[role, map[role]]] : [])),
        );
        await call('workflows:save', {
          token: pick.token,
          name,
          map: { ...roles, prompt: map.prompt },
        });
        setPick(null);
        setSaved(name);
        await useAppStore.getState().workflowsLoad();
      }),
    cancel: () => {
      setPick(null);
      setError(null);
    },
  };
}
